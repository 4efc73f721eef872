"""The deck file (TOML): its validated model and :func:`load_deck`, which gives a LoadedDeck.

Takes a deck file path; gives a :class:`LoadedDeck` holding the validated
:class:`DeckFile`, the domino set, the card geometry in mm and every picture and font
path resolved (inside the deck file's folder unless ``allow_outside``). Every problem is
a :class:`~deckgen.errors.SpecError` or :class:`~deckgen.errors.ResourceError` naming
the file and the key.

A picture path may start with ``demo:`` to name deckgen's own demo art in ``images/``
(``demo:logo.png``); starter files use that so they build as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from deckgen.deck.colour import RGB, parse_colour
from deckgen.deck.sizes import card_size
from deckgen.errors import SpecError
from deckgen.paths import require_file, resolve_inside
from deckgen.specfile import load_toml, validate
from deckgen.tiles import MAX_SUPPORTED_PIP, DominoSet

DEMO_PREFIX = "demo:"
MAX_TEXT_CHARS = 6000


def _check_colour(text: str) -> str:
    parse_colour(text)
    return text


def _check_size(text: str) -> str:
    card_size(text)
    return text


def _check_set(text: str) -> str:
    try:
        dset = DominoSet.from_name(text)
    except ValueError:
        from deckgen.errors import did_you_mean
        from deckgen.tiles import set_names

        hint = ""
        if not re.fullmatch(r"(?i)\s*double[- ]?\d+\s*", text):  # a typo, not a number
            hint = did_you_mean(text.strip().lower(), set_names())
        raise ValueError(
            f"'{text}' is not a domino set"
            + (f" ({hint})" if hint else "")
            + f"; use double-1 ... double-{MAX_SUPPORTED_PIP} "
            "(double-6, double-7, double-9 and double-12 are the common ones)"
        ) from None
    if dset.max_pip < 1:
        raise ValueError("a deck needs at least double-1")
    return dset.name


def _picture_ref(value: Any) -> Any:
    if isinstance(value, str):
        return {"file": value}
    return value


Colour = Annotated[str, AfterValidator(_check_colour)]
Unit = Annotated[float, Field(ge=0.0, le=1.0)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PictureRef(_Model):
    """A picture file and, for ``cover`` fit, the point to keep in view (0..1, 0..1)."""

    file: str = Field(min_length=1, max_length=500)
    focus: tuple[Unit, Unit] = (0.5, 0.5)


Picture = Annotated[PictureRef, BeforeValidator(_picture_ref)]


class CardModel(_Model):
    size: Annotated[str, AfterValidator(_check_size)] = "meinspiel"
    corner_radius_mm: float = Field(default=3.0, ge=0, le=20)
    bleed_mm: float = Field(default=3.0, ge=0, le=10)
    safe_mm: float = Field(default=4.0, ge=0, le=20)
    orientation: Literal["upright", "across"] = "upright"
    background: Colour = "#efe7d8"
    background_picture: Picture | None = None
    corner_index: bool = True


class FacesModel(_Model):
    style: Literal["pips", "numerals", "pictures", "pictures+pips"] = "pips"
    tile_colour: Colour = "#fffdf7"
    tile_edge: Colour = "#2b2b2b"
    pip_colours: Literal["palette", "mono"] = "palette"
    colours: list[Colour] | None = None
    ink: Colour = "#222222"
    pictures: list[Picture] = Field(default_factory=list, max_length=MAX_SUPPORTED_PIP)
    """One picture for each value 1 ... N (in order)."""
    zero_picture: Picture | None = None
    """The picture for 0 (optional; without it the 0 halves stay blank)."""
    fit: Literal["cover", "contain"] = "cover"
    half_rotation: bool = False
    """Turn the second half's picture (or numeral) by 180 degrees, so that it reads
    upright when the card is turned round."""


class BackModel(_Model):
    background: Colour = "#1d3557"
    picture: Picture | None = None
    logo: Picture | None = None
    logo_width: float = Field(default=0.6, ge=0.1, le=1.0)
    pattern: Literal["none", "dots", "diagonal", "lattice"] = "lattice"
    pattern_colour: Colour | None = None


class CoverModel(_Model):
    title: str | None = Field(default=None, max_length=200)
    subtitle: str = Field(default="", max_length=300)
    picture: Picture | None = None
    fit: Literal["cover", "contain"] | None = None
    """How the cover picture fills its box: ``cover`` (cropped around its focus) or
    ``contain`` (whole, on the cover colour). Unset: ``contain`` for a logo (the back's
    logo file, or a picture with transparency), else ``cover``."""
    background: Colour = "#1d3557"
    text_colour: Colour | None = None


class ImprintModel(_Model):
    text: str = Field(default="", max_length=MAX_TEXT_CHARS)
    rules: str = Field(default="", max_length=MAX_TEXT_CHARS)
    picture: Picture | None = None
    """A logo or photo above the imprint text (the text keeps its room)."""
    fit: Literal["cover", "contain"] = "contain"
    """``contain``: the whole picture, on the imprint colour (a logo is never cut);
    ``cover``: the box filled, cropped around the picture's focus."""
    background: Colour = "#fffdf7"
    text_colour: Colour = "#222222"


