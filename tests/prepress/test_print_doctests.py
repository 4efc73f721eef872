"""The examples in the print modules' docstrings are true."""

from __future__ import annotations

import doctest

import pytest

from deckgen import units
from deckgen.prepress import blackink, pdfx, presets, sheetlayout


@pytest.mark.parametrize("module", [blackink, pdfx, presets, sheetlayout, units])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0
