"""The command line's start-up runs without the cyclic garbage collector, its work with it.

Each case runs the real ``deckgen`` entry point in a fresh Python (the collector's state
is process-wide) and reports what the collector was doing at the moments that matter.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import typer

from deckgen import startup
from deckgen.cli import app


def _run(code: str) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert lines, proc.stdout + proc.stderr
    got: dict[str, object] = json.loads(lines[-1])
    return got


def test_a_command_starts_its_work_with_the_collector_on() -> None:
    """``deckgen sets``: loaded with the collector off; by the end it runs again, and
    what start-up made was frozen (out of its sight) when the command began."""
    got = _run(
        "import atexit, gc, json, sys\n"
        "from deckgen.__main__ import main\n"
        "atexit.register(lambda: print(json.dumps({'enabled': gc.isenabled(),"
        " 'frozen': gc.get_freeze_count()})))\n"
        "sys.argv = ['deckgen', 'sets']\n"
        "main()\n"
    )
    assert got["enabled"] is True
    assert isinstance(got["frozen"], int)
    assert got["frozen"] > 10_000


def test_the_rules_check_loads_first_then_plays_with_the_collector_on() -> None:
    """The check reads the rules file with the collector still off (its start-up), and
    turns it on, start-up frozen, before its workers fork: they collect as usual."""
    got = _run(
        "import atexit, gc, json, sys\n"
        "from deckgen.__main__ import main\n"
        "import deckgen.api.games as games, deckgen.rulecheck.check as check\n"
        "seen = {}\n"
        "load, executor = games.load_rules, check._executor\n"
        "def loading(*a, **k):\n"
        "    seen.setdefault('loading', gc.isenabled()); return load(*a, **k)\n"
        "def forking(*a, **k):\n"
        "    seen['forking'] = [gc.isenabled(), gc.get_freeze_count()]\n"
        "    return executor(*a, **k)\n"
        "games.load_rules, check._executor = loading, forking\n"
        "atexit.register(lambda: print(json.dumps(seen)))\n"
        "sys.argv = ['deckgen', 'rules', 'check', 'two-player', '--rounds', '2000',\n"
        "            '--quiet', '--no-confirm', '--workers', '2']\n"
        "main()\n"
    )
    assert got["loading"] is False
    forking = got["forking"]
    assert isinstance(forking, list)
    assert forking[0] is True
    assert forking[1] > 10_000


def test_a_worker_forked_by_the_check_collects() -> None:
    """A judge's chunk played in a forked worker runs with the collector on."""
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import gc, os, sys\n"
            "from deckgen.__main__ import main\n"
            "import deckgen.rulecheck.check as check, deckgen.rulecheck.chunks as chunks\n"
            "run, parent = chunks.run_chunk, os.getpid()\n"
            "def playing(task):\n"
            "    if os.getpid() != parent:  # one write: the workers share the pipe\n"
            "        os.write(1, f'WORKER {gc.isenabled()}\\n'.encode())\n"
            "    return run(task)\n"
            "check.run_chunk = playing\n"
            "sys.argv = ['deckgen', 'rules', 'check', 'two-player', '--rounds', '2000',\n"
            "            '--quiet', '--no-confirm', '--workers', '2']\n"
            "main()\n",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    workers = re.findall(r"WORKER (\w+)", proc.stdout)
    assert workers, proc.stdout
    assert set(workers) == {"True"}


def test_every_command_but_the_check_begins_by_ending_the_start_up() -> None:
    """Every command the command line can run ends the start-up when its function is
    called, except the rules check, which does so itself once it has loaded."""
    root = typer.main.get_command(app)
    assert isinstance(root, typer.core.TyperGroup)
    ctx = typer.Context(root)
    leaves: dict[str, object] = {}

    def walk(group: typer.core.TyperGroup, path: str) -> None:
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            assert command is not None
            if isinstance(command, typer.core.TyperGroup):
                walk(command, f"{path}{name} ")
            else:
                leaves[f"{path}{name}"] = command.callback

    walk(root, "")
    assert len(leaves) > 15
    loads_first = sorted(n for n, cb in leaves.items() if getattr(cb, "_deckgen_loads_first", 0))
    assert loads_first == ["rules check"]
    at_work = {n for n, cb in leaves.items() if getattr(cb, "_deckgen_at_work", False)}
    assert at_work == set(leaves) - {"rules check"}


def test_as_a_library_deckgen_leaves_the_collector_alone() -> None:
    """Without the command line's start-up, ending it does nothing."""
    got = _run(
        "import gc, json\n"
        "from deckgen import startup\n"
        "startup.working()\n"
        "print(json.dumps({'enabled': gc.isenabled(), 'frozen': gc.get_freeze_count()}))\n"
    )
    assert got == {"enabled": True, "frozen": 0}
    assert callable(startup.loads_first)
