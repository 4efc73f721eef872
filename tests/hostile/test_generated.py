"""The property-based suite: deck files and rules files from the real schemas, mutated.

Bases are real files (the starter deck ``deck new`` writes, every bundled rules file);
:mod:`tests.hostile.mutations` changes types, depths, sizes, encodings, control
characters and NUL bytes. The contract, for every example: exit 0 with valid outputs,
or exit 2 with one short paragraph, no traceback, nothing left in the output folder.
Loading runs in-process and is cheap, so it gets many examples; whole builds get a few
in ``make test`` and many in ``make fuzz`` (``DECKGEN_FUZZ=1``; recorded games are
mutated in test_files_we_wrote.py).
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.deck.starter import StarterCard, starter_toml
from deckgen.errors import DeckgenError
from deckgen.resources import rules_dir
from tests.hostile.contract import (
    assert_clean_error,
    examples,
    leftovers,
    to_toml,
)
from tests.hostile.mutations import mangled_bytes, mutated

SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]


def _starter(set_name: str, max_pip: int) -> dict[str, Any]:
    return tomllib.loads(starter_toml("Hostile", set_name, max_pip, StarterCard()))


DECK_BASES = [_starter("double-6", 6), _starter("double-9", 9)]
DECK_BASES[1]["faces"]["style"] = "numerals"
RULES_BASES = {
    p.stem: tomllib.loads(p.read_text("utf-8")) for p in sorted(rules_dir().glob("*.toml"))
}


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def _load_deck(path: Path) -> str:
    from deckgen.product import load_printed_deck

    try:
        load_printed_deck(path)
    except DeckgenError as exc:
        assert_clean_error(str(exc))
        return "refused"
    return "loaded"


@settings(max_examples=examples(120, 5000), deadline=None, suppress_health_check=SLOW)
@given(data=st.sampled_from(DECK_BASES).flatmap(mutated))
def test_mutated_deck_files_load_or_are_refused(data: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp), "deck.toml", to_toml(data).encode("utf-8"))
        _load_deck(path)


@settings(max_examples=examples(60, 2000), deadline=None, suppress_health_check=SLOW)
@given(raw=st.sampled_from(DECK_BASES).map(to_toml).flatmap(mangled_bytes))
def test_mangled_deck_bytes_load_or_are_refused(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        _load_deck(_write(Path(tmp), "deck.toml", raw))


def _check_build(out: Path) -> None:
    """A build that said it worked: every file the manifest names is there and whole."""
    from pypdf import PdfReader

    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    for entry in manifest["files"]:
        data = (out / entry["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
    assert len(PdfReader(out / "cards.pdf").pages) == len(manifest["cards"])


@settings(max_examples=examples(4, 300), deadline=None, suppress_health_check=SLOW)
@given(data=st.sampled_from(DECK_BASES).flatmap(lambda b: mutated(b, max_changes=2)))
def test_mutated_decks_build_or_are_refused_with_nothing_left(data: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        deck = _write(Path(tmp), "deck.toml", to_toml(data).encode("utf-8"))
        out = Path(tmp) / "out"
        result = CliRunner().invoke(app, ["deck", "build", str(deck), "--out", str(out), "-q"])
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(
            result.exception
        )
        assert not leftovers(Path(tmp))
        if result.exit_code == 0:
            _check_build(out)
        else:
            assert result.exit_code == 2, result.stderr
            assert_clean_error(result.stderr)
            assert not out.exists()


@settings(max_examples=examples(40, 5000), deadline=None, suppress_health_check=SLOW)
@given(
    data=st.sampled_from(sorted(RULES_BASES)).flatmap(lambda k: mutated(RULES_BASES[k])),
    play=st.integers(min_value=0, max_value=9),
)
def test_mutated_rules_files_load_and_play_or_are_refused(data: dict[str, Any], play: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp), "rules.toml", to_toml(data).encode("utf-8"))
        runner = CliRunner()
        commands = [["rules", "show", str(path)]]
        if play == 0:  # one in ten also plays a match with the loaded rules
            commands.append(["rules", "play", str(path), "--seed", "1", "-q"])
        for args in commands:
            result = runner.invoke(app, args)
            assert result.exception is None or isinstance(result.exception, SystemExit), (
                args,
                repr(result.exception),
            )
            assert result.exit_code in (0, 2), (args, result.output[-300:])
            if result.exit_code == 2:
                assert_clean_error(result.stderr)
                break


@settings(max_examples=examples(40, 2000), deadline=None, suppress_health_check=SLOW)
@given(
    raw=st.sampled_from(sorted(RULES_BASES))
    .map(lambda k: to_toml(RULES_BASES[k]))
    .flatmap(mangled_bytes)
)
def test_mangled_rules_bytes_load_or_are_refused(raw: bytes) -> None:
    from deckgen.rulespec import load_rules_file

    with tempfile.TemporaryDirectory() as tmp:
        try:
            load_rules_file(_write(Path(tmp), "rules.toml", raw))
        except DeckgenError as exc:
            assert_clean_error(str(exc))


def test_a_grow_inside_a_grown_list_is_counted_as_written_out() -> None:
    """The mutations keep a document small enough for the test to write: a list of
    5,000 references to one list of 5,000 is 25 million items once written, and is
    measured as such, without the test's own memory growing (the count stops early)."""
    from tests.hostile.mutations import MAX_WRITTEN, _written_size

    inner = [0] * 5000
    assert _written_size({"a": [inner] * 5000}) > MAX_WRITTEN
    assert _written_size({"a": [inner] * 10}) < MAX_WRITTEN
