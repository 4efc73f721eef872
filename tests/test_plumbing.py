"""Atomic writes, safe paths, and readable spec errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from deckgen import atomic
from deckgen.errors import DeckgenError, ResourceError, SpecError, UnsafePathError
from deckgen.paths import read_limited, resolve_inside
from deckgen.specfile import load_model


def test_atomic_write_replaces_only_when_complete(tmp_path: Path) -> None:
    target = tmp_path / "out.pdf"
    atomic.write_text(target, "good")

    def write_half() -> None:
        with atomic.atomic_path(target) as tmp:
            tmp.write_text("half")
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        write_half()
    assert target.read_text() == "good"
    assert [p.name for p in tmp_path.iterdir()] == ["out.pdf"]


def test_staged_dir_all_or_nothing(tmp_path: Path) -> None:
    out = tmp_path / "o"
    with atomic.staged_dir(out) as stage:
        (stage / "a.txt").write_text("1")
        (stage / "sub").mkdir()
        (stage / "sub" / "b.txt").write_text("2")
    assert (out / "a.txt").read_text() == "1"
    assert (out / "sub" / "b.txt").read_text() == "2"

    def write_new() -> None:
        with atomic.staged_dir(out) as stage:
            (stage / "a.txt").write_text("new")
            raise ValueError("given up")

    with pytest.raises(ValueError, match="given up"):
        write_new()
    assert (out / "a.txt").read_text() == "1"
    assert sorted(p.name for p in out.iterdir()) == ["a.txt", "sub"]


def test_resolve_inside(tmp_path: Path) -> None:
    (tmp_path / "pics").mkdir()
    assert resolve_inside(tmp_path, "pics/a.png", where="x") == tmp_path / "pics" / "a.png"
    for bad in ["../a.png", "/etc/passwd", "pics/../../a.png"]:
        with pytest.raises(UnsafePathError):
            resolve_inside(tmp_path, bad, where="deck.toml: pictures[0]")
    assert resolve_inside(tmp_path, "../a.png", where="x", allow_outside=True).name == "a.png"
    (tmp_path / "link").symlink_to("/etc")
    with pytest.raises(UnsafePathError):
        resolve_inside(tmp_path, "link/passwd", where="x")


def test_read_limited(tmp_path: Path) -> None:
    f = tmp_path / "big.bin"
    f.write_bytes(b"x" * 100)
    assert read_limited(f, max_bytes=100, what="picture", where="x") == b"x" * 100
    with pytest.raises(ResourceError, match="more than"):
        read_limited(f, max_bytes=99, what="picture", where="x")
    with pytest.raises(ResourceError, match="does not exist"):
        read_limited(tmp_path / "nope", max_bytes=99, what="picture", where="x")


class Inner(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str = ""
    size: int = 1


class Outer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    cover: Inner = Inner()


def test_spec_errors_name_file_key_and_hint(tmp_path: Path) -> None:
    f = tmp_path / "deck.toml"
    f.write_text('name = "x"\n[cover]\ntitel = "y"\nsize = "big"\n')
    with pytest.raises(SpecError) as info:
        load_model(Outer, f, what="deck file")
    msg = str(info.value)
    assert "cover.titel: unknown key (did you mean 'title'?)" in msg
    assert "cover.size" in msg
    assert str(f) in msg
    f.write_text("name = \n")
    with pytest.raises(SpecError, match="not valid TOML"):
        load_model(Outer, f, what="deck file")
    f.write_bytes(b'name = "\xff"\n')
    with pytest.raises(SpecError, match="UTF-8"):
        load_model(Outer, f, what="deck file")


def test_error_message_shape() -> None:
    err = DeckgenError("picture missing", where="deck.toml: pictures[2]", fix="add the file")
    assert str(err) == "picture missing (deck.toml: pictures[2]). add the file."


def test_a_killed_process_nobody_reaped_is_not_alive() -> None:
    """A zombie owns no folder any more (in a container whose first process reaps no
    orphans, a killed batch worker's work horse stays one)."""
    import os
    import signal
    import subprocess
    import time

    child = subprocess.Popen(["sleep", "30"])
    try:
        assert atomic.pid_alive(child.pid)
        os.kill(child.pid, signal.SIGKILL)
        deadline = time.monotonic() + 5
        while Path(f"/proc/{child.pid}/stat").read_text().split(") ")[1][0] != "Z":
            assert time.monotonic() < deadline, "the child never became a zombie"
            time.sleep(0.01)
        assert not atomic.pid_alive(child.pid)  # killed, not reaped yet (we have not waited)
    finally:
        child.kill()
        child.wait()
    assert not atomic.pid_alive(child.pid)
