"""Writing output files atomically: a failed run never leaves a half-written file.

Every exporter writes through these helpers. A file is written to a temporary file in
the same folder and renamed over the target only once it is complete, so an existing
good output is replaced only by a complete new one. :func:`staged_dir` does the same
for a run that writes several files: all of them appear, or none.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from deckgen.errors import OutputError


def _prepare_parent(target: Path) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(
            f"cannot create the output folder {target.parent}: {exc.strerror}",
            fix="choose another folder with --out, or check its permissions",
        ) from exc


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success rename it onto ``target``.

    For libraries that insist on writing to a file name themselves (reportlab,
    WeasyPrint, Pillow). If the block raises, the temporary file is removed and
    ``target`` is untouched.
    """
    target = Path(target)
    _prepare_parent(target)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise


def write_bytes(target: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``target`` atomically and return the target path."""
    target = Path(target)
    with atomic_path(target) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    return target


def write_text(target: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``target`` atomically."""
    return write_bytes(target, text.encode("utf-8"))


@contextlib.contextmanager
def staged_dir(target_dir: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield an empty staging folder; on success move its files into ``target_dir``.

    All files written into the staging folder (sub-folders included) replace their
    counterparts in ``target_dir`` one by one with :func:`os.replace`; files in
    ``target_dir`` that the run did not write are left alone. If the block raises,
    the staging folder is deleted and ``target_dir`` is untouched.
    """
    target_dir = Path(target_dir)
    _prepare_parent(target_dir / "x")
    stage = Path(tempfile.mkdtemp(prefix=".deckgen-stage-", dir=target_dir))
    try:
        yield stage
        for src in sorted(p for p in stage.rglob("*") if p.is_file()):
            dest = target_dir / src.relative_to(stage)
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.chmod(src, 0o644)
            os.replace(src, dest)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
