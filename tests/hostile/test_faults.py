"""Faults of the machine and of the run: full disk, read-only folder, kill -9, SIGTERM,
concurrent builds into one folder, worker processes of a killed build.

The contract: a clear exit-2 error, the previous good output kept, no staging folder
left after the next run, no worker left behind, never a truncated file with exit 0.
File-system faults use a small tmpfs (we may mount one where we are root; the tests
are skipped with a message where that is not allowed). Kills are placed by watching
the staging folder fill (not by timing), so they land at the same points on a busy
machine as on an idle one.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from deckgen.atomic import clean_leftovers
from tests.hostile.contract import FUZZ, assert_clean_error, leftovers

DECKGEN = [sys.executable, "-m", "deckgen"]


def _deck(folder: Path, name: str = "Old") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "deck.toml"
    path.write_text(f'name = "{name}"\nset = "double-6"\n', encoding="utf-8")
    return path


def _run(*args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*DECKGEN, *map(str, args)], capture_output=True, text=True, timeout=timeout
    )


def _consistent(out: Path) -> str | None:
    """The deck name of a complete build in ``out`` (manifest matches every file), or
    None when there is no build; fails on a mix."""
    manifest_path = out / "manifest.json"
    if not out.exists():
        return None
    manifest = json.loads(manifest_path.read_text("utf-8"))
    for entry in manifest["files"]:
        data = (out / entry["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["path"]
    return str(manifest["deck"])


def _stages(parent: Path) -> list[Path]:
    return [p for p in parent.iterdir() if p.name.startswith(".deckgen-stage-")]


def _files_in(paths: list[Path]) -> int:
    return sum(1 for p in paths for f in p.rglob("*") if f.is_file())


def _stage_holds(parent: Path, files: int) -> Callable[[], bool]:
    """A condition: a staging folder exists in ``parent`` holding ``files`` files or more."""
    return lambda: bool(_stages(parent)) and _files_in(_stages(parent)) >= files


def _signal_when(
    cmd: list[str], ready: Callable[[], bool], sig: int, timeout: float = 300
) -> tuple[int, str]:
    """Start ``cmd``; send ``sig`` as soon as ``ready()``; give exit code and stderr."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            if ready():
                proc.send_signal(sig)
                break
        time.sleep(0.002)
    _, err = proc.communicate(timeout=timeout)
    return proc.returncode, err


# ---------------------------------------------------------------- kill -9
def test_kill_9_at_many_points_of_a_deck_build_never_leaves_a_mix(tmp_path: Path) -> None:
    out = tmp_path / "out"
    deck = _deck(tmp_path / "src", "Old")
    assert _run("deck", "build", deck, "--out", out, "-q").returncode == 0
    assert _consistent(out) == "Old"
    deck.write_text(deck.read_text().replace("Old", "New"))
    cmd = [*DECKGEN, "deck", "build", str(deck), "--out", str(out), "-q"]
    seen = []
    points = (0, 1, 2, 3, 4) if FUZZ else (0, 2, 4)  # stage made, files written, manifest
    for files in points:
        code, _ = _signal_when(
            cmd, _stage_holds(tmp_path, files), signal.SIGKILL
        )  # fmt: skip
        seen.append(code)
        assert _consistent(out) in ("Old", "New")  # whole builds only, never a mix
    # The publishing step itself: kill as soon as the stage has gone.
    started: list[bool] = []

    def publishing() -> bool:
        if _stages(tmp_path):
            started.append(True)
        return bool(started) and not _stages(tmp_path)

    _signal_when(cmd, publishing, signal.SIGKILL)
    assert _consistent(out) in ("Old", "New")
    assert -signal.SIGKILL in seen, seen  # the kills did land
    result = _run("deck", "build", deck, "--out", out, "-q")
    assert result.returncode == 0, result.stderr
    assert _consistent(out) == "New"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".deckgen-")]
    assert not leftovers(out)


