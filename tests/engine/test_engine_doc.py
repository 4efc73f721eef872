"""The runnable examples of docs/engine.md run, and what they print is a real round."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def test_every_python_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert blocks, "docs/engine.md has a runnable example"
    for code in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(DOC), "exec"), {})
        text = out.getvalue()
        assert "refused:" in text
        assert re.search(r"^(out|blocked|reserve) \(", text, flags=re.M)
        assert re.search(r"^play [01] \d-\d", text, flags=re.M)
