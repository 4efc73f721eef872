"""docs/printing.md agrees with the presets it describes: the rule table's numbers are
the preset files' (the preset is what is enforced), and the list of preset keys names
every key a preset file may have."""

from __future__ import annotations

import re
from pathlib import Path

from deckgen.prepress.presets import VendorPreset, all_presets

DOCS = Path(__file__).resolve().parents[2] / "docs" / "printing.md"


def _rule_rows() -> dict[str, list[str]]:
    """The rule table's rows (``| preset | min text | reversed | min line | ...``)."""
    text = DOCS.read_text(encoding="utf-8")
    head = text.index("| preset | min text | reversed | min line |")
    rows: dict[str, list[str]] = {}
    for line in text[head:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = cells
    return rows


def _pt(cell: str) -> float:
    match = re.fullmatch(r"([0-9.]+) pt", cell)
    assert match, cell
    return float(match.group(1))


def test_rule_table_numbers_are_the_presets() -> None:
    rows = _rule_rows()
    presets = {p.name: p for p in all_presets()}
    assert rows
    for name, cells in rows.items():
        preset = presets[name]
        assert _pt(cells[1]) == preset.min_text_pt, name
        assert _pt(cells[2]) == preset.min_reversed_text_pt, name
        assert _pt(cells[3]) == preset.min_line_pt, name
    assert _pt(rows["meinspiel"][3]) == 0.5


def test_key_list_names_every_preset_key() -> None:
    text = DOCS.read_text(encoding="utf-8")
    block = text[text.index('title = "..."') :]
    block = block[: block.index("```")]
    listed = set(re.findall(r"^([a-z_]+) = ", block, flags=re.M))
    listed |= set(re.findall(r"^\[([a-z_]+)\]", block, flags=re.M))
    keys = set(VendorPreset.model_fields) - {"name"}
    assert keys - listed == set(), "keys missing from docs/printing.md"
    assert {"solid_black", "print_shop"} <= listed
