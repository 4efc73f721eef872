"""Writing outputs atomically: a failed or killed run never leaves a half-written file.

Every exporter writes through these helpers.

- :func:`atomic_path`, :func:`write_bytes`, :func:`write_text`: one file, written to a
  temporary file beside the target and renamed over it only once complete, so a good
  output is replaced only by a complete new one.
- :func:`staged_dir`: a run that writes a set of files (``deck build``, booklets, the
  demo). The files are written into a staging folder beside the output folder
  (``.deckgen-stage-<name>-<pid>-<random>``), then the whole set is published in one
  step: files of the old folder that the run did not write are hard-linked into the
  stage, and the stage and the output folder swap places with one
  ``renameat2(RENAME_EXCHANGE)`` (Linux), or two renames where that is missing. Seen
  from outside, the folder holds the old set or the new set, never a mix, whenever
  the run is killed.
- Concurrent runs into one folder are serialised by an exclusive ``flock`` on the
  parent folder while they publish; the last one to publish wins, complete.
- Leftovers of killed runs (staging folders, swapped-out old folders, temporary files,
  all named with the pid of the run that made them) are removed by the next run into
  the same folder once that pid is gone; an old folder whose swap was cut short is put
  back first.

Faults of the machine (read-only folder, no permission, full disk) become an
:class:`~deckgen.errors.OutputError` (exit 2) and leave the previous output untouched.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import secrets
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from deckgen.errors import MACHINE_ERRNOS, OutputError, excerpt

STAGE_PREFIX = ".deckgen-stage-"
OLD_PREFIX = ".deckgen-old-"
_OWNED = re.compile(r"^\.deckgen-(?:stage|old)-(?P<name>.*)-(?P<pid>\d+)-[0-9a-f]{8}$")
_TMP = re.compile(r"^\..+\.(?P<pid>\d+)\.[^.]+\.tmp$")
_LEGACY_STAGE = re.compile(r"^\.deckgen-stage-[a-z0-9_]{8}$")


def _fault(exc: OSError, target: Path, doing: str) -> OutputError:
    reason = MACHINE_ERRNOS.get(exc.errno or 0, exc.strerror or type(exc).__name__)
    return OutputError(
        f"cannot {doing} {excerpt(target, 120)}: {reason}",
        fix="free some space, choose another folder (--out), or check its permissions",
    )


def _prepare_parent(target: Path) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _fault(exc, target.parent, "create the output folder") from exc
    if not target.parent.is_dir():
        raise OutputError(
            f"cannot write into {excerpt(target.parent, 120)}: it is not a folder",
            fix="choose another output folder",
        )


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a staging folder's owner, say). A zombie (a
    killed process nobody has reaped yet, as in a container whose first process reaps
    no orphans) runs no more: its folders are stale."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # Linux: the state follows the command name in parentheses
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success rename it onto ``target``.

    For libraries that insist on writing to a file name themselves (reportlab,
    WeasyPrint, Pillow). If the block raises, the temporary file is removed and
    ``target`` is untouched. A target that is a folder, a full disk or a read-only
    folder is an OutputError.
    """
    target = Path(target)
    _prepare_parent(target)
    if target.is_dir():
        raise OutputError(
            f"cannot write {excerpt(target, 120)}: it is a folder, not a file",
            fix="give a file name, or remove or rename that folder",
        )
    try:
        fd, tmp_name = tempfile.mkstemp(
            prefix=f".{target.name[:80]}.{os.getpid()}.", suffix=".tmp", dir=target.parent
        )
    except OSError as exc:
        raise _fault(exc, target, "write") from exc
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        try:
            yield tmp
        except OSError as exc:
            if exc.errno in MACHINE_ERRNOS and exc.filename in (None, str(tmp), tmp_name):
                raise _fault(exc, target, "write") from exc
            raise
        try:
            os.chmod(tmp, 0o644)
            os.replace(tmp, target)
        except OSError as exc:
            raise _fault(exc, target, "write") from exc
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_bytes(target: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``target`` atomically (flushed to disk) and return the path."""
    target = Path(target)
    with atomic_path(target) as tmp:
        try:
            with open(tmp, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            raise _fault(exc, target, "write") from exc
    return target


def write_text(target: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``target`` atomically."""
    return write_bytes(target, text.encode("utf-8"))


# ----------------------------------------------------------------- a set of files
@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """An exclusive lock on ``folder`` (flock on the folder itself: no lock file)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise _fault(exc, folder, "open the output folder") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            path.unlink()


def clean_leftovers(target_dir: Path) -> list[Path]:
    """Remove what killed runs into ``target_dir`` left behind; gives what was removed.

    Call with the parent's lock held. An old folder whose swap was cut short (the
    target is missing) is renamed back first.
    """
    parent = target_dir.parent
    removed: list[Path] = []
    try:
        entries = list(parent.iterdir())
    except OSError:
        return removed
    for entry in sorted(entries):
        found = _OWNED.match(entry.name)
        if not found or found["name"] != target_dir.name[:80] or pid_alive(int(found["pid"])):
            continue
        if entry.name.startswith(OLD_PREFIX) and not target_dir.exists():
            with contextlib.suppress(OSError):
                os.rename(entry, target_dir)
                continue
        _remove(entry)
        removed.append(entry)
    if target_dir.is_dir():
        with contextlib.suppress(OSError):
            hidden = [*target_dir.glob(".*"), *target_dir.glob("*/.*")]  # not a deep walk
            for entry in hidden:
                tmp = _TMP.match(entry.name)
                stale_tmp = tmp is not None and not pid_alive(int(tmp["pid"]))
                if stale_tmp or _LEGACY_STAGE.match(entry.name):
                    _remove(entry)
                    removed.append(entry)
    return removed


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2``); False where that is not possible."""
    if not sys.platform.startswith("linux"):  # pragma: no cover - not Linux
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):  # pragma: no cover - old C library
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EXDEV, errno.EBUSY):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _carry_over(old: Path, stage: Path, replaces: frozenset[str] = frozenset()) -> None:
    """Hard-link (or copy) the old folder's files that the run did not write into the
    stage, but for those in ``replaces`` (the old set the run replaces as a whole)."""
    for src in sorted(old.rglob("*")):
        rel = src.relative_to(old)
        if any(p.startswith((STAGE_PREFIX, OLD_PREFIX)) for p in rel.parts):
            continue
        if rel.as_posix() in replaces:
            continue
        dest = stage / rel
        if src.is_symlink() or not src.is_file() or dest.exists() or dest.is_symlink():
            continue
        if _blocked_by_file(stage, rel):
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(src, dest)
        except OSError:
            shutil.copy2(src, dest)


