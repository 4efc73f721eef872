"""The booklet's hyphenation patterns come from a cache once parsed, and hyphenate every
word exactly as pyphen's own parse of the dictionary does."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyphen
import pytest

from deckgen.booklet import hyphenation
from deckgen.resources import rules_dir


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache folder and a pyphen that has parsed nothing yet (restored after)."""
    monkeypatch.setenv("DECKGEN_CACHE_DIR", str(tmp_path / "cache"))
    saved = dict(pyphen.hdcache)
    pyphen.hdcache.clear()
    yield tmp_path / "cache"
    pyphen.hdcache.clear()
    pyphen.hdcache.update(saved)


def _german_words() -> list[str]:
    """Every word of six letters or more in the German texts of the bundled rules files."""
    words: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "de" and isinstance(value, str):
                    words.update(re.findall(r"[A-Za-zÄÖÜäöüß]{6,}", value))
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    for path in sorted(rules_dir().glob("*.toml")):
        walk(tomllib.loads(path.read_text("utf-8")))
    return sorted(words)


def _dictionary_path(lang: str) -> Any:
    return pyphen.LANGUAGES[pyphen.language_fallback(lang)]


def test_patterns_from_the_cache_hyphenate_as_pyphen_does(fresh: Path) -> None:
    words = _german_words()
    assert len(words) > 500
    path = _dictionary_path("de")
    own = pyphen.Pyphen(filename=path, cache=False)  # pyphen's own parse (kept by own)
    pyphen.hdcache.clear()
    hyphenation.prime(("de",))  # parses and writes the cache
    assert list(fresh.glob("hyph-*.json"))
    pyphen.hdcache.clear()
    hyphenation.prime(("de",))  # from the cache
    primed = pyphen.Pyphen(lang="de")
    assert primed.hd is pyphen.hdcache[path]
    differ = [(w, own.inserted(w), primed.inserted(w)) for w in words]
    differ = [d for d in differ if d[1] != d[2]]
    assert not differ, f"{len(differ)} words hyphenate differently, e.g. {differ[:3]}"
    assert primed.inserted("Spielregeln") == "Spiel-re-geln"


def test_a_second_run_reads_the_cache_and_parses_nothing(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hyphenation.prime(("de",))
    pyphen.hdcache.clear()

    def no_parsing(self: Any, path: Any) -> None:
        raise AssertionError(f"parsed {path} again")

    monkeypatch.setattr(pyphen.HyphDict, "__init__", no_parsing)
    hyphenation.prime(("de",))
    assert _dictionary_path("de") in pyphen.hdcache


def test_a_damaged_cache_is_parsed_again_and_rewritten(fresh: Path) -> None:
    hyphenation.prime(("de",))
    (cached,) = fresh.glob("hyph-*.json")
    for damage in (
        '{"format": 2, "key": "x"',
        '{"format": 2, "patterns": [1, 2]}',
        "[]",
        cached.read_text("utf-8").replace("\\t", "\\tx", 1),  # a start that is no number
    ):
        cached.write_text(damage, "utf-8")
        pyphen.hdcache.clear()
        hyphenation.prime(("de",))
        assert pyphen.Pyphen(lang="de").inserted("Spielregeln") == "Spiel-re-geln"
        assert cached.read_text("utf-8").startswith('{"format": 2, "key": "')


def test_austrian_and_german_patterns_are_read_once(fresh: Path) -> None:
    """de (de_AT for pyphen) and de_DE differ only in a comment: one cache file, one
    parsed table shared by both."""
    hyphenation.prime(("de", "de_DE"))
    assert len(list(fresh.glob("hyph-*.json"))) == 1
    assert pyphen.hdcache[_dictionary_path("de")] is pyphen.hdcache[_dictionary_path("de_DE")]
    assert pyphen.Pyphen(lang="de_DE").inserted("Spielregeln") == "Spiel-re-geln"


def test_a_cache_folder_that_cannot_be_made_costs_only_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would go", "utf-8")
    monkeypatch.setenv("DECKGEN_CACHE_DIR", str(blocker / "deckgen"))
    hyphenation.prime(("de", "en"))
    assert pyphen.Pyphen(lang="de").inserted("Spielregeln") == "Spiel-re-geln"


def test_a_cache_file_that_cannot_be_written_costs_only_time(fresh: Path) -> None:
    """The folder exists but the file cannot be put there (a folder in its place): the
    booklet goes on with pyphen's own parse."""
    hyphenation.prime(("de",))
    (cached,) = fresh.glob("hyph-*.json")
    cached.unlink()
    cached.mkdir()  # the atomic rename onto it fails
    pyphen.hdcache.clear()
    hyphenation.prime(("de",))
    assert pyphen.Pyphen(lang="de").inserted("Spielregeln") == "Spiel-re-geln"
