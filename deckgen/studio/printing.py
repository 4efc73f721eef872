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
from typing import TYPE_CHECKING

from deckgen import atomic
from deckgen.progress import CollectingReporter

if TYPE_CHECKING:
    from deckgen.studio.project import StudioProject

PRINT_DIR = "print"
PREFLIGHT_JSON = "preflight.json"
ZIP_TIME = (2026, 1, 1, 0, 0, 0)
"""Every zip entry gets this time: the same files give the same zip."""


def profile_names() -> list[str]:
    """The vendor profiles (``presets/*.toml``) by name."""
    from deckgen.prepress.presets import all_presets

    return [p.name for p in all_presets()]


def profiles() -> list[tuple[str, str]]:
    """Each vendor profile's name and title, for a choice on the page."""
    from deckgen.prepress.presets import all_presets

    return [(p.name, p.title) for p in all_presets()]


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