def _blocked_by_file(stage: Path, rel: Path) -> bool:
    """True when a folder on the way to ``stage / rel`` is a file in the stage."""
    here = stage
    for part in rel.parts[:-1]:
        here = here / part
        if here.exists() and not here.is_dir():
            return True
    return False


def _publish(stage: Path, target: Path, replaces: frozenset[str] = frozenset()) -> None:
    """Make ``stage`` the new ``target`` in one step (lock held)."""
    if not target.exists():
        os.rename(stage, target)
        return
    if not target.is_dir() or target.is_symlink():
        raise OutputError(
            f"cannot write into {excerpt(target, 120)}: it is not a folder",
            fix="choose another output folder (--out), or remove that file",
        )
    _carry_over(target, stage, replaces)
    os.chmod(stage, target.stat().st_mode & 0o7777)
    if _exchange(stage, target):
        _remove(stage)  # now the old folder
        return
    old = target.parent / f"{OLD_PREFIX}{target.name[:80]}-{os.getpid()}-{secrets.token_hex(4)}"
    os.rename(target, old)
    try:
        os.rename(stage, target)
    except BaseException:
        os.rename(old, target)
        raise
    _remove(old)


def _publish_in_place(stage: Path, target: Path, replaces: frozenset[str] = frozenset()) -> None:
    """Fallback when no folder can be made beside ``target``: move file by file, the
    manifest last, so a reader that checks ``manifest.json`` sees old or new; then the
    files of ``replaces`` that the run did not write are removed."""
    files = sorted(p for p in stage.rglob("*") if p.is_file())
    written = {p.relative_to(stage).as_posix() for p in files}
    files.sort(key=lambda p: p.name == "manifest.json")
    for src in files:
        dest = target / src.relative_to(stage)
        dest.parent.mkdir(parents=True, exist_ok=True)
        if dest.is_dir():
            raise OutputError(
                f"cannot write {excerpt(dest, 120)}: it is a folder, not a file",
                fix="remove or rename that folder",
            )
        os.chmod(src, 0o644)
        os.replace(src, dest)
    for rel in sorted(replaces - written):
        old = target / rel
        if old.is_file() and not old.is_symlink():
            old.unlink()


