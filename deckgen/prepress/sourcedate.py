"""The date a deck's print files carry: true, and still the same for the same inputs.

Takes the loaded deck (its file, pictures, fonts and the rules file its imprint names);
gives the creation date of every print file as seconds since 1970 (UTC):
``SOURCE_DATE_EPOCH`` when it is set (the reproducible-builds convention), else the
newest modification time of those inputs. :func:`pdf_date` writes it as a PDF date.
:func:`booklet_inputs` names the inputs of a rules booklet (its rules file and the deck
it pictures), so its files for the press are dated the same way.

>>> pdf_date(1764151200)
"D:20251126100000+00'00'"
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from deckgen.errors import InputError

if TYPE_CHECKING:
    from deckgen.deck.spec import LoadedDeck

ENV = "SOURCE_DATE_EPOCH"


def deck_inputs(deck: LoadedDeck) -> list[Path]:
    """The files a deck build reads: deck file, pictures, fonts, the imprint's rules file."""
    from deckgen.resources import rules_dir

    paths = [deck.path]
    pictures = [
        *deck.value_pictures,
        deck.card_picture,
        deck.back_picture,
        deck.logo,
        deck.cover_picture,
        deck.imprint_picture,
    ]
    paths += [p.path for p in pictures if p is not None]
    paths += [f for f in (deck.font_regular, deck.font_bold) if f is not None]
    rules = deck.spec.imprint.rules.strip()
    # the imprint names a rules file (``card-domino``), or already holds its short text
    if rules and len(rules) < 100 and not any(ch.isspace() for ch in rules):
        for candidate in (rules_dir() / f"{rules}.toml", deck.path.parent / rules):
            try:
                if candidate.is_file():
                    paths.append(candidate)
                    break
            except OSError:
                continue
    return paths


def booklet_inputs(rules_path: Path | None, deck: LoadedDeck | str | Path | None) -> list[Path]:
    """The files a rules booklet reads: its rules file and the deck it pictures (the deck
    file's inputs, :func:`deck_inputs`; without a deck the shipped demo deck's)."""
    from deckgen.deck.spec import LoadedDeck, load_deck
    from deckgen.errors import DeckgenError
    from deckgen.resources import images_dir

    paths = [rules_path] if rules_path is not None else []
    if deck is None:
        deck = images_dir() / "demo-deck.toml"
        if not deck.is_file():
            return paths
    if isinstance(deck, LoadedDeck):
        return paths + deck_inputs(deck)
    try:
        return paths + deck_inputs(load_deck(deck))
    except (DeckgenError, OSError):  # the booklet itself reports a deck it cannot read
        return [*paths, Path(deck)]


def source_epoch(paths: Iterable[Path]) -> int:
    """``SOURCE_DATE_EPOCH`` if set, else the newest modification time of ``paths``."""
    text = os.environ.get(ENV, "").strip()
    if text:
        try:
            value = int(text)
            if value < 0:
                raise ValueError
        except ValueError:
            raise InputError(
                f"{ENV}={text!r} is not a number of seconds since 1970",
                where=f"environment variable {ENV}",
                fix="set it to a whole number of seconds (`date +%s`) or unset it",
            ) from None
        return value
    times = []
    for path in paths:
        try:
            times.append(int(path.stat().st_mtime))
        except OSError:
            continue
    return max(times, default=0)


def pdf_date(epoch: int) -> str:
    """Seconds since 1970 as a PDF date in UTC (``D:YYYYMMDDHHmmSS+00'00'``)."""
    moment = datetime.fromtimestamp(epoch, tz=UTC)
    return moment.strftime("D:%Y%m%d%H%M%S+00'00'")
