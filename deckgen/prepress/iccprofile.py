"""The colour profiles deckgen ships, and the PDF/X output intent that embeds the CMYK
one: one place that names them.

- the CMYK output profiles: FOGRA39 (coated offset, the default) and SWOP (CGATS TR 003,
  for a vendor that asks for SWOP), each with its registry identifier;
- ``sRGB.icc``: the sRGB profile embedded in every PNG a vendor gets (an ``iCCP``
  chunk), so that the shop knows the pixels are sRGB instead of guessing.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen.resources import icc_dir

if TYPE_CHECKING:
    import pikepdf

OUTPUT_CONDITION = "FOGRA39"
OUTPUT_CONDITION_INFO = "Coated offset, ISO 12647-2:2004/Amd 1 (FOGRA39)"
REGISTRY = "http://www.color.org"


SRGB_NAME = "sRGB"


def srgb_profile_path() -> Path:
    """The sRGB profile (icc-profiles-free, zlib licence; see ``icc/README.md``)."""
    return icc_dir() / "sRGB.icc"


def open_profile(path: str | Path) -> Any:
    """The ICC profile at ``path`` for Pillow's ImageCms, read whole into memory.
    (littleCMS reads a profile opened from a file lazily, through a file offset that a
    forked child shares: two processes converting at once read each other's tags.)
    Raises OSError or ``ImageCms.PyCMSError`` for a file that is not a profile."""
    import io

    from PIL import ImageCms

    return ImageCms.ImageCmsProfile(io.BytesIO(Path(path).read_bytes()))


@lru_cache(maxsize=1)
def srgb_profile() -> bytes:
    """The bytes of the shipped sRGB profile."""
    return srgb_profile_path().read_bytes()


@dataclass(frozen=True)
class OutputCondition:
    """A printing condition deckgen ships a CMYK profile for (``icc/README.md`` says
    where each comes from): the profile file and its ICC registry identifier."""

    file: str
    identifier: str
    info: str


OUTPUT_CONDITIONS: dict[str, OutputCondition] = {
    "fogra39": OutputCondition("deckgen-fogra39.icc", OUTPUT_CONDITION, OUTPUT_CONDITION_INFO),
    "swop-tr003": OutputCondition(
        "deckgen-swop-tr003.icc",
        "CGATS TR 003",
        "SWOP, web offset on grade 3 coated paper (CGATS/SWOP TR 003)",
    ),
}
"""By the name a preset gives (``output_profile``)."""


def profile_path(condition: str = "fogra39") -> Path:
    """The shipped CMYK output profile of ``condition`` (FOGRA39 by default)."""
    return icc_dir() / OUTPUT_CONDITIONS[condition].file


def _condition_of(profile: Path) -> OutputCondition:
    for condition in OUTPUT_CONDITIONS.values():
        if condition.file == profile.name:
            return condition
    return OutputCondition(profile.name, profile.stem, f"Printing condition of {profile.name}")


@lru_cache(maxsize=4)
def _profile_bytes(path: str) -> bytes:
    """The profile, Flate-compressed once (it is embedded in every CMYK file)."""
    return zlib.compress(Path(path).read_bytes(), 9)


def add_output_intent(pdf: pikepdf.Pdf, profile: Path | None = None) -> None:
    """Embed the CMYK profile (FOGRA39 unless another is given) as the document's
    PDF/X output intent, named by its registry identifier."""
    import pikepdf

    profile = profile or profile_path()
    condition = _condition_of(profile)
    icc = pdf.make_stream(_profile_bytes(str(profile)))
    icc.Filter = pikepdf.Name.FlateDecode
    icc.N = 4
    intent = pikepdf.Dictionary(
        Type=pikepdf.Name.OutputIntent,
        S=pikepdf.Name.GTS_PDFX,
        OutputConditionIdentifier=pikepdf.String(condition.identifier),
        OutputCondition=pikepdf.String(condition.info),
        RegistryName=pikepdf.String(REGISTRY),
        Info=pikepdf.String(condition.info),
        DestOutputProfile=icc,
    )
    pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(intent)])
    pdf.docinfo[pikepdf.Name.Trapped] = pikepdf.Name("/False")