MAX_SWAP_ENTRIES = 5_000
"""A folder with more entries than this is published file by file (see _swappable)."""


def _swappable(target: Path) -> bool:
    """True when ``target`` may be replaced as a whole folder.

    Only folders that look like deckgen's own outputs are swapped: not the current
    folder (or one above it), not a mount point, no symbolic links, no nested mounts,
    at most :data:`MAX_SWAP_ENTRIES` entries. Anything else (``--out .``, a home
    folder) is published file by file into place, ``manifest.json`` last.
    """
    if not target.exists():
        return True
    try:
        here = Path.cwd().resolve()
        resolved = target.resolve()
        if here == resolved or here.is_relative_to(resolved) or os.path.ismount(resolved):
            return False
        device = resolved.stat().st_dev
        for count, entry in enumerate(resolved.rglob("*"), start=1):
            if count > MAX_SWAP_ENTRIES or entry.is_symlink():
                return False
            if entry.is_dir() and entry.stat().st_dev != device:
                return False
    except (OSError, RuntimeError):
        return False
    return True


@contextlib.contextmanager
def staged_dir(
    target_dir: str | os.PathLike[str], *, replaces: Iterable[str] = ()
) -> Iterator[Path]:
    """Yield an empty staging folder; on success publish it as ``target_dir`` in one step.

    Files in ``target_dir`` that the run did not write are kept, but for those named in
    ``replaces`` (paths relative to the folder: the set of an earlier run that this run
    replaces as a whole). If the block raises
    (or the run is stopped), the staging folder is deleted and ``target_dir`` is
    untouched. See the module docstring for how the step is made atomic.
    """
    target = Path(target_dir)
    old_set = frozenset(replaces)
    _prepare_parent(target)
    parent = target.parent
    if target.exists() and not target.is_dir():
        raise OutputError(
            f"cannot write into {excerpt(target, 120)}: it is a file, not a folder",
            fix="choose another output folder (--out), or remove that file",
        )
    with _locked(parent):
        clean_leftovers(target)
    in_place = not _swappable(target)
    name = f"{STAGE_PREFIX}{target.name[:80]}-{os.getpid()}-{secrets.token_hex(4)}"
    stage = (target if in_place else parent) / name
    try:
        stage.mkdir(mode=0o755)
    except OSError as exc:
        if in_place or not target.is_dir():
            raise _fault(exc, target, "write into") from exc
        try:  # the parent is not ours to write: stage inside the folder instead
            stage = target / name
            stage.mkdir(mode=0o755)
            in_place = True
        except OSError as inner:
            raise _fault(inner, target, "write into") from inner
    try:
        yield stage
        try:
            if in_place:
                with _locked(target):
                    _publish_in_place(stage, target, old_set)
            else:
                with _locked(parent):
                    _publish(stage, target, old_set)
        except OSError as exc:
            raise _fault(exc, target, "write into") from exc
    finally:
        if stage.exists():
            shutil.rmtree(stage, ignore_errors=True)
