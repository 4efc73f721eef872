"""Vendor presets: what a print shop (or a home printer) wants, as data files.

Each preset is one TOML file in the project's ``presets/`` folder (``meinspiel.toml``,
``drivethrucards.toml`` ...). :func:`load_preset` takes a preset name and gives a
validated :class:`VendorPreset`: card size, bleed, safe zone, corner radius, dpi,
colour space, which files to write and how they are named, and for home printing the
paper, duplex flip and marks of the sheets. :func:`preset_names` lists the names.

>>> p = load_preset("meinspiel")
>>> (p.card_width_mm, p.card_height_mm, p.bleed_mm, p.document_size_mm)
(59.0, 91.0, 3.0, (65.0, 97.0))
>>> p.card_file_name(2, "0-0", "pdf")
'002-0-0.pdf'
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from deckgen.deck.sizes import CARD_SIZES_MM
from deckgen.deck.starter import StarterCard
from deckgen.errors import InputError, did_you_mean
from deckgen.resources import presets_dir
from deckgen.specfile import load_model
from deckgen.units import px_at

Paper = Literal["A4", "Letter", "A3", "SRA3"]
Duplex = Literal["long", "short"]
Marks = Literal["crop", "cut", "none"]
ColourSpace = Literal["rgb", "cmyk"]
PdfX = Literal["none", "x4", "x1a"]
OutputProfile = Literal["fogra39", "swop-tr003"]
Output = Literal[
    "cards-pdf",
    "card-pdfs",
    "fronts-backs-pdf",
    "card-pngs",
    "interleaved-pdf",
    "sheets",
    "tts",
]

PAPER_SIZES_MM: dict[str, tuple[float, float]] = {
    "A4": (210.0, 297.0),
    "Letter": (215.9, 279.4),
    "A3": (297.0, 420.0),
    "SRA3": (320.0, 450.0),
}
"""Portrait paper sizes (width, height) in mm."""

_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,40}$")
_FILE_FIELDS = {"number", "label"}


class SheetSettings(BaseModel):
    """How cards are imposed on sheets of paper for printing at home or in an office."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    paper: Paper = "A4"
    duplex: Duplex = "long"
    marks: Marks = "crop"
    gutter_mm: float = Field(default=0.0, ge=0, le=20, description="space between bleed boxes")
    bleed_mm: float | None = Field(
        default=None,
        ge=0,
        le=10,
        description="bleed kept around each card on the sheet (None: all)",
    )
    margin_mm: float = Field(default=3.0, ge=0, le=30, description="edge the printer cannot print")


