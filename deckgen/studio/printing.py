"""The print files of the studio's deck: the same ``deck build`` writes, in one zip.

The one module of the studio that knows the print pipeline (vendor profiles, the print
step of ``deck build``, the preflight), so that moving that pipeline touches one file.
:func:`build_print_zip` saves the deck file, builds it into the project's ``print/``
folder exactly as ``deckgen deck build deck.toml --out print`` would (the deck file's
vendor profile decides the files), adds the preflight report and zips it all.
:func:`deck_zip` packs the deck file with its pictures so the same deck builds again
from the command line.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen import atomic
from deckgen.progress import CollectingReporter

if TYPE_CHECKING:
    from deckgen.studio.i18n import Message
    from deckgen.studio.project import StudioProject

PRINT_DIR = "print"
PREFLIGHT_JSON = "preflight.json"
ZIP_TIME = (2026, 1, 1, 0, 0, 0)
"""Every zip entry gets this time: the same files give the same zip."""


def profile_names() -> list[str]:
    """The vendor profiles (``presets/*.toml``) by name."""
    from deckgen.prepress.presets import all_presets

    return [p.name for p in all_presets()]


def profiles(lang: str = "en") -> list[tuple[str, str]]:
    """Each vendor profile's name and the printer's name in ``lang``, for the page."""
    from deckgen.prepress.presets import all_presets

    return [(p.name, printer_name(p.name, p.title, lang)) for p in all_presets()]


def _zip(files: list[tuple[str, Path | bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, source in files:
            data = source if isinstance(source, bytes) else source.read_bytes()
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return buf.getvalue()


def build_print_zip(project: StudioProject, *, force: bool = False) -> tuple[bytes, list[str]]:
    """Build the print files into ``print/`` and give them zipped, with the warnings.

    A deck that breaks a rule of its printer's profile raises
    :class:`~deckgen.prepress.contract.ContractError`, as ``deck build`` does; with
    ``force`` (the user said "make them anyway") the files are made and every broken
    rule is a warning, as with ``deck build --force``.
    """
    from deckgen.prepress.printout import PrintOptions
    from deckgen.prepress.printstep import check_deck
    from deckgen.product import build_printed_deck, load_printed_deck

    with project.lock:
        project.save()
        deck = load_printed_deck(project.deck_path)
        out = project.path(PRINT_DIR)
        reporter = CollectingReporter()
        result = build_printed_deck(deck, out, PrintOptions(force=force), reporter=reporter)
        names = [p.relative_to(out).as_posix() for p in result.files]
        if PREFLIGHT_JSON not in names:
            report = check_deck(deck, reporter=CollectingReporter())
            atomic.write_text(out / PREFLIGHT_JSON, report.to_json())
            names.append(PREFLIGHT_JSON)
        files: list[tuple[str, Path | bytes]] = [(n, out / n) for n in sorted(names)]
        return _zip(files), list(reporter.warnings)


def deck_zip(project: StudioProject) -> bytes:
    """The deck file and every picture and font it names (``demo:`` art stays a name)."""
    from deckgen.deck.spec import DEMO_PREFIX

    with project.lock:
        deck = project.loaded()
        base = project.deck_path.parent
        files: list[tuple[str, Path | bytes]] = [
            (project.deck_path.name, project.toml_text().encode("utf-8"))
        ]
        used = [
            *deck.value_pictures,
            deck.card_picture,
            deck.back_picture,
            deck.logo,
            deck.cover_picture,
            deck.imprint_picture,
        ]
        paths = [p.path for p in used if p is not None] + [
            p for p in (deck.font_regular, deck.font_bold) if p is not None
        ]
        seen: set[str] = set()
        for path in paths:
            if not path.is_relative_to(base):
                continue  # demo: art ships with deckgen
            name = path.relative_to(base).as_posix()
            if name not in seen and not name.startswith(DEMO_PREFIX):
                seen.add(name)
                files.append((name, path))
        return _zip(files)


PRINTER_NAMES: dict[str, dict[str, str]] = {
    "meinspiel": {"en": "MeinSpiel (59 × 91 mm)", "de": "MeinSpiel (59 × 91 mm)"},
    "drivethrucards": {"en": "DriveThruCards (poker)", "de": "DriveThruCards (Poker)"},
    "makeplayingcards": {"en": "MakePlayingCards (poker)", "de": "MakePlayingCards (Poker)"},
    "thegamecrafter": {"en": "The Game Crafter (poker)", "de": "The Game Crafter (Poker)"},
    "home-a4": {"en": "Home printer, A4", "de": "Drucker zu Hause, A4"},
    "home-letter": {"en": "Home printer, US Letter", "de": "Drucker zu Hause, US-Letter"},
    "print-and-play": {"en": "Print and cut (A4)", "de": "Zum Ausschneiden (A4)"},
}
"""Each bundled printer as the page names it, in both languages (a test checks that
every bundled profile has both)."""


def printer_name(name: str, title: str, lang: str) -> str:
    """The printer ``name`` as the customer reads it (its profile's title if unknown)."""
    names = PRINTER_NAMES.get(name)
    return names.get(lang, names["en"]) if names else title


def games_for(max_pip: int, lang: str) -> list[tuple[str, str]]:
    """The bundled games (id, name) playable with a double-``max_pip`` deck."""
    from deckgen.rulespec import list_rules

    return [(r.id, r.name(lang)) for r in list_rules() if r.dset.max_pip == max_pip]


RULE_MESSAGES: dict[str, str] = {
    "card-size": "print_rule_card_size",
    "bleed": "print_rule_bleed",
    "safe-margin": "print_rule_safe_margin",
    "rgb-in-cmyk": "print_rule_colours",
    "spot-colour": "print_rule_colours",
    "boxes-missing": "print_rule_bleed",
    "ink-over-limit": "print_rule_ink",
    "font-not-embedded": "print_rule_fonts",
    "text-too-small": "print_rule_text_size",
    "reversed-text-too-small": "print_rule_text_size",
    "line-too-thin": "print_rule_thin_lines",
    "text-not-k-only": "print_rule_black_ink",
    "line-not-k-only": "print_rule_black_ink",
}
"""Each rule of a printer's profile (but picture resolution, said per slot) as a message."""


def print_problems(
    project: StudioProject, slots: dict[str, dict[str, Any]], refusal: str = ""
) -> list[Message]:
    """Why the printer's rules refuse the deck, in the customer's words.

    ``slots`` are the page's picture slots as the studio shows them (their key, the
    customer's file name, whether it is a sample picture, its print quality). A picture
    too small for a sharp print is named by its slot and file; every other rule that
    ``refusal`` (the print step's message) names is said once, naming the printer; a
    refusal the studio cannot tell apart is one general sentence.
    """
    from deckgen.prepress.contract import RULES
    from deckgen.studio.i18n import Message

    out: list[Message] = []
    with project.lock:
        pictures_print = project.get("faces.style") in ("pictures", "pictures+pips")
        for slot in slots.values():
            quality = slot.get("quality")
            if not quality or quality["sharp"] or not slot.get("file"):
                continue
            if str(slot["name"]).startswith("value-") and not pictures_print:
                continue
            named = (
                Message.of("the_sample_picture")
                if slot.get("demo")
                else Message.of("your_picture", file=slot["file"])
            )
            w, h = quality["need_px"]
            out.append(
                Message.of(
                    "print_low_resolution", slot["key"], file=named, ppi=quality["ppi"], w=w, h=h
                )
            )
        preset = str(project.get("preset") or "")
    title = dict(profiles("en")).get(preset, preset)
    printer = {lang: printer_name(preset, title, lang) for lang in ("en", "de")}
    said_ids: list[str] = []
    for kind, rule in RULES.items():
        msg_id = RULE_MESSAGES.get(kind)
        if msg_id and f"{rule}:" in refusal and msg_id not in said_ids:
            said_ids.append(msg_id)
            out.append(Message.of(msg_id, printer=printer))
    if not out:
        out.append(Message.of("print_rule_broken", printer=printer))
    return out
