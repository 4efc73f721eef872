"""The colour profiles deckgen ships, and the PDF/X output intent that embeds the CMYK
one: one place that names them.

- the CMYK output profile (FOGRA39, coated offset) of every CMYK file;
- ``sRGB.icc``: the sRGB profile embedded in every PNG a vendor gets (an ``iCCP``
  chunk), so that the shop knows the pixels are sRGB instead of guessing.
"""

from __future__ import annotations

import zlib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

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


@lru_cache(maxsize=1)
def srgb_profile() -> bytes:
    """The bytes of the shipped sRGB profile."""
    return srgb_profile_path().read_bytes()


def profile_path() -> Path:
    """The shipped CMYK output profile."""
    return icc_dir() / "deckgen-fogra39.icc"


@lru_cache(maxsize=4)
def _profile_bytes(path: str) -> bytes:
    """The profile, Flate-compressed once (it is embedded in every CMYK file)."""
    return zlib.compress(Path(path).read_bytes(), 9)


def add_output_intent(pdf: pikepdf.Pdf, profile: Path | None = None) -> None:
    """Embed the CMYK profile as the document's PDF/X output intent (FOGRA39)."""
    import pikepdf

    icc = pdf.make_stream(_profile_bytes(str(profile or profile_path())))
    icc.Filter = pikepdf.Name.FlateDecode
    icc.N = 4
    intent = pikepdf.Dictionary(
        Type=pikepdf.Name.OutputIntent,
        S=pikepdf.Name.GTS_PDFX,
        OutputConditionIdentifier=pikepdf.String(OUTPUT_CONDITION),
        OutputCondition=pikepdf.String(OUTPUT_CONDITION_INFO),
        RegistryName=pikepdf.String(REGISTRY),
        Info=pikepdf.String(OUTPUT_CONDITION_INFO),
        DestOutputProfile=icc,
    )
    pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(intent)])
    pdf.docinfo[pikepdf.Name.Trapped] = pikepdf.Name("/False")
