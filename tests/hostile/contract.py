"""The hostile-input contract, shared by the tests in this folder.

Every run of deckgen on hostile input ends in one of two ways: exit 0 with valid
outputs, or exit 2 with one short paragraph on stderr (``error: ...``), no traceback,
nothing left behind. :func:`assert_refused` and :func:`assert_clean_error` check the
second; :func:`run_bounded` runs a function in a forked child under a memory and time
limit, so that a regression into a memory bomb fails the test instead of the machine.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

from typer.testing import Result

from deckgen.errors import MAX_MESSAGE_CHARS

FUZZ = os.environ.get("DECKGEN_FUZZ") == "1"
"""``make fuzz`` sets this: many more examples per property."""


def examples(quick: int, fuzz: int = 2000) -> int:
    """Hypothesis examples: few in ``make test``, many in ``make fuzz``."""
    return fuzz if FUZZ else quick


def assert_clean_error(message: str) -> None:
    """One short paragraph, printable, no traceback."""
    assert "Traceback" not in message, message
    text = message.strip()
    assert len(text) <= MAX_MESSAGE_CHARS + 20, f"{len(text)} characters: {text[:200]}"
    assert "\n" not in text, text
    assert "\x1b" not in text, repr(text)
    assert "\x00" not in text, repr(text)


def assert_refused(result: Result) -> None:
    """A CLI run that refused its input: exit 2, one paragraph starting ``error:``."""
    output = result.output if result.stderr_bytes is None else result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code == 2, (result.exit_code, output[-500:])
    assert output.startswith(("error:", "Usage:")), output[:300]
    if output.startswith("error:"):
        assert_clean_error(output)


def assert_ok_or_refused(result: Result) -> None:
    """Exit 0, or a clean refusal (exit 2)."""
    if result.exit_code == 0:
        assert result.exception is None, repr(result.exception)
        return
    assert_refused(result)


def _vm_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _child(conn: Any, fn: Callable[[], Any], extra_bytes: int, seconds: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (_vm_bytes() + extra_bytes, resource.RLIM_INFINITY))
    signal.alarm(seconds)
    try:
        conn.send(("ok", fn()))
    except MemoryError:
        conn.send(("memory", None))
    except BaseException as exc:
        conn.send(("raised", f"{type(exc).__name__}: {exc}"[:2000]))


def run_bounded(fn: Callable[[], Any], *, extra_mb: int = 400, seconds: int = 60) -> Any:
    """Run ``fn`` in a forked child with ``extra_mb`` more address space and a time limit.

    Gives what ``fn`` returned; fails the test if it ran out of memory or time, and
    re-raises (as AssertionError) anything else it raised.
    """
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn, extra_mb << 20, seconds))
    proc.start()
    child.close()
    if not parent.poll(seconds + 10):
        proc.kill()
        proc.join()
        raise AssertionError(f"no answer within {seconds} s")
    try:
        kind, value = parent.recv()
    except EOFError:
        proc.join()
        raise AssertionError(
            f"the child died (exit code {proc.exitcode}: out of time or memory)"
        ) from None
    proc.join()
    assert kind != "memory", f"needed more than {extra_mb} MB"
    assert kind == "ok", value
    return value


def leftovers(folder: Path) -> list[str]:
    """Staging and temporary files deckgen left in ``folder`` (should be none)."""
    if not folder.exists():
        return []
    return sorted(
        str(p.relative_to(folder))
        for p in folder.rglob("*")
        if p.name.startswith(".deckgen-stage-") or p.name.endswith(".tmp")
    )


def toml_key(key: str) -> str:
    bare = key.replace("_", "").replace("-", "").isalnum() and key.isascii() and key
    return key if bare else toml_string(key)


def toml_string(text: str) -> str:
    out = []
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif code < 0x20 or code == 0x7F or 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}" if code < 0xD800 else "\\ufffd")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: Any) -> str:
    """Any JSON-like value as TOML (dicts as inline tables, so any depth is writable)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, dict):
        return (
            "{" + ", ".join(f"{toml_key(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
        )
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return toml_string(str(value))


def to_toml(data: dict[str, Any]) -> str:
    """A document of top-level keys (None values left out, as TOML has no null)."""
    return "".join(
        f"{toml_key(str(k))} = {toml_value(_no_none(v))}\n"
        for k, v in data.items()
        if v is not None
    )


def _no_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _no_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_no_none(v) for v in value if v is not None]
    return value
