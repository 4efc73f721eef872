"""The same booklet always gives the same bytes: built again, in the other language
order, in the same process (with every cache of the first build warm: hyphenation
patterns, fonts, card pictures), each PDF is byte for byte the one built first."""

from __future__ import annotations

from pathlib import Path


def test_built_again_in_the_other_order_gives_the_same_bytes(
    card_domino_booklets: dict[str, Path], tmp_path: Path
) -> None:
    from deckgen.booklet.make import make_booklets

    again = make_booklets("card-domino", tmp_path, langs=("en", "de"), age=6)
    assert [p.name for p in again] == ["booklet-en.pdf", "booklet-de.pdf"]
    for path in again:
        first = card_domino_booklets[path.name].read_bytes()
        assert path.read_bytes() == first, (
            f"{path.name} differs from the first build ({path.stat().st_size} vs "
            f"{len(first)} bytes): something in the booklet depends on what was made before"
        )