class PngSettings(BaseModel):
    """Per-card PNG files: with bleed or trimmed, and the vendor's pixel size if it has one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    bleed: bool = True
    width_px: int | None = Field(default=None, gt=0, le=20000)
    height_px: int | None = Field(default=None, gt=0, le=20000)


class VendorPreset(BaseModel):
    """One vendor's (or home printer's) requirements, loaded from ``presets/<name>.toml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = ""
    title: str = Field(min_length=1, max_length=200)
    notes: str = ""
    card_width_mm: float = Field(gt=10, le=400)
    card_height_mm: float = Field(gt=10, le=400)
    bleed_mm: float = Field(ge=0, le=10)
    safe_mm: float = Field(ge=0, le=30)
    corner_radius_mm: float = Field(default=0.0, ge=0, le=30)
    card_size_required: bool = Field(
        default=True, description="the vendor prints only this card size (home presets: False)"
    )
    dpi: int = Field(default=300, ge=72, le=1200)
    min_ppi: int | None = Field(
        default=None,
        ge=36,
        le=1200,
        description="lowest picture resolution the vendor accepts (default: dpi)",
    )
    colour_space: ColourSpace = "rgb"
    crop_marks: bool = Field(default=False, description="crop marks on per-card PDF files")
    max_ink_percent: float = Field(default=300.0, ge=100, le=400)
    output_profile: OutputProfile = Field(
        default="fogra39",
        description="the CMYK printing condition: its profile converts the colours and is "
        "the output intent (icc/README.md)",
    )
    pdfx: PdfX = Field(
        default="none", description="PDF/X flavour of the CMYK files: x4, x1a or none"
    )
    min_text_pt: float = Field(default=6.0, ge=0, le=30, description="smallest text size")
    min_reversed_text_pt: float = Field(
        default=7.0, ge=0, le=30, description="smallest light text on a dark ground"
    )
    min_line_pt: float = Field(default=0.25, ge=0, le=5, description="thinnest line")
    print_shop: bool = Field(
        default=True,
        description="a shop prints the deck (a build refuses the starter's sample content "
        "until it is replaced); false for printing at home, where it only warns",
    )
    solid_black: bool = Field(
        default=False,
        description="black text and lines must be solid black ink (0/0/0/100), not a tint",
    )
    marks_allowed: bool = Field(
        default=True, description="the vendor accepts printer's marks in its files"
    )
    deck_sizes: list[int] = Field(
        default_factory=list,
        description="card counts the vendor sells; a deck is filled with blank cards "
        "up to the next one",
    )
    deck_sizes_source: str = Field(
        default="",
        max_length=600,
        description="where the card counts come from, and which counts are not known",
    )
    imprint_on_cover_back: bool = Field(
        default=False,
        description="the vendor's product counts the cover as one card whose back "
        "carries the imprint (fronts/backs upload)",
    )
    max_duplex_shift_mm: float | None = Field(default=None, ge=0, le=10)
    outputs: list[Output] = Field(min_length=1)
    card_file: str = "{number:03d}-{label}"
    back_file: str = "back"
    interleaved_file: str = "deck-back-front.pdf"
    fronts_file: str = "fronts"
    backs_file: str = "backs"
    png: PngSettings = Field(default_factory=PngSettings)
    sheet: SheetSettings | None = None

    @property
    def picture_min_ppi(self) -> int:
        """The lowest resolution a picture may print at for this vendor."""
        return self.min_ppi if self.min_ppi is not None else self.dpi

    @field_validator("outputs")
    @classmethod
    def _unique_outputs(cls, value: list[Output]) -> list[Output]:
        if len(set(value)) != len(value):
            raise ValueError("each output may be listed once")
        return value

    @field_validator("card_file")
    @classmethod
    def _card_pattern(cls, value: str) -> str:
        try:
            parsed = [p for p in string.Formatter().parse(value) if p[1] is not None]
        except ValueError as exc:
            raise ValueError(f"not a valid name pattern ({exc})") from None
        fields = [f for _, f, _, _ in parsed if f is not None]
        for _, _, spec, conversion in parsed:
            # Only a zero-padded width of one digit ({number:03}): never a width that
            # allocates gigabytes, a conversion or a lookup.
            if conversion is not None or not re.fullmatch(r"(0?[1-9])?d?", spec or ""):
                raise ValueError("a field may only be {number}, {label} or {number:03}")
        unknown = set(fields) - _FILE_FIELDS
        if unknown:
            raise ValueError(
                f"unknown field {{{sorted(unknown)[0]}}}; use {{number}} and {{label}}"
            )
        if "number" not in fields:
            raise ValueError("the pattern needs {number} so that files keep deck order")
        _check_file_stem(value.format(number=1, label="0-0"))
        return value

    @field_validator("back_file", "interleaved_file", "fronts_file", "backs_file")
    @classmethod
    def _plain_name(cls, value: str) -> str:
        _check_file_stem(value)
        return value

    @model_validator(mode="after")
    def _consistent(self) -> VendorPreset:
        if self.pdfx != "none" and self.colour_space != "cmyk":
            raise ValueError('pdfx needs colour_space = "cmyk" (PDF/X files are CMYK here)')
        if self.crop_marks and not self.marks_allowed:
            raise ValueError("crop_marks = true but marks_allowed = false")
        if self.deck_sizes != sorted(set(self.deck_sizes)) or any(n < 1 for n in self.deck_sizes):
            raise ValueError("deck_sizes must be increasing positive card counts")
        if self.deck_sizes and not self.deck_sizes_source:
            raise ValueError("deck_sizes needs deck_sizes_source: say where the counts come from")
        if self.fronts_file == self.backs_file:
            raise ValueError("fronts_file and backs_file must differ")
        if 2 * self.safe_mm >= min(self.card_width_mm, self.card_height_mm):
            raise ValueError("safe_mm leaves no room on the card")
        if "sheets" in self.outputs and self.sheet is None:
            raise ValueError("outputs lists 'sheets' but there is no [sheet] table")
        width_px, height_px = self.png_size_px
        for want, got, what in (
            (self.png.width_px, width_px, "width_px"),
            (self.png.height_px, height_px, "height_px"),
        ):
            if want is not None and abs(want - got) > 1:
                raise ValueError(
                    f"png.{what} = {want} does not match the card size at {self.dpi} dpi ({got} px)"
                )
        return self

    @property
    def document_size_mm(self) -> tuple[float, float]:
        """The card with its bleed on every side: the page size of a per-card file."""
        return (
            round(self.card_width_mm + 2 * self.bleed_mm, 4),
            round(self.card_height_mm + 2 * self.bleed_mm, 4),
        )

    @property
    def png_size_px(self) -> tuple[int, int]:
        """Pixel size of a per-card PNG at the preset's dpi (with or without bleed)."""
        extra = 2 * self.bleed_mm if self.png.bleed else 0.0
        return (
            px_at(self.card_width_mm + extra, self.dpi),
            px_at(self.card_height_mm + extra, self.dpi),
        )

    def deck_size_for(self, cards: int) -> int:
        """The card count the vendor prints for a deck of ``cards`` (blanks fill it up).

        >>> VendorPreset.model_validate(dict(
        ...     title="t", card_width_mm=63.5, card_height_mm=88.9, bleed_mm=3, safe_mm=3,
        ...     outputs=["card-pngs"], deck_sizes=[18, 36, 55], deck_sizes_source="x",
        ... )).deck_size_for(38)
        55

        A deck larger than every published count keeps its own count (no guess):
        :meth:`size_note` says what to ask the shop.
        """
        if not self.deck_sizes:
            return cards
        for size in self.deck_sizes:
            if size >= cards:
                return size
        return cards  # no published count: the cards as they are (see size_note)

    def size_note(self, cards: int) -> str | None:
        """What a customer must ask the shop when no published count fits ``cards``
        (deckgen does not guess one: the files then hold the deck's cards, no blanks)."""
        if not self.deck_sizes or any(size >= cards for size in self.deck_sizes):
            return None
        sizes = ", ".join(str(n) for n in self.deck_sizes)
        return (
            f"this deck has {cards} cards, more than any card count {self.name} publishes "
            f"({sizes}; source: {self.deck_sizes_source}): the fronts and backs files hold "
            f"the {cards} cards without blanks; ask the shop which product takes them "
            "(deckgen does not guess a card count)"
        )

    def upload_cards(self, labels: Sequence[str]) -> tuple[list[str], list[str]]:
        """The labels on the fronts and on the backs of the cards the vendor prints, in
        deck order (``back`` is the deck's common back), before blanks are added.

        With ``imprint_on_cover_back`` a deck that starts with its cover and ends with
        its imprint is one card shorter: the imprint is printed on the cover's back.

        >>> p = load_preset("meinspiel")
        >>> fronts, backs = p.upload_cards(["cover", "0-0", "0-1", "imprint"])
        >>> fronts, backs
        (['cover', '0-0', '0-1'], ['imprint', 'back', 'back'])
        """
        fronts = list(labels)
        backs = ["back"] * len(fronts)
        if (
            self.imprint_on_cover_back
            and len(fronts) >= 2
            and fronts[0] == "cover"
            and fronts[-1] == "imprint"
        ):
            fronts.pop()
            backs.pop()
            backs[0] = "imprint"
        return fronts, backs

    def card_size_text(self) -> str:
        """The card size as a listing shows it: ``59 x 91``, or for a preset that
        requires no size (it keeps the deck's own) ``63 x 88 (or the deck's own)``.

        >>> load_preset("home-a4").card_size_text()
        "63 x 88 (or the deck's own)"
        >>> load_preset("meinspiel").card_size_text()
        '59 x 91'
        """
        size = f"{self.card_width_mm:g} x {self.card_height_mm:g}"
        return size if self.card_size_required else f"{size} (or the deck's own)"

    def card_file_name(self, number: int, label: str, ext: str) -> str:
        """The file name of card ``number`` (1-based deck position) with ``label``."""
        return f"{self.card_file.format(number=number, label=label)}.{ext}"

    def back_file_name(self, ext: str) -> str:
        return f"{self.back_file}.{ext}"