class FontsModel(_Model):
    regular: str | None = Field(default=None, max_length=500)
    bold: str | None = Field(default=None, max_length=500)


OffsetMm = Annotated[float, Field(ge=-20.0, le=20.0)]
"""A duplex back shift in mm; printers drift a few mm at most."""


class DeckFile(_Model):
    """The whole deck file, as validated from TOML."""

    name: str = Field(min_length=1, max_length=80)
    set: Annotated[str, AfterValidator(_check_set)] = "double-6"
    language: Literal["en", "de"] = "en"
    preset: str | None = Field(default=None, max_length=40)
    """The vendor preset the deck is made for (``deckgen deck new --preset``)."""
    back_offset_mm: tuple[OffsetMm, OffsetMm] = (0.0, 0.0)
    """How far to move the backs on duplex sheets (x, y in mm) to undo the shift a
    printer makes, as measured with ``deckgen deck calibrate``."""
    card: CardModel = Field(default_factory=CardModel)
    faces: FacesModel = Field(default_factory=FacesModel)
    back: BackModel = Field(default_factory=BackModel)
    cover: CoverModel = Field(default_factory=CoverModel)
    imprint: ImprintModel = Field(default_factory=ImprintModel)
    fonts: FontsModel = Field(default_factory=FontsModel)


@dataclass(frozen=True)
class ResolvedPicture:
    """A picture the deck uses: its file, focus point and the key that named it."""

    path: Path
    focus: tuple[float, float]
    key: str
    focus_given: bool = True
    """False when the deck file names no focus (then portraits keep their upper third)."""


@dataclass(frozen=True)
class LoadedDeck:
    """A validated deck file with its set, card geometry (mm) and resolved files."""

    spec: DeckFile
    path: Path
    dset: DominoSet
    width_mm: float
    height_mm: float
    value_pictures: tuple[ResolvedPicture, ...]
    card_picture: ResolvedPicture | None
    back_picture: ResolvedPicture | None
    logo: ResolvedPicture | None
    cover_picture: ResolvedPicture | None
    font_regular: Path | None
    font_bold: Path | None
    value_colours: tuple[RGB, ...] = field(default=())
    imprint_picture: ResolvedPicture | None = None
    zero_picture: ResolvedPicture | None = None

    def picture_for(self, value: int) -> ResolvedPicture | None:
        """The picture a half of ``value`` shows (None: no picture style, or a blank 0)."""
        if not self.uses_pictures:
            return None
        if value == 0:
            return self.zero_picture
        return self.value_pictures[value - 1]

    @property
    def cover_fit(self) -> Literal["cover", "contain"]:
        """The cover picture's fit: the deck file's, else ``contain`` for a logo."""
        given = self.spec.cover.fit
        if given is not None:
            return given
        pic = self.cover_picture
        if pic is None:
            return "cover"
        if self.logo is not None and pic.path.resolve() == self.logo.path.resolve():
            return "contain"
        return "contain" if _has_transparency(pic.path) else "cover"

    @property
    def pictures(self) -> list[ResolvedPicture]:
        """Every picture the deck names (each slot once, files may repeat)."""
        found = [
            *self.value_pictures,
            self.zero_picture,
            self.card_picture,
            self.back_picture,
            self.logo,
            self.cover_picture,
            self.imprint_picture,
        ]
        return [p for p in found if p is not None]

    @property
    def bleed_mm(self) -> float:
        return self.spec.card.bleed_mm

    @property
    def safe_mm(self) -> float:
        return self.spec.card.safe_mm

    @property
    def corner_radius_mm(self) -> float:
        return self.spec.card.corner_radius_mm

    @property
    def uses_pictures(self) -> bool:
        return self.spec.faces.style in ("pictures", "pictures+pips")

    @property
    def slug(self) -> str:
        """The deck name as a safe folder name (``Family Domino`` -> ``family-domino``)."""
        return slugify(self.spec.name)

    def with_imprint_rules(self, rules: str) -> LoadedDeck:
        """A copy whose imprint card carries ``rules`` (short rules text from a caller)."""
        imprint = self.spec.imprint.model_copy(update={"rules": rules})
        spec = self.spec.model_copy(update={"imprint": imprint})
        return _replace(self, spec=spec)


