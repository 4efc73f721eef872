"""Converting a finished card PDF from sRGB to CMYK for a print shop, with an output intent.

Takes a PDF made by the deck build (reportlab, sRGB) and gives the same PDF in CMYK:

- pictures: every RGB (or RGB-indexed, or 3-channel ICC) image XObject is converted
  through the CMYK profile with Pillow's ImageCms (perceptual intent) and stored as
  DeviceCMYK, Flate-compressed (lossless); greyscale images and soft masks stay grey;
- vector colours: ``rg``/``RG`` and ``sc``/``scn`` in an RGB colour space become
  ``k``/``K`` through the same profile (relative colorimetric); pure black becomes
  100 % K alone, and black or grey text and stroked lines become a tint of K alone
  (:mod:`deckgen.prepress.blackink`): small text never prints in four inks; axial and
  radial shadings with exponential functions are converted too; transparency groups
  blend in DeviceCMYK;
- the document gets an OutputIntent (``GTS_PDFX``, ``FOGRA39``) that embeds the
  profile, as PDF/X asks.

The shipped profile is ``icc/deckgen-fogra39.icc`` (see ``icc/README.md`` for where it
comes from and its licence). :class:`CmykResult` says what was converted and what
was left (anything left in RGB is reported by the preflight).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen.errors import ResourceError
from deckgen.prepress.iccprofile import (
    add_output_intent,
    open_profile,
    profile_path,
)

if TYPE_CHECKING:
    import pikepdf
    from PIL import Image, ImageCms


@dataclass
class CmykResult:
    """What :func:`convert_pdf` converted, and what it could not."""

    images_converted: int = 0
    colours_converted: int = 0
    shadings_converted: int = 0
    k_only_colours: int = 0
    """Text and line colours printed in black ink alone (neutral greys and black)."""
    left_rgb: list[str] = field(default_factory=list)


@lru_cache(maxsize=4)
def _transforms(profile: str) -> tuple[ImageCms.ImageCmsTransform, ImageCms.ImageCmsTransform]:
    from PIL import ImageCms

    try:
        cmyk = open_profile(profile)
    except (OSError, ImageCms.PyCMSError) as exc:
        raise ResourceError(
            f"cannot read the CMYK profile '{profile}' ({exc})",
            fix="restore icc/deckgen-fogra39.icc from the repository",
        ) from None
    srgb = ImageCms.createProfile("sRGB")
    images = ImageCms.buildTransform(
        srgb, cmyk, "RGB", "CMYK", renderingIntent=ImageCms.Intent.PERCEPTUAL
    )
    flat = ImageCms.buildTransform(
        srgb,
        cmyk,
        "RGB",
        "CMYK",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )
    return images, flat


PROFILE_INK_LIMIT = 300.0
"""The total ink the shipped profile already keeps to (``colprof -l300``)."""


def rgb_image_to_cmyk(
    image: Image.Image, profile: Path | None = None, *, max_ink_percent: float | None = None
) -> Image.Image:
    """An RGB PIL image converted to CMYK through the profile (perceptual), its total
    ink kept to ``max_ink_percent`` if that is below the profile's own limit."""
    from PIL import ImageCms

    transform = _transforms(str(profile or profile_path()))[0]
    result = ImageCms.applyTransform(image.convert("RGB"), transform)
    assert result is not None
    if max_ink_percent is not None and max_ink_percent < PROFILE_INK_LIMIT:
        result = limit_ink(result, max_ink_percent)
    return result


def limit_ink(image: Image.Image, max_percent: float) -> Image.Image:
    """Keep C+M+Y+K of every pixel at or below ``max_percent`` by scaling C, M and Y
    down where the sum is too high (black is kept: it carries the detail)."""
    from PIL import Image, ImageMath

    limit = max_percent / 100 * 255
    c, m, y, k = (band.convert("F") for band in image.split())
    factor = ImageMath.lambda_eval(
        lambda a: a["min"](
            a["max"](limit - a["k"], 0.0) / a["max"](a["c"] + a["m"] + a["y"], 1.0), 1.0
        ),
        c=c,
        m=m,
        y=y,
        k=k,
    )
    scaled = [
        ImageMath.lambda_eval(lambda a: a["ch"] * a["f"], ch=ch, f=factor).convert("L")
        for ch in (c, m, y)
    ]
    return Image.merge("CMYK", [*scaled, k.convert("L")])


def limit_ink_colour(
    cmyk: tuple[float, float, float, float], max_percent: float
) -> tuple[float, float, float, float]:
    """The same ink limit for one colour (components 0..1)."""
    c, m, y, k = cmyk
    limit = max_percent / 100
    cmy = c + m + y
    if cmy + k <= limit or cmy <= 0:
        return cmyk
    factor = max(limit - k, 0.0) / cmy
    return (round(c * factor, 4), round(m * factor, 4), round(y * factor, 4), k)


