"""Both languages at once: with a second core the other language is laid out in a
forked child while this process lays out the first; the files are the very bytes the
one-after-another build gives, and a child that fails costs only time (its language is
made again here, where a real error is raised as itself)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deckgen.booklet import make
from deckgen.errors import InputError
from deckgen.workers import Forked, can_fork


def test_languages_made_side_by_side_are_the_bytes_made_one_after_another(
    card_domino_booklets: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not can_fork():
        pytest.skip("one core or no fork here: the languages are made one after another")
    started: list[Forked] = []

    class Counted(Forked):
        def __init__(self, *a: object, **kw: object) -> None:
            super().__init__(*a, **kw)  # type: ignore[arg-type]
            started.append(self)

    monkeypatch.setattr(make, "Forked", Counted)
    side_by_side = make.make_booklets("card-domino", tmp_path / "fork", langs=("de", "en"), age=6)
    assert len(started) == 1, "the second language was not laid out in a forked child"
    monkeypatch.setattr(make, "can_fork", lambda: False)
    in_turn = make.make_booklets("card-domino", tmp_path / "turn", langs=("de", "en"), age=6)
    for a, b in zip(side_by_side, in_turn, strict=True):
        assert a.name == b.name
        assert a.read_bytes() == b.read_bytes(), f"{a.name} differs between the two ways"
        assert a.read_bytes() == card_domino_booklets[a.name].read_bytes()


def test_a_child_that_fails_costs_only_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not can_fork():
        pytest.skip("one core or no fork here")
    here = os.getpid()
    real = make._write_language

    def fails_in_a_child(*args: object, **kw: object) -> list[str]:
        if os.getpid() != here:
            os._exit(3)  # as a child killed by the out-of-memory killer would end
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(make, "_write_language", fails_in_a_child)
    paths = make.make_booklets("two-player", tmp_path, langs=("de", "en"))
    assert [p.name for p in paths] == ["booklet-de.pdf", "booklet-en.pdf"]
    assert all(p.stat().st_size > 10_000 for p in paths)


def test_an_error_in_the_other_language_is_raised_as_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = make._write_language

    def english_breaks(*args: object, **kw: object) -> list[str]:
        if args[1] == "en":
            raise InputError("the English pages broke", where="test", fix="none")
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(make, "_write_language", english_breaks)
    with pytest.raises(InputError, match="English pages broke"):
        make.make_booklets("two-player", tmp_path / "out", langs=("de", "en"))
    assert not (tmp_path / "out").exists(), "a half-made booklet folder was left behind"
