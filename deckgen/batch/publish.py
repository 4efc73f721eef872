"""Deck folders that appear whole or not at all, and the zip of each order.

A deck is built into ``<out>/.staging/<order>.<host>.<pid>.<random>/`` and published
by renaming that folder to ``<out>/<order>/``; a run killed at any moment leaves either
the old folder, the new one, or none, never a mixture. Staging folders of processes
that are gone are removed by :func:`remove_stale_staging`. A deck folder is finished
when its ``manifest.json`` carries the order's fingerprint.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
import socket
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from deckgen import atomic
from deckgen.errors import OutputError

STAGING = ".staging"
LOCK = ".batch.lock"
MANIFEST = "manifest.json"
ORDER_KEY = "order"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def _host() -> str:
    return socket.gethostname().replace(".", "_") or "host"


def staging_folder(out_dir: Path, order_id: str) -> Path:
    """A new, empty staging folder for one build of ``order_id``."""
    folder = out_dir / STAGING / f"{order_id}.{_host()}.{os.getpid()}.{uuid.uuid4().hex[:8]}"
    try:
        folder.mkdir(parents=True)
    except OSError as exc:
        raise OutputError(
            f"cannot create the folder {folder}: {exc.strerror}",
            fix="choose another output folder with --out, or check its permissions",
        ) from exc
    return folder


def remove_stale_staging(out_dir: Path) -> int:
    """Delete staging folders this machine's dead processes left behind; how many."""
    removed = 0
    root = out_dir / STAGING
    if not root.is_dir():
        return 0
    host = _host()
    for entry in root.iterdir():
        parts = entry.name.split(".")
        if len(parts) < 4 or parts[-3] != host or not parts[-2].isdigit():
            continue
        if not atomic.pid_alive(int(parts[-2])) or int(parts[-2]) == os.getpid():
            shutil.rmtree(entry, ignore_errors=True)
            removed += 1
    return removed


def publish(stage: Path, target: Path) -> None:
    """Put the finished ``stage`` folder at ``target`` by renaming (replacing an old one)."""
    for _ in range(5):
        old: Path | None = None
        if os.path.lexists(target):
            check_replaceable(target)
            old = stage.parent / f"{target.name}.old.{_host()}.{os.getpid()}.{uuid.uuid4().hex[:8]}"
            with contextlib.suppress(FileNotFoundError):
                os.rename(target, old)
        try:
            os.rename(stage, target)
        except OSError as exc:
            if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                raise OutputError(
                    f"cannot move the finished deck to {target}: {exc.strerror}",
                    fix="check the output folder's permissions and free space",
                ) from exc
            continue  # someone else published the same order meanwhile: replace theirs
        finally:
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
        return
    raise OutputError(f"cannot publish {target}: it keeps being replaced by another process")


def check_replaceable(target: Path) -> None:
    """Refuse to replace anything at ``target`` but a deck folder a batch built there.

    An order's folder name comes from the spreadsheet (or, on a queue, from whoever
    wrote the job): a row named ``documents`` in a batch into the home folder must not
    delete ``~/documents``.
    """
    manifest = read_manifest(target) if target.is_dir() and not target.is_symlink() else None
    if manifest is None or not isinstance(manifest.get(ORDER_KEY), dict):
        raise OutputError(
            f"{target} already exists and is not a deck folder a batch built, so it is "
            "left as it is",
            fix="move it away, choose another output folder (--out), or give the order another id",
        )


def read_manifest(folder: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def finished_fingerprint(folder: Path) -> str | None:
    """The fingerprint of the finished deck in ``folder``, or None."""
    manifest = read_manifest(folder)
    order = manifest.get(ORDER_KEY) if manifest else None
    found = order.get("inputs_sha256") if isinstance(order, dict) else None
    return found if isinstance(found, str) else None


def add_order_to_manifest(folder: Path, order: dict[str, Any]) -> None:
    """Record the order (id, row, quantity, fingerprint) in the built deck's manifest."""
    manifest = read_manifest(folder)
    if manifest is None:
        raise OutputError(f"the build wrote no manifest into {folder}")
    manifest[ORDER_KEY] = order
    atomic.write_text(folder / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")


def zip_path(out_dir: Path, order_id: str) -> Path:
    return out_dir / f"{order_id}.zip"


def zip_is_current(path: Path, fingerprint: str) -> bool:
    try:
        with zipfile.ZipFile(path) as zf:
            return zf.comment.decode("ascii", "replace") == fingerprint
    except (OSError, zipfile.BadZipFile):
        return False


def write_zip(folder: Path, target: Path, fingerprint: str) -> Path:
    """Zip ``folder`` into ``target`` (byte-identical for the same files), atomically.

    The archive's comment is the order's fingerprint, so a resumed batch knows whether
    the zip belongs to the deck that is there now.
    """
    with atomic.atomic_path(target) as tmp, zipfile.ZipFile(tmp, "w") as zf:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            arcname = f"{folder.name}/{path.relative_to(folder).as_posix()}"
            info = zipfile.ZipInfo(arcname, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes())
        zf.comment = fingerprint.encode("ascii")
    return target


@contextlib.contextmanager
def batch_lock(out_dir: Path) -> Iterator[None]:
    """Hold the output folder for one local batch; a second batch into it is an error."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        fh = open(out_dir / LOCK, "a+")  # noqa: SIM115 - held open for the whole batch
    except OSError as exc:
        raise OutputError(
            f"cannot create the output folder {out_dir}: {exc.strerror}",
            fix="choose another folder with --out, or check its permissions",
        ) from exc
    try:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputError(
                f"another batch is writing into {out_dir}",
                fix="wait for it to finish, or choose another folder with --out",
            ) from None
        yield
    finally:
        fh.close()