@pytest.mark.slow
def test_kill_9_during_a_booklet_build(tmp_path: Path) -> None:
    from pypdf import PdfReader

    out = tmp_path / "booklet"
    cmd = [*DECKGEN, "rules", "booklet", "two-player", "--lang", "en", "--out", str(out), "-q"]
    for files in (0, 1) if FUZZ else (1,):
        _signal_when(
            cmd, _stage_holds(tmp_path, files), signal.SIGKILL
        )  # fmt: skip
        for pdf in out.glob("*.pdf") if out.exists() else []:
            assert len(PdfReader(pdf).pages) > 4  # complete, or not there
    clean_leftovers(out)  # what the next run into the folder does first
    assert not _stages(tmp_path)


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(c) for c in text.split()]


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def test_workers_die_with_a_killed_build(tmp_path: Path) -> None:
    deck = _deck(tmp_path / "src")
    proc = subprocess.Popen(
        [*DECKGEN, "deck", "build", str(deck), "--out", str(tmp_path / "o"), "--png", "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: list[int] = []
    deadline = time.monotonic() + 300
    while proc.poll() is None and not workers and time.monotonic() < deadline:
        workers = _children(proc.pid)
        time.sleep(0.005)
    if not workers:
        proc.wait()
        pytest.skip("the build finished before its PNG workers could be seen")
    time.sleep(0.2)
    workers = _children(proc.pid) or workers
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 20
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [w for w in workers if _alive(w)], "workers outlived their parent"


def test_sigterm_and_sighup_clean_up_like_ctrl_c(tmp_path: Path) -> None:
    out = tmp_path / "out"
    deck = _deck(tmp_path / "src", "Old")
    assert _run("deck", "build", deck, "--out", out, "-q").returncode == 0
    deck.write_text(deck.read_text().replace("Old", "New"))
    for sig in (signal.SIGTERM, signal.SIGHUP):
        code, err = _signal_when(
            [*DECKGEN, "deck", "build", str(deck), "--out", str(out), "-q"],
            lambda: _files_in(_stages(tmp_path)) >= 1,
            sig,
        )
        if code == 0:
            pytest.skip("the build finished before the signal arrived")
        assert code == 128 + sig, (code, err)
        assert "Traceback" not in err
        assert _consistent(out) == "Old"
        assert not _stages(tmp_path), "the staging folder was not removed"


def test_concurrent_builds_into_one_folder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    decks = [_deck(tmp_path / f"src{i}", f"Deck {i}") for i in range(3 if FUZZ else 2)]
    procs = [
        subprocess.Popen(
            [*DECKGEN, "deck", "build", str(d), "--out", str(out), "-q", "--no-preview"],
            stderr=subprocess.PIPE,
            text=True,
        )
        for d in decks
    ]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    assert _consistent(out) in {"Deck 0", "Deck 1", "Deck 2"}
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".deckgen-")]


# ---------------------------------------------------------------- file systems
@contextlib.contextmanager
def _tmpfs(where: Path, size_kb: int) -> Iterator[Path]:
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()[:100]}); needs root")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _in_process(args: list[str]) -> tuple[int, str]:
    from typer.testing import CliRunner

    from deckgen.cli import app

    result = CliRunner().invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stderr


def _fill(fs: Path) -> None:
    with open(fs / "filler", "wb") as fh, pytest.raises(OSError, match="No space") as err:  # noqa: PT012
        while True:
            fh.write(b"\0" * 65536)
            fh.flush()
    assert err.value.errno == errno.ENOSPC


def _others(fs: Path, src: Path) -> list[tuple[list[str | Path], Path]]:
    """Every other writing command, each with the file it must not leave behind."""
    return [
        (["rules", "play", "two-player", "--seed", "1", "--record", fs / "g.json"], fs / "g.json"),
        (["rules", "check", "two-player", "--rounds", "50", "--workers", "1",
          "--report", fs / "c.json"], fs / "c.json"),
        (["deck", "new", fs / "new.toml"], fs / "new.toml"),
        (["deck", "calibrate", "--out", fs / "cal.pdf"], fs / "cal.pdf"),
        (["deck", "preview", src, "--out", fs / "p.png"], fs / "p.png"),
    ]  # fmt: skip


@pytest.mark.parametrize("fault", ["full", "read-only"])
def test_a_full_or_read_only_disk_is_a_clean_error_and_keeps_the_old_output(
    fault: str, tmp_path: Path
) -> None:
    with _tmpfs(tmp_path / "fs", 4096) as fs:
        out = fs / "out"
        deck = _deck(tmp_path / "src", "Old")
        first = _run("deck", "build", deck, "--out", out, "-q")
        assert first.returncode == 0, first.stderr
        deck.write_text(deck.read_text().replace("Old", "New"))
        if fault == "full":
            _fill(fs)
            needle = "disk is full"
        else:
            subprocess.run(["mount", "-o", "remount,ro", str(fs)], check=True)
            needle = "read-only"
        result = _run("deck", "build", deck, "--out", out)
        assert result.returncode == 2, result.stderr
        assert needle in result.stderr
        assert_clean_error(result.stderr)
        assert _consistent(out) == "Old"
        assert not _stages(fs)
        assert not leftovers(out)
        for args, target in _others(fs, deck):
            code, err = _in_process([str(a) for a in args])
            assert code == 2, (args, err)
            assert_clean_error(err)
            assert not target.exists(), args
        assert not [p.name for p in fs.iterdir() if p.name.startswith(".")]
