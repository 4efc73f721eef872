"""The print outputs of a deck build: sheets, per-card files, PNGs, CMYK, preflight.

Takes a folder that holds the deck build's ``cards.pdf`` and ``back.pdf``, the card
labels in deck order (``cover``, ``0-0`` ... ``imprint``) and :class:`PrintOptions`
(a vendor preset and/or explicit choices); writes into that folder, in this order:

1. ``png/`` one PNG per card plus the back, at the preset's dpi (from the sRGB cards);
2. for a CMYK job, ``cards.pdf`` and ``back.pdf`` converted in place (pictures through
   the ICC profile, vector colours, black-only text, total ink limit, output intent),
   and made PDF/X-4 or PDF/X-1a:2003 when the preset asks (:mod:`deckgen.prepress.pdfx`);
   every file made from them below is the same flavour;
3. ``cards/`` one PDF per card plus the back (MeinSpiel);
4. the back/front interleaved PDF (DriveThruCards);
5. ``sheets.pdf`` (fronts and backs for duplex) and ``calibration.pdf``;
6. the preflight of ``cards.pdf`` and ``back.pdf``: its findings as warnings, and as
   ``preflight.json`` when any print file was made.

Gives the files written (relative paths, kinds, page counts) for ``manifest.json``,
and the preflight report. Every file goes through :mod:`deckgen.atomic`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from deckgen.atomic import write_text
from deckgen.deck.resolution import DEFAULT_MIN_PPI
from deckgen.errors import InputError
from deckgen.prepress.imposition import SheetOptions, layout_for
from deckgen.prepress.preflight import PreflightReport, PreflightRules, preflight_pdf
from deckgen.prepress.presets import SheetSettings, VendorPreset
from deckgen.prepress.sourcedate import pdf_date
from deckgen.progress import CollectingReporter, Reporter

if TYPE_CHECKING:
    from deckgen.prepress.cardpages import CardPdfs
    from deckgen.prepress.contract import RuleBreak
    from deckgen.prepress.picturecheck import PictureCheck

CARD_FILE_PATTERN = "{number:03d}-{label}"
DEFAULT_DPI = 300
HOME_SHEET_BLEEDS_MM = (1.0, 0.5)
"""Without a preset's sheet settings, cards keep this much bleed on a sheet (the first
that fits the most) when that fits more cards than their full bleed: nine poker cards
on A4 (1 mm) or US Letter (0.5 mm, with room for crop marks) instead of six."""


@dataclass(frozen=True)
class PrintOptions:
    """What to make. ``None`` means: as the preset says (or the built-in default)."""

    preset: VendorPreset | None = None
    sheets: str | None = None
    duplex: Literal["long", "short"] | None = None
    marks: Literal["crop", "cut", "none"] | None = None
    png: bool = False
    cmyk: bool | None = None
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    workers: int | None = None
    preflight: bool = True
    safe_mm: float = 4.0
    """The deck's own safe margin (a preset's is used when it has one)."""
    corner_radius_mm: float | None = None
    """The deck's own corner radius (``None``: the preset's); the proof states it when
    the preset keeps the deck's own card size."""
    make_files: bool = True
    """False: only convert (for a CMYK job) and preflight, as ``deck check`` does."""
    force: bool = False
    """Make the files even when the deck breaks a rule of the preset (with a warning)."""
    ink_map: Path | None = None
    """Where to write the ink map PNG of a CMYK job (default: ``ink-map.png`` in the
    output folder when print files are made)."""
    card_pdfs: bool = False
    """Also one PDF per card (``cards/``), whatever the preset's own outputs."""
    language: str = "en"
    """The language of the proof sheet (the deck's language: ``de`` or ``en``)."""
    source_epoch: int | None = None
    """The creation date of the print files in seconds since 1970
    (:func:`deckgen.prepress.sourcedate.source_epoch` of the deck's inputs); ``None``
    keeps the card PDFs' own date."""