def _has_transparency(path: Path) -> bool:
    """Whether the picture file has an alpha channel or a transparent colour (a logo)."""
    from PIL import Image

    try:
        with Image.open(path) as image:
            return image.mode in ("RGBA", "LA", "PA", "La", "RGBa") or (
                "transparency" in image.info
            )
    except Exception:
        return False  # the picture loader reports unreadable files


def _replace(deck: LoadedDeck, **changes: Any) -> LoadedDeck:
    import dataclasses

    return dataclasses.replace(deck, **changes)


_GERMAN_FOLD = {
    "ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss", "ẞ": "SS",
}  # fmt: skip
"""German letters as German writes them without umlauts (Müller -> Mueller)."""


def slugify(name: str) -> str:
    """A lower-case ASCII folder name made of letters, digits and dashes.

    >>> slugify("Familie Müller: Große Runde")
    'familie-mueller-grosse-runde'
    """
    import unicodedata

    text = unicodedata.normalize("NFC", name)
    for german, ascii_form in _GERMAN_FOLD.items():
        text = text.replace(german, ascii_form)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^a-zA-Z0-9]+", "-", text).strip("-").lower()
    return text[:60] or "deck"


def resolve_picture(
    ref: PictureRef, *, base_dir: Path, where: str, allow_outside: bool
) -> ResolvedPicture:
    """Resolve a picture reference to an existing file (``demo:`` names our own art)."""
    from deckgen.deck.picturefile import customer_slot, shown_to_customer
    from deckgen.errors import DeckgenError
    from deckgen.resources import images_dir

    slot, _ = customer_slot(where)
    try:
        if ref.file.startswith(DEMO_PREFIX):
            path = resolve_inside(images_dir(), ref.file[len(DEMO_PREFIX) :], where=where)
        else:
            path = resolve_inside(base_dir, ref.file, where=where, allow_outside=allow_outside)
        require_file(
            path,
            shown=ref.file,
            what="picture",
            where=where,
            fix=f"put the file at {path} or correct the path (relative to the deck file)",
            slot=slot,
        )
    except DeckgenError as exc:
        raise shown_to_customer(exc) from None
    return ResolvedPicture(
        path=path,
        focus=ref.focus,
        key=where.rsplit("key ", 1)[-1],
        focus_given="focus" in ref.model_fields_set,
    )


def _resolve_font(
    text: str | None, *, base_dir: Path, where: str, allow_outside: bool
) -> Path | None:
    if not text:
        return None
    from deckgen.resources import fonts_dir

    if text.startswith(DEMO_PREFIX):
        path = resolve_inside(fonts_dir(), text[len(DEMO_PREFIX) :], where=where)
    else:
        path = resolve_inside(base_dir, text, where=where, allow_outside=allow_outside)
    require_file(
        path,
        shown=text,
        what="font file",
        where=where,
        fix="give the path of a .ttf or .otf file relative to the deck file, or remove "
        "the key to use the bundled font",
    )
    return path


def deck_from_data(data: dict[str, Any], *, path: Path, allow_outside: bool = False) -> LoadedDeck:
    """Validate already-parsed deck data (as from TOML) that belongs to ``path``."""
    spec = validate(
        DeckFile,
        data,
        path=path,
        what="deck file",
        fix="correct those keys (docs/deck.md and `deckgen deck new` show what each key takes)",
    )
    return _load(spec, path=path, allow_outside=allow_outside)


