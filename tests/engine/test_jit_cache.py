"""numba keeps the engines' machine code in a folder named by every engine module's
content: numba itself checks only a compiled function's own file, so a caller of a
changed shared helper (``deal.py``) would otherwise run the old helper's code."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from deckgen.engine.backends import jit

BACKENDS = Path(jit.__file__).resolve().parent


def test_a_change_to_any_engine_module_names_another_cache(tmp_path: Path) -> None:
    copy = tmp_path / "backends"
    shutil.copytree(BACKENDS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert jit.engines_key(copy) == jit.engines_key()
    helper = copy / "deal.py"
    helper.write_text(helper.read_text() + "\n# a changed shared helper\n")
    assert jit.engines_key(copy) != jit.engines_key()


@pytest.mark.skipif(not jit.HAVE_JIT, reason="numba is not used here")
@pytest.mark.skipif(bool(os.environ.get("NUMBA_CACHE_DIR")), reason="the user chose numba's cache")
def test_the_engines_cache_where_their_key_says() -> None:
    import numba

    import deckgen.engine.backends.jit_board  # noqa: F401  (decorates: the folder is set)

    folder = jit.cache_folder()
    assert folder is not None
    assert folder.name == f"engines-{jit.engines_key()}"
    assert str(folder) == getattr(numba.config, "CACHE_DIR", None)