@dataclass(frozen=True)
class PrintFile:
    """A file written, relative to the output folder."""

    path: str
    kind: str
    pages: int | None = None


@dataclass
class PrintResult:
    files: list[PrintFile] = field(default_factory=list)
    preflight: PreflightReport | None = None
    cmyk: bool = False
    cards_per_sheet: int | None = None
    pdfx: str = "none"
    """The PDF/X flavour of the CMYK files (``x4``, ``x1a``) or ``none``."""
    ink_map: Path | None = None
    broken: list[RuleBreak] = field(default_factory=list)
    """Rules of the preset the deck breaks (made anyway with ``force``)."""
    upload_count: int | None = None
    """Pages of the fronts and backs PDFs (the vendor's card count), when made."""
    upload_blanks: int = 0
    """White cards among them."""


MAX_BACK_OFFSET_MM = 6.0
"""The calibration page's scales read -6 ... +6 mm (:data:`deckgen.prepress.calibration.
SCALE_MM`): a larger offset is not something it measured."""


def parse_back_offset(text: str, *, where: str = "option --back-offset") -> tuple[float, float]:
    """``"1.5,-2"`` -> (1.5, -2.0): the back offset in mm, x right and y up."""
    parts = text.replace(";", ",").split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (float(p.strip()) for p in parts)
    except ValueError:
        raise InputError(
            f"'{text}' is not a back offset",
            where=where,
            fix="give two numbers in mm, x then y, like --back-offset 1.5,-2",
        ) from None
    return check_back_offset((x, y), where=where)


def check_back_offset(
    offset: tuple[float, float], *, where: str = "option --back-offset"
) -> tuple[float, float]:
    """The offset, if the calibration page can measure it (each value within its scales)."""
    x, y = offset
    if not all(abs(v) <= MAX_BACK_OFFSET_MM and v == v for v in (x, y)):
        raise InputError(
            f"a back offset of {x:g}, {y:g} mm is beyond what calibration.pdf measures "
            f"(its scales read -{MAX_BACK_OFFSET_MM:g} ... +{MAX_BACK_OFFSET_MM:g} mm)",
            where=where,
            fix=f"use values between -{MAX_BACK_OFFSET_MM:g} and {MAX_BACK_OFFSET_MM:g} mm "
            "read from calibration.pdf; a printer that shifts more needs servicing",
        )
    return (x, y)


def wants_cmyk(options: PrintOptions) -> bool:
    if options.cmyk is not None:
        return options.cmyk
    return options.preset is not None and options.preset.colour_space == "cmyk"


def planned_outputs(options: PrintOptions) -> list[str]:
    """The print outputs these options ask for, in the order they are made."""
    if not options.make_files:
        return []
    wanted = set(options.preset.outputs) if options.preset else set()
    if options.sheets:
        wanted.add("sheets")
    if options.png:
        wanted.add("card-pngs")
    if options.card_pdfs:
        wanted.add("card-pdfs")
    order = ["card-pngs", "card-pdfs", "fronts-backs-pdf", "interleaved-pdf", "sheets"]
    return [o for o in order if o in wanted]


def _names(labels: Sequence[str], preset: VendorPreset | None, ext: str) -> list[str]:
    if preset is not None:
        return [preset.card_file_name(i + 1, label, ext) for i, label in enumerate(labels)]
    return [
        f"{CARD_FILE_PATTERN.format(number=i + 1, label=label)}.{ext}"
        for i, label in enumerate(labels)
    ]


def _back_name(preset: VendorPreset | None, ext: str) -> str:
    return preset.back_file_name(ext) if preset is not None else f"back.{ext}"


