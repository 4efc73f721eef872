"""The demo art in ``images/`` is what ``scripts/demoart.py`` draws, byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_demo_art_is_made_by_the_script(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(REPO / "scripts" / "demoart.py"), str(tmp_path)],
        check=True,
        capture_output=True,
    )
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(["cover.jpg", "logo.png", *(f"value-{v:02d}.png" for v in range(1, 13))])
    for name in made:
        assert (tmp_path / name).read_bytes() == (REPO / "images" / name).read_bytes(), name