def _check_file_stem(name: str) -> None:
    if not name or "/" in name or "\\" in name or name.startswith(".") or "\x00" in name:
        raise ValueError(f"'{name}' is not a plain file name")


def preset_names() -> list[str]:
    """The names of all presets shipped in ``presets/``, sorted."""
    folder = presets_dir()
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.toml") if _NAME_RE.match(p.stem))


def load_preset(name: str, *, where: str = "option --preset") -> VendorPreset:
    """Load and validate the preset ``name``; an unknown name is an InputError."""
    names = preset_names()
    if name not in names:
        hint = did_you_mean(name, names)
        raise InputError(
            f"unknown preset '{name}'" + (f", {hint}" if hint else ""),
            where=where,
            fix="use one of " + ", ".join(names) + " (`deckgen deck presets` lists them)",
        )
    return _load(presets_dir() / f"{name}.toml")


@lru_cache(maxsize=32)
def _load(path: Path) -> VendorPreset:
    preset = load_model(VendorPreset, path, what="preset")
    return preset.model_copy(update={"name": path.stem})


def load_preset_file(path: str | Path) -> VendorPreset:
    """Load a preset from any TOML file (a shop's own preset), named after the file."""
    path = Path(path)
    preset = load_model(VendorPreset, path, what="preset")
    return preset.model_copy(update={"name": path.stem})