def _sheet_options(
    options: PrintOptions, card_mm: tuple[float, float], card_bleed: float
) -> SheetOptions:
    preset_sheet = options.preset.sheet if options.preset and options.preset.sheet else None
    base = preset_sheet or SheetSettings()
    paper = options.sheets or base.paper
    duplex = options.duplex or base.duplex
    marks = options.marks or base.marks
    colour: Literal["rgb", "cmyk"] = "cmyk" if wants_cmyk(options) else "rgb"

    def build(bleed: float | None) -> SheetOptions:
        return SheetOptions(
            paper=paper,
            duplex=duplex,
            marks=marks,
            back_offset_mm=options.back_offset_mm,
            bleed_mm=bleed,
            gutter_mm=base.gutter_mm,
            margin_mm=base.margin_mm,
            colour_space=colour,
        )

    if preset_sheet is not None:
        return build(preset_sheet.bleed_mm)
    best = build(None)
    try:
        best_count = layout_for(card_mm, card_bleed, best).per_sheet
    except InputError:
        best_count = 0
    for kept in HOME_SHEET_BLEEDS_MM:
        home = build(min(kept, card_bleed))
        try:
            count = layout_for(card_mm, card_bleed, home).per_sheet
        except InputError:
            continue
        if count > best_count:
            best, best_count = home, count
    return best


def make_print_outputs(
    folder: Path,
    labels: Sequence[str],
    options: PrintOptions,
    *,
    reporter: Reporter | None = None,
    pictures: Sequence[PictureCheck] | None = None,
    parsed: Mapping[str, Any] | None = None,
) -> PrintResult:
    """Make the print outputs for the cards in ``folder`` (see the module docstring).

    ``pictures`` (from :func:`deckgen.prepress.picturecheck.check_pictures`, when the
    deck is known) replace the per-card resolution findings by one per picture file.
    ``parsed``: ``cards.pdf`` and ``back.pdf`` as the build already parsed them
    (:class:`deckgen.deck.render.ParsedPdf`); the preflight reads those while the
    files are unchanged (an sRGB job) instead of parsing them again.

    pikepdf opens each of the two files once (:class:`~deckgen.prepress.cardpages.
    CardPdfs`); every step below reads and changes that one open pair.
    """
    from deckgen.prepress.cardpages import open_card_pdfs

    with open_card_pdfs(folder / "cards.pdf", folder / "back.pdf") as pdfs:
        return _make_outputs(
            folder,
            labels,
            options,
            pdfs,
            reporter=reporter or CollectingReporter(),
            pictures=pictures,
            parsed=parsed,
        )


