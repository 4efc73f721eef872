"""ICC profiles are read whole into memory, never kept open as files.

littleCMS reads a profile opened from a file lazily, through the file's offset; a
booklet's other language is laid out in a forked child that shares that offset, so a
parent and a child converting to CMYK at once read each other's tags ("Could not get
profile", once in a CI run of the demo). With the profile in memory nothing is shared.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from deckgen.prepress import blackink, cmyk
from deckgen.prepress.iccprofile import profile_path

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="Linux only")


def _open_files() -> set[str]:
    found = set()
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # the listing's own descriptor, closed since
            found.add(os.readlink(f"/proc/self/fd/{fd}"))
    return found


def test_the_cmyk_transforms_keep_no_profile_file_open() -> None:
    cmyk._transforms.cache_clear()
    before = _open_files()
    cmyk._transforms(str(profile_path()))
    left = {f for f in _open_files() - before if f.endswith(".icc")}
    assert not left, f"profile files kept open: {left}"


def test_the_black_ink_check_keeps_no_profile_file_open() -> None:
    blackink._to_lab.cache_clear()
    before = _open_files()
    blackink._to_lab(str(profile_path()))
    left = {f for f in _open_files() - before if f.endswith(".icc")}
    assert not left, f"profile files kept open: {left}"