class _ColourCache:
    """sRGB colours (0..1 floats) to CMYK (0..1 floats), converted once each."""

    def __init__(self, profile: Path, max_ink_percent: float | None = None) -> None:
        self.transform = _transforms(str(profile))[1]
        self.profile = profile
        self.max_ink = max_ink_percent
        self.cache: dict[tuple[int, int, int], tuple[float, float, float, float]] = {}
        self.black_cache: dict[tuple[float, float, float], tuple[float, float, float, float]] = {}

    def black(self, rgb: tuple[float, float, float]) -> tuple[float, float, float, float]:
        """A neutral colour as black ink alone (text and lines)."""
        from deckgen.prepress.blackink import k_only

        if rgb not in self.black_cache:
            self.black_cache[rgb] = k_only(rgb, self.profile)
        return self.black_cache[rgb]

    def __call__(self, rgb: tuple[float, float, float]) -> tuple[float, float, float, float]:
        from PIL import Image, ImageCms

        key = tuple(max(0, min(255, round(float(v) * 255))) for v in rgb)
        key3 = (key[0], key[1], key[2])
        if key3 == (0, 0, 0):
            return (0.0, 0.0, 0.0, 1.0)
        if key3 not in self.cache:
            pixel = Image.new("RGB", (1, 1), key3)
            out = ImageCms.applyTransform(pixel, self.transform)
            assert out is not None
            values = out.getpixel((0, 0))
            assert isinstance(values, tuple)
            converted = (
                round(values[0] / 255, 4),
                round(values[1] / 255, 4),
                round(values[2] / 255, 4),
                round(values[3] / 255, 4),
            )
            if self.max_ink is not None and self.max_ink < PROFILE_INK_LIMIT:
                converted = limit_ink_colour(converted, self.max_ink)
            self.cache[key3] = converted
        return self.cache[key3]


def is_rgb_space(space: Any, resources: Any) -> bool:
    """Whether a colour space (a name or array, maybe a resource name) is 3-channel RGB."""
    import pikepdf

    if isinstance(space, pikepdf.Name):
        if space == pikepdf.Name.DeviceRGB:
            return True
        if resources is not None and "/ColorSpace" in resources:
            named = resources.ColorSpace.get(str(space))
            if named is not None:
                return is_rgb_space(named, None)
        return False
    if isinstance(space, pikepdf.Array) and len(space) >= 2:
        kind = space[0]
        if kind == pikepdf.Name.ICCBased:
            return int(space[1].get("/N", 0)) == 3
        if kind == pikepdf.Name.CalRGB:
            return True
    return False


def _convert_content(
    instructions: list[Any], resources: Any, colours: _ColourCache, result: CmykResult
) -> list[Any] | None:
    """Rewrite RGB colour operators; ``None`` if nothing changed.

    Neutral colours that paint text or stroke lines become black only
    (:mod:`deckgen.prepress.blackink`); everything else goes through the profile.
    """
    import pikepdf

    from deckgen.prepress.blackink import colour_uses, is_neutral

    uses = colour_uses(instructions)
    out: list[Any] = []
    changed = False
    fill_rgb = stroke_rgb = False

    def convert(index: int, values: list[Any], stroke: bool) -> tuple[float, ...]:
        rgb = (float(values[0]), float(values[1]), float(values[2]))
        used = uses.get(index, set())
        black_only = is_neutral(rgb) and ("stroke" in used if stroke else "text" in used)
        result.colours_converted += 1
        if black_only:
            result.k_only_colours += 1
            return colours.black(rgb)
        return colours(rgb)

    for index, (operands, operator) in enumerate(instructions):
        op = str(operator)
        if op in ("rg", "RG") and len(operands) == 3:
            cmyk = convert(index, operands, op == "RG")
            out.append(([*cmyk], pikepdf.Operator("k" if op == "rg" else "K")))
            changed = True
            continue
        if op in ("cs", "CS") and operands:
            is_rgb = is_rgb_space(operands[0], resources)
            if op == "cs":
                fill_rgb = is_rgb
            else:
                stroke_rgb = is_rgb
            if is_rgb:
                out.append(([pikepdf.Name.DeviceCMYK], operator))
                changed = True
                continue
        if op in ("sc", "scn") and fill_rgb and len(operands) == 3:
            out.append(([*convert(index, operands, False)], operator))
            changed = True
            continue
        if op in ("SC", "SCN") and stroke_rgb and len(operands) == 3:
            out.append(([*convert(index, operands, True)], operator))
            changed = True
            continue
        out.append((operands, operator))
    return out if changed else None


def _convert_function(func: Any, colours: _ColourCache) -> bool:
    """Convert an exponential (type 2) or stitching (type 3) function's RGB outputs."""
    import pikepdf

    kind = int(func.get("/FunctionType", -1))
    if kind == 2:
        c0 = [float(v) for v in func.get("/C0", [0, 0, 0])]
        c1 = [float(v) for v in func.get("/C1", [1, 1, 1])]
        if len(c0) != 3 or len(c1) != 3:
            return False
        func.C0 = pikepdf.Array(list(colours((c0[0], c0[1], c0[2]))))
        func.C1 = pikepdf.Array(list(colours((c1[0], c1[1], c1[2]))))
        return True
    if kind == 3:
        return all(_convert_function(f, colours) for f in func.Functions)
    return False


