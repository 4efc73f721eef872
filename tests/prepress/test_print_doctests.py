"""The examples in the print modules' docstrings are true."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from deckgen import units
from deckgen.prepress import blackink, pdfx, presets, sheetlayout


@pytest.mark.parametrize("module", [blackink, pdfx, presets, sheetlayout, units])
def test_doctests(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