def _make_outputs(
    folder: Path,
    labels: Sequence[str],
    options: PrintOptions,
    pdfs: CardPdfs,
    *,
    reporter: Reporter,
    pictures: Sequence[PictureCheck] | None,
    parsed: Mapping[str, Any] | None,
) -> PrintResult:
    """:func:`make_print_outputs` on the card PDFs opened once (``pdfs``)."""
    import pikepdf

    from deckgen.prepress.pdfout import save_pdf

    cards_pdf, back_pdf = folder / "cards.pdf", folder / "back.pdf"
    result = PrintResult(cmyk=wants_cmyk(options))
    preset = options.preset
    outputs = planned_outputs(options)
    geometry = pdfs.geometry
    pages = len(pdfs.cards.pages)
    found_title = pdfs.cards.docinfo.get("/Title")
    title = str(found_title) if found_title is not None else "deckgen cards"
    if pages != len(labels):
        raise ValueError(f"{len(labels)} labels for {pages} card pages")
    if "sheets" not in outputs and (options.duplex or options.marks):
        reporter.warn(
            "--duplex and --marks apply to sheets only: add --sheets A4 (or Letter, A3, SRA3)"
        )

    if "card-pngs" in outputs:
        from deckgen.prepress.rasterize import PngJob, render_pngs

        png_names = _names(labels, preset, "png")
        jobs = [PngJob(cards_pdf, i, folder / "png" / name) for i, name in enumerate(png_names)]
        jobs.append(PngJob(back_pdf, 0, folder / "png" / _back_name(preset, "png")))
        render_pngs(
            jobs,
            dpi=preset.dpi if preset else DEFAULT_DPI,
            bleed=preset.png.bleed if preset else True,
            workers=options.workers,
            reporter=reporter,
        )
        result.files += [PrintFile(f"png/{job.target.name}", "card-png") for job in jobs]
        if preset is not None and preset.deck_sizes:
            result.files += _blank_pngs(folder / "png", preset, len(labels), reporter)

    flavour = preset.pdfx if preset is not None and result.cmyk else "none"
    from deckgen.prepress.iccprofile import profile_path

    profile = profile_path(preset.output_profile if preset is not None else "fogra39")
    upload = None
    if "fronts-backs-pdf" in outputs:
        upload = _upload_plan(labels, preset)
        assert preset is not None
        note = preset.size_note(len(upload[0]))
        if note is not None:
            reporter.warn(note)
    opened = ((cards_pdf, pdfs.cards), (back_pdf, pdfs.back))
    if result.cmyk:
        from deckgen.prepress.cmyk import convert_document

        reporter.start("converting to CMYK", 2)
        max_ink = preset.max_ink_percent if preset else None
        for path, document in opened:
            converted = convert_document(document, profile=profile, max_ink_percent=max_ink)
            for problem in converted.left_rgb:
                reporter.warn(f"{path.name}: {problem}")
            reporter.advance()
        reporter.finish()
    deck_name = title.rsplit(": ", 1)[0] if ": " in title else title
    created = pdf_date(options.source_epoch) if options.source_epoch is not None else None
    titles: dict[Path, str] = {}

    def finish(pdf: pikepdf.Pdf, target: Path) -> None:
        """The flavour, output intent and metadata of every print file: its own title,
        IDs and the deck's source date."""
        from deckgen.prepress.iccprofile import add_output_intent
        from deckgen.prepress.pdfx import make_pdfx, set_metadata

        name = (
            target.relative_to(folder).as_posix() if target.is_relative_to(folder) else target.name
        )
        own_title = titles.get(target, f"{deck_name}: {target.stem}")
        if flavour != "none":
            if "/Title" in pdf.docinfo:
                del pdf.docinfo["/Title"]
            make_pdfx(
                pdf, flavour, title=own_title, file_name=name, created=created, profile=profile
            )
            return
        if result.cmyk:
            add_output_intent(pdf, profile)
        set_metadata(pdf, title=own_title, file_name=name, created=created)

    titles[cards_pdf] = f"{deck_name}: card fronts"
    titles[back_pdf] = f"{deck_name}: card back"
    if result.cmyk:  # converted in memory: saved once, finished
        for path, document in opened:
            finish(document, path)
            save_pdf(document, path)
        result.pdfx = flavour

    if "card-pdfs" in outputs:
        from deckgen.prepress.cardfiles import split_cards

        names = _names(labels, preset, "pdf")
        targets = [folder / "cards" / n for n in names]
        back_target = folder / "cards" / _back_name(preset, "pdf")
        for number, (card_target, label) in enumerate(zip(targets, labels, strict=True), 1):
            titles[card_target] = (
                f"{deck_name}: card {number} of {len(labels)}, {_card_names([label])[0]}"
            )
        titles[back_target] = f"{deck_name}: card back"
        written = split_cards(
            pdfs,
            targets,
            back_target,
            crop_marks=preset.crop_marks if preset else False,
            colour_space="cmyk" if result.cmyk else "rgb",
            finish=finish,
            reporter=reporter,
        )
        result.files += [PrintFile(f"cards/{p.name}", "card-pdf", 1) for p in written]

    if upload is not None and preset is not None:
        from deckgen.prepress.cardfiles import fronts_and_backs

        fronts, backs, count = upload
        fronts_target = folder / f"{preset.fronts_file}.pdf"
        backs_target = folder / f"{preset.backs_file}.pdf"
        blanks = count - len(fronts)
        extra = f", {blanks} blank" if blanks else ""
        titles[fronts_target] = f"{deck_name}: card fronts for {preset.name}, {count} pages{extra}"
        titles[backs_target] = f"{deck_name}: card backs for {preset.name}, {count} pages{extra}"
        fronts_and_backs(
            pdfs,
            fronts,
            backs,
            count,
            fronts_target,
            backs_target,
            finish=finish,
        )
        result.files.append(PrintFile(fronts_target.name, "fronts-pdf", count))
        result.files.append(PrintFile(backs_target.name, "backs-pdf", count))
        result.upload_count = count
        result.upload_blanks = blanks
        if blanks:
            why = (
                f" ({len(labels)} cards built, the imprint printed on the cover's back)"
                if len(fronts) < len(labels)
                else ""
            )
            reporter.warn(
                f"{preset.name} prints {count} cards: {blanks} white cards fill this deck "
                f"of {len(fronts)}{why} in {fronts_target.name} and {backs_target.name}"
            )

    if "interleaved-pdf" in outputs:
        from deckgen.prepress.cardfiles import interleave_back_front

        name = f"{preset.interleaved_file if preset else 'deck-back-front'}.pdf"
        titles[folder / name] = f"{deck_name}: backs and fronts, each back before its front"
        interleave_back_front(pdfs, folder / name, finish=finish)
        result.files.append(PrintFile(name, "back-front-pdf", 2 * pages))

    if "sheets" in outputs:
        from deckgen.prepress.calibration import write_calibration
        from deckgen.prepress.imposition import impose_card_pdfs

        sheet_options = _sheet_options(
            options, (geometry.card_w_mm, geometry.card_h_mm), geometry.bleed_mm
        )
        imposed = impose_card_pdfs(pdfs, sheet_options, reporter=reporter)
        duplex = "DuplexFlipLongEdge" if sheet_options.duplex == "long" else "DuplexFlipShortEdge"
        imposed.pdf.Root.ViewerPreferences.Duplex = pikepdf.Name("/" + duplex)
        titles[folder / "sheets.pdf"] = f"{deck_name}: sheets for duplex printing"
        finish(imposed.pdf, folder / "sheets.pdf")
        save_pdf(imposed.pdf, folder / "sheets.pdf")
        result.cards_per_sheet = imposed.layout.per_sheet
        result.files.append(PrintFile("sheets.pdf", "sheets", 2 * imposed.sheets))
        calibration = folder / "calibration.pdf"
        write_calibration(calibration, paper=sheet_options.paper, duplex=sheet_options.duplex)
        titles[calibration] = f"{deck_name}: duplex calibration page"
        with pikepdf.open(calibration, allow_overwriting_input=True) as pdf:
            pdf.docinfo[pikepdf.Name.Author] = pikepdf.String("deckgen")
            from deckgen.prepress.pdfx import set_metadata

            set_metadata(
                pdf, title=titles[calibration], file_name=calibration.name, created=created
            )
            save_pdf(pdf, calibration)
        result.files.append(PrintFile("calibration.pdf", "calibration", 2))
        reporter.info(
            f"sheets: {imposed.layout.per_sheet} cards a sheet on {sheet_options.paper}, "
            f"{imposed.sheets} sheets, duplex {sheet_options.duplex} edge"
        )
        if sheet_options.marks == "crop":
            from deckgen.prepress.marks import marks_note

            note = marks_note(imposed.layout, margin_mm=sheet_options.margin_mm)
            if note is not None:
                reporter.warn(f"sheets.pdf: {note}")

    if options.preflight:
        rules = PreflightRules(
            min_dpi=preset.picture_min_ppi if preset else DEFAULT_MIN_PPI,
            safe_mm=preset.safe_mm if preset else options.safe_mm,
            cmyk=result.cmyk,
            max_ink_percent=preset.max_ink_percent if preset else 300.0,
            min_text_pt=preset.min_text_pt if preset else 0.0,
            min_reversed_text_pt=preset.min_reversed_text_pt if preset else 0.0,
            min_line_pt=preset.min_line_pt if preset else 0.0,
        )
        reporter.start("preflight", None)
        unchanged = dict(parsed or {}) if not result.cmyk else {}

        def shared(name: str) -> Any:
            found = unchanged.get(name)
            return found.document if found is not None else None

        report = preflight_pdf(
            cards_pdf,
            _card_names(labels),
            rules,
            parsed=shared("cards.pdf"),
            opened=pdfs.cards,
        )
        report = preflight_pdf(
            back_pdf,
            ["the back"],
            rules,
            report=report,
            parsed=shared("back.pdf"),
            opened=pdfs.back,
        )
        if preset is not None and preset.card_size_required:
            _check_size(preset, geometry.card_w_mm, geometry.card_h_mm, geometry.bleed_mm, report)
        if pictures is not None:
            _picture_findings(report, pictures, rules.min_dpi)
        if result.cmyk:
            map_png = _ink_check(report, (cards_pdf, back_pdf), labels, rules.max_ink_percent)
            target = options.ink_map or (folder / "ink-map.png" if outputs else None)
            if target is not None:
                from deckgen.atomic import write_bytes

                write_bytes(target, map_png)
                if target.parent == folder:
                    result.files.append(PrintFile(target.name, "ink-map"))
                result.ink_map = target
        reporter.finish()
        for line in report.summary_lines():
            reporter.warn(f"preflight: {line}")
        if outputs or result.cmyk:  # a plain build only warns
            write_text(folder / "preflight.json", report.to_json())
            result.files.append(PrintFile("preflight.json", "preflight"))
        result.preflight = report
        if preset is not None and options.make_files:
            from deckgen.prepress.contract import enforce

            result.broken = enforce(report, preset, force=options.force, reporter=reporter)
    if outputs and preset is not None:
        _write_proof(folder, labels, options, result, deck_name, created, pdfs)
    return result