def all_presets() -> list[VendorPreset]:
    """Every shipped preset, in name order."""
    return [load_preset(n) for n in preset_names()]


def preset_summary(preset: VendorPreset) -> dict[str, object]:
    """One preset as plain data for ``deck presets`` (table and ``--json``)."""
    return {
        "name": preset.name,
        "title": preset.title,
        "card_mm": [preset.card_width_mm, preset.card_height_mm],
        "card_size_required": preset.card_size_required,
        "card_size": preset.card_size_text(),
        "bleed_mm": preset.bleed_mm,
        "safe_mm": preset.safe_mm,
        "corner_radius_mm": preset.corner_radius_mm,
        "dpi": preset.dpi,
        "colour_space": preset.colour_space,
        "pdfx": preset.pdfx,
        "max_ink_percent": preset.max_ink_percent,
        "min_text_pt": preset.min_text_pt,
        "min_reversed_text_pt": preset.min_reversed_text_pt,
        "min_line_pt": preset.min_line_pt,
        "deck_sizes": list(preset.deck_sizes),
        "deck_sizes_source": preset.deck_sizes_source,
        "outputs": list(preset.outputs),
        "paper": preset.sheet.paper if preset.sheet else None,
        "notes": preset.notes,
    }


def card_from_preset(name: str) -> StarterCard:
    """Card settings from a vendor preset (the settings ``deckgen deck new --preset`` writes)."""
    p = load_preset(name)
    size = f"{p.card_width_mm:g} x {p.card_height_mm:g}"
    for named, (w, h) in CARD_SIZES_MM.items():
        if (w, h) == (p.card_width_mm, p.card_height_mm):
            size = named
    return StarterCard(
        size=size,
        bleed_mm=p.bleed_mm,
        safe_mm=p.safe_mm,
        corner_radius_mm=p.corner_radius_mm,
        preset=name,
    )