def image_pixels(obj: pikepdf.Stream) -> Image.Image:
    """An image XObject's own pixels, without applying its soft mask."""
    import warnings

    import pikepdf
    from PIL import Image

    space = obj.get("/ColorSpace")
    modes = {"/DeviceRGB": "RGB", "/DeviceCMYK": "CMYK", "/DeviceGray": "L"}
    mode = modes.get(str(space)) if isinstance(space, pikepdf.Name) else None
    if (
        mode is not None
        and int(obj.get("/BitsPerComponent", 8)) == 8
        and "/Decode" not in obj
        and pikepdf.PdfImage(obj).filters in ([], ["/FlateDecode"])
    ):
        size = (int(obj.Width), int(obj.Height))
        return Image.frombytes(mode, size, obj.read_bytes())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pikepdf.PdfImage(obj).as_pil_image()


def _convert_image(
    obj: pikepdf.Stream, profile: Path, result: CmykResult, name: str, max_ink: float | None
) -> None:
    import pikepdf

    image = pikepdf.PdfImage(obj)
    space = obj.get("/ColorSpace")
    rgb = is_rgb_space(space, None)
    if image.indexed:
        base = space[1] if isinstance(space, pikepdf.Array) and len(space) > 1 else None
        rgb = base is not None and is_rgb_space(base, None)
    if not rgb:
        return
    try:
        pil = image_pixels(obj)
    except (pikepdf.PdfError, NotImplementedError, ValueError) as exc:
        result.left_rgb.append(f"image {name} could not be decoded ({exc})")
        return
    cmyk = rgb_image_to_cmyk(pil, profile, max_ink_percent=max_ink)
    obj.write(zlib.compress(cmyk.tobytes(), 6), filter=pikepdf.Name.FlateDecode)
    obj.ColorSpace = pikepdf.Name.DeviceCMYK
    obj.BitsPerComponent = 8
    for key in ("/Decode", "/DecodeParms"):
        if key in obj:
            del obj[key]
    result.images_converted += 1


def convert_document(
    pdf: pikepdf.Pdf, *, profile: Path | None = None, max_ink_percent: float | None = None
) -> CmykResult:
    """Convert ``pdf`` in place to CMYK (total ink at most ``max_ink_percent``, if
    given) and add the output intent."""
    import pikepdf

    profile = profile or profile_path()
    colours = _ColourCache(profile, max_ink_percent)
    result = CmykResult()
    seen_streams: set[tuple[int, int]] = set()

    def convert_stream_owner(owner: Any, contents: Any, resources: Any) -> None:
        instructions = pikepdf.parse_content_stream(contents)
        new = _convert_content(list(instructions), resources, colours, result)
        if new is not None:
            data = pikepdf.unparse_content_stream(new)
            if isinstance(owner, pikepdf.Page):
                owner.obj.Contents = pdf.make_stream(data)
            else:
                owner.write(data)

    for obj in list(pdf.objects):
        if not isinstance(obj, pikepdf.Stream | pikepdf.Dictionary):
            continue
        subtype = obj.get("/Subtype")
        if isinstance(obj, pikepdf.Stream) and subtype == pikepdf.Name.Image:
            key = obj.objgen
            if key not in seen_streams:
                seen_streams.add(key)
                _convert_image(obj, profile, result, f"{key[0]} {key[1]} R", max_ink_percent)
        elif isinstance(obj, pikepdf.Stream) and (
            subtype == pikepdf.Name.Form or obj.get("/PatternType") == 1
        ):
            convert_stream_owner(obj, obj, obj.get("/Resources"))
        if "/ShadingType" in obj and is_rgb_space(obj.get("/ColorSpace"), None):
            function = obj.get("/Function")
            if (
                function is not None
                and not isinstance(function, pikepdf.Array)
                and _convert_function(function, colours)
            ):
                obj.ColorSpace = pikepdf.Name.DeviceCMYK
                result.shadings_converted += 1
                continue
            result.left_rgb.append(f"a shading ({obj.objgen[0]} 0 R) kept in RGB")
        group = obj.get("/Group")
        if isinstance(group, pikepdf.Dictionary) and is_rgb_space(group.get("/CS"), None):
            group.CS = pikepdf.Name.DeviceCMYK
    for page in pdf.pages:
        convert_stream_owner(page, page, page.obj.get("/Resources"))
        group = page.obj.get("/Group")
        if isinstance(group, pikepdf.Dictionary) and is_rgb_space(group.get("/CS"), None):
            group.CS = pikepdf.Name.DeviceCMYK
    add_output_intent(pdf, profile)
    return result


def convert_pdf(
    source: Path,
    target: Path,
    *,
    profile: Path | None = None,
    max_ink_percent: float | None = None,
) -> CmykResult:
    """Read ``source``, convert it to CMYK, write ``target`` atomically."""
    import pikepdf

    from deckgen.prepress.pdfout import save_pdf

    with pikepdf.open(source) as pdf:
        result = convert_document(pdf, profile=profile, max_ink_percent=max_ink_percent)
        save_pdf(pdf, target)
    return result