def _write_proof(
    folder: Path,
    labels: Sequence[str],
    options: PrintOptions,
    result: PrintResult,
    deck_name: str,
    created: str | None,
    pdfs: CardPdfs,
) -> None:
    """``proof.pdf``: every card, the back, trim and safe lines, the count, the checks."""
    from deckgen.prepress.pdfout import save_pdf
    from deckgen.prepress.proof import TEXT, ProofFacts, proof_document

    preset = options.preset
    assert preset is not None
    fronts, _ = preset.upload_cards(labels)
    printed = result.upload_count or preset.deck_size_for(len(fronts))
    facts = ProofFacts(
        deck_name=deck_name,
        labels=tuple(labels),
        printed=printed,
        blanks=printed - len(fronts),
        imprint_on_cover_back=len(fronts) < len(labels),
        language=options.language,
        # as built: a preset with a required size re-makes the deck to its own corners
        # and at least its safe margin; another keeps the deck's (see contract.fit_deck)
        safe_mm=options.safe_mm
        if not preset.card_size_required
        else max(options.safe_mm, preset.safe_mm),
        corner_radius_mm=options.corner_radius_mm
        if options.corner_radius_mm is not None and not preset.card_size_required
        else preset.corner_radius_mm,
    )
    target = folder / "proof.pdf"
    words = TEXT.get(options.language, TEXT["en"])
    title = f"{deck_name}: {words['title']}"
    with proof_document(pdfs, facts, preset, result.preflight) as pdf:
        if "/OutputIntents" in pdf.Root:
            del pdf.Root["/OutputIntents"]
        from deckgen.prepress.pdfx import set_metadata

        set_metadata(pdf, title=title, file_name=target.name, created=created)
        save_pdf(pdf, target)
    result.files.append(PrintFile(target.name, "proof", 1))