def load_deck(path: str | Path, *, allow_outside: bool = False) -> LoadedDeck:
    """Load, validate and resolve a deck file."""
    path = Path(path)
    data = load_toml(path, what="deck file")
    return deck_from_data(data, path=path, allow_outside=allow_outside)


def _load(spec: DeckFile, *, path: Path, allow_outside: bool) -> LoadedDeck:
    base = path.resolve().parent
    dset = DominoSet.from_name(spec.set)
    width, height = card_size(spec.card.size)
    card = spec.card
    if 2 * card.safe_mm > min(width, height) / 2:
        raise SpecError(
            f"a safe margin of {card.safe_mm:g} mm leaves too little room on a "
            f"{width:g} x {height:g} mm card",
            where=f"{path}, key card.safe_mm",
            fix=f"use at most {min(width, height) / 4:g} mm",
        )
    if card.corner_radius_mm > min(width, height) / 4:
        raise SpecError(
            f"a corner radius of {card.corner_radius_mm:g} mm is too large for a "
            f"{width:g} x {height:g} mm card",
            where=f"{path}, key card.corner_radius_mm",
            fix=f"use at most {min(width, height) / 4:g} mm",
        )

    def where(key: str) -> str:
        return f"{path}, key {key}"

    def pic(ref: PictureRef | None, key: str) -> ResolvedPicture | None:
        if ref is None:
            return None
        return resolve_picture(ref, base_dir=base, where=where(key), allow_outside=allow_outside)

    faces = spec.faces
    needed = dset.max_pip
    if faces.style in ("pictures", "pictures+pips") and len(faces.pictures) != needed:
        raise SpecError(
            f"{dset.name} needs {needed} pictures (one for each value 1 ... {needed}; "
            "the picture for 0 is faces.zero_picture and may be left out), but "
            f"faces.pictures lists {len(faces.pictures)}",
            where=where("faces.pictures"),
            fix=f"list exactly {needed} picture files"
            + (
                f" or choose a smaller set than {dset.name}"
                if len(faces.pictures) < needed
                else " or choose a larger set"
            ),
        )
    if faces.colours is not None and len(faces.colours) != needed:
        raise SpecError(
            f"{dset.name} needs {needed} colours in faces.colours (one for each value "
            f"1 ... {needed}), but it lists {len(faces.colours)}",
            where=where("faces.colours"),
            fix=f"list exactly {needed} colours, or remove the key to use the default palette",
        )
    value_pictures = tuple(
        resolve_picture(
            ref, base_dir=base, where=where(f"faces.pictures[{i}]"), allow_outside=allow_outside
        )
        for i, ref in enumerate(faces.pictures)
    )
    from deckgen.deck.colour import value_colour

    if faces.pip_colours == "mono":
        ink = parse_colour(faces.ink)
        colours = tuple(ink for _ in range(needed + 1))
    elif faces.colours is not None:
        colours = (parse_colour(faces.ink), *tuple(parse_colour(c) for c in faces.colours))
    else:
        colours = tuple(value_colour(v) for v in range(needed + 1))
    return LoadedDeck(
        spec=spec,
        path=path,
        dset=dset,
        width_mm=width,
        height_mm=height,
        value_pictures=value_pictures,
        card_picture=pic(card.background_picture, "card.background_picture"),
        back_picture=pic(spec.back.picture, "back.picture"),
        logo=pic(spec.back.logo, "back.logo"),
        cover_picture=pic(spec.cover.picture, "cover.picture"),
        imprint_picture=pic(spec.imprint.picture, "imprint.picture"),
        zero_picture=pic(faces.zero_picture, "faces.zero_picture"),
        font_regular=_resolve_font(
            spec.fonts.regular,
            base_dir=base,
            where=where("fonts.regular"),
            allow_outside=allow_outside,
        ),
        font_bold=_resolve_font(
            spec.fonts.bold,
            base_dir=base,
            where=where("fonts.bold"),
            allow_outside=allow_outside,
        ),
        value_colours=colours,
    )