def _picture_findings(
    report: PreflightReport, pictures: Sequence[PictureCheck], min_dpi: int
) -> None:
    """One low-dpi finding per picture file (naming it) instead of one per card."""
    from dataclasses import asdict

    from deckgen.prepress.picturecheck import low_dpi_findings

    report.findings = [f for f in report.findings if f.kind != "low-dpi"]
    report.findings += low_dpi_findings(list(pictures), dpi=min_dpi)
    report.picture_files = [asdict(p) for p in pictures]


def _ink_check(
    report: PreflightReport, pdfs: Sequence[Path], labels: Sequence[str], limit: float
) -> bytes:
    """Total ink as rendered (Ghostscript) per card, findings above the limit, the map."""
    from deckgen.prepress.inkmap import ink_map_png, page_ink, render_cmyk_pages
    from deckgen.prepress.preflight import CardInk, Finding

    names = [*_card_names(labels), "the back"]
    pages = []
    files = []
    for pdf in pdfs:
        rendered = render_cmyk_pages(pdf)
        pages += rendered
        files += [(pdf.name, n) for n in range(1, len(rendered) + 1)]
    report.findings = [f for f in report.findings if f.kind != "ink-over-limit"]
    report.ink_limit_percent = limit
    for ink, (file, number), name in zip(page_ink(pages, limit), files, names, strict=False):
        report.ink.append(CardInk(name, file, number, ink.max_percent, ink.over_fraction))
        if ink.max_percent > limit + 0.5:
            report.findings.append(
                Finding(
                    "ink-over-limit",
                    name,
                    file,
                    number,
                    f"total ink reaches {ink.max_percent:.0f} % on "
                    f"{ink.over_fraction * 100:.2f} % of the card, more than the {limit:.0f} % "
                    "allowed (red on ink-map.png): lighten the darkest colours",
                    ink.max_percent,
                )
            )
    return ink_map_png(pages, limit)


def _blank_pngs(
    folder: Path, preset: VendorPreset, cards: int, reporter: Reporter
) -> list[PrintFile]:
    """Plain white fronts that fill the deck up to the vendor's next deck size."""
    from PIL import Image

    from deckgen.atomic import write_bytes

    size = preset.deck_size_for(cards)
    if size == cards:
        return []
    import io

    buffer = io.BytesIO()
    from deckgen.prepress.pngwrite import png_bytes

    buffer.write(png_bytes(Image.new("RGB", preset.png_size_px, (255, 255, 255)), preset.dpi))
    out = []
    for number in range(cards + 1, size + 1):
        name = preset.card_file_name(number, "blank", "png")
        write_bytes(folder / name, buffer.getvalue())
        out.append(PrintFile(f"png/{name}", "blank-png"))
    reporter.info(
        f"{preset.name} sells decks of {size} cards: {size - cards} blank fronts fill this "
        f"deck of {cards}"
    )
    return out


def _upload_plan(
    labels: Sequence[str], preset: VendorPreset | None
) -> tuple[list[int], list[int | None], int]:
    """Which card page is on each front and each back of the fronts/backs upload
    (``None``: the common back), and the vendor's card count to pad to."""
    if preset is None:
        raise ValueError("the fronts and backs PDFs need a vendor preset")
    fronts, backs = preset.upload_cards(labels)
    index = {label: i for i, label in enumerate(labels)}
    front_pages = list(range(len(fronts)))
    back_pages: list[int | None] = [None if b == "back" else index[b] for b in backs]
    return front_pages, back_pages, preset.deck_size_for(len(fronts))


def _card_names(labels: Sequence[str]) -> list[str]:
    return [f"the {x} card" if x in ("cover", "imprint") else f"tile {x}" for x in labels]


def _check_size(
    preset: VendorPreset, width: float, height: float, bleed: float, report: PreflightReport
) -> None:
    from deckgen.prepress.preflight import Finding

    if abs(width - preset.card_width_mm) > 0.3 or abs(height - preset.card_height_mm) > 0.3:
        report.findings.append(
            Finding(
                "card-size",
                "every card",
                "cards.pdf",
                1,
                f"the cards are {width:g} x {height:g} mm but {preset.name} prints "
                f"{preset.card_width_mm:g} x {preset.card_height_mm:g} mm: set the card size "
                "in the deck file",
            )
        )
    if bleed + 0.05 < preset.bleed_mm:
        report.findings.append(
            Finding(
                "bleed",
                "every card",
                "cards.pdf",
                1,
                f"the cards have {bleed:g} mm bleed but {preset.name} needs {preset.bleed_mm:g} mm",
            )
        )
