"""``deckgen batch ...`` and ``deckgen worker``: decks from a spreadsheet of orders.

Thin: parse options, call :func:`deckgen.batch.run.run_batch` (or the starter, or the
queue worker) and report. ``deckgen batch orders.csv`` is short for
``deckgen batch run orders.csv``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from deckgen.cli.options import AllowOutsideOpt, JsonOpt, QuietOpt
from deckgen.cli.output import say, write_json
from deckgen.errors import safe_text

if TYPE_CHECKING:
    from deckgen.batch.events import Event
    from deckgen.batch.outcome import Outcome


class _BatchGroup(TyperGroup):
    """``deckgen batch FILE ...`` runs ``deckgen batch run FILE ...``."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            return "run", self.commands["run"], args
        return super().resolve_command(ctx, args)


app = typer.Typer(
    cls=_BatchGroup,
    help="Decks from a spreadsheet of orders (CSV or XLSX): one folder per row. "
    "`deckgen batch orders.csv` (short for `batch run orders.csv`) builds them; "
    "`deckgen batch new orders.csv` writes a starter.",
    no_args_is_help=True,
    add_completion=False,  # a group of the root command (deckgen.cli), not a program
)

SheetArg = Annotated[Path, typer.Argument(help="The spreadsheet of orders (.csv or .xlsx).")]
QueueOpt = Annotated[
    str | None,
    typer.Option(
        "--queue",
        help="Enqueue the decks as jobs on this Redis queue (redis://host:6379/0) for "
        "`deckgen worker` processes, instead of building them here.",
    ),
]
InsecureRedisOpt = Annotated[
    bool,
    typer.Option(
        "--insecure-redis",
        help="Accept a Redis server on another machine without a password or TLS (only on a "
        "network you trust completely: whoever reaches the server can fill the queue).",
    ),
]


class ProgressObserver:
    """Progress bars on stderr: one for the batch, one per deck being built."""

    def __init__(self, *, quiet: bool) -> None:
        from rich.console import Console

        self.err = Console(stderr=True, highlight=False, soft_wrap=True)
        self.quiet = quiet
        self.live = not quiet and self.err.is_terminal
        self.progress: Any = None
        self.overall: Any = None
        self.decks: dict[str, Any] = {}
        self.done = 0
        self.total = 0

    def batch_started(self, rows: int, to_build: int) -> None:
        self.total = rows
        if not self.live:
            return
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=self.err,
            transient=True,
        )
        self.progress.start()
        self.overall = self.progress.add_task("[bold]all decks", total=rows)

    def deck_event(self, event: Event) -> None:
        order, kind, description, number = event
        if self.progress is None:
            return
        task = self.decks.get(order)
        if kind == "start" or task is None:
            if task is None:
                self.decks[order] = self.progress.add_task(f"  {order}", total=None)
            return
        if kind == "step":  # a new bar for each step: its total may be unknown
            self.progress.remove_task(task)
            self.decks[order] = self.progress.add_task(f"  {order}: {description}", total=number)
        elif kind == "advance":
            self.progress.advance(task, number or 1)

    def deck_finished(self, outcome: Outcome) -> None:
        self.done += 1
        if self.progress is not None:
            task = self.decks.pop(outcome.order, None)
            if task is not None:
                self.progress.remove_task(task)
            self.progress.advance(self.overall)
        elif not self.quiet:
            self.err.print(f"[{self.done}/{self.total}] {safe_text(outcome.line())}", markup=False)

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None


@app.command("run")
def run_command(
    spreadsheet: SheetArg,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Folder for the order folders (default: output/<sheet name>/)."),
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=0, help="Worker processes (default: one per core).")
    ] = 0,
    keep_going: Annotated[
        bool,
        typer.Option("--keep-going", help="Build the valid rows even if other rows are invalid."),
    ] = False,
    make_zip: Annotated[
        bool, typer.Option("--zip", help="Also write <order>.zip of each deck folder.")
    ] = False,
    no_preview: Annotated[
        bool, typer.Option("--no-preview", help="Skip each deck's preview contact sheet.")
    ] = False,
    tts: Annotated[
        bool, typer.Option("--tts", help="Also write each deck's Tabletop Simulator export.")
    ] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Only validate every row; build nothing.")
    ] = False,
    queue: QueueOpt = None,
    insecure_redis: InsecureRedisOpt = False,
    allow_outside: AllowOutsideOpt = False,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Build one deck folder per row of the spreadsheet (validated first, resumable).

    Rows already built from the same inputs are skipped, so running the same command
    again after an interruption continues where it stopped. Exit code 1 when a row
    failed or (with --keep-going) was invalid.
    """
    from deckgen.batch.run import RunOptions, check_batch, run_batch
    from deckgen.batch.settings import BatchSettings

    settings = BatchSettings(
        allow_outside=allow_outside, preview=not no_preview, tts=tts, make_zip=make_zip
    )
    if check:
        _check(check_batch(spreadsheet, settings), quiet=quiet, as_json=as_json)
        return
    options = RunOptions(
        out_dir=out,
        jobs=jobs,
        keep_going=keep_going,
        queue_url=queue,
        insecure_redis=insecure_redis,
    )
    observer = ProgressObserver(quiet=quiet or as_json)
    try:
        summary = run_batch(spreadsheet, settings, options, observer)
    except KeyboardInterrupt:
        observer.stop()
        say(
            "interrupted: the decks finished so far are complete; run the same command "
            "again to build the rest",
            err=True,
        )
        raise typer.Exit(130) from None
    finally:
        observer.stop()
    if as_json:
        write_json(summary.to_json())
    else:
        if not quiet:
            for outcome in summary.outcomes:
                say(outcome.line())
        say(summary.totals_line())
    if not summary.ok:
        raise typer.Exit(1)


def _check(validated: Any, *, quiet: bool, as_json: bool) -> None:
    import json

    problems = [p.text() for p in validated.problems]
    if as_json:
        payload = {
            "rows": len(validated.sheet.rows),
            "valid": [{"row": o.row, "order": o.order_id} for o in validated.orders],
            "problems": problems,
        }
        write_json(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    else:
        for text in problems:
            say(text)
        if not quiet:
            say(f"{len(validated.orders)} of {len(validated.sheet.rows)} rows are valid")
    if problems:
        raise typer.Exit(1)


@app.command("new")
def new_command(
    spreadsheet: Annotated[
        Path, typer.Argument(help="Where to write the starter spreadsheet (.csv or .xlsx).")
    ],
    force: Annotated[bool, typer.Option("--force", help="Overwrite existing files.")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Write a starter spreadsheet (and the example pictures it uses) that builds as it is."""
    from deckgen.batch.starter import write_starter

    written = write_starter(spreadsheet, force=force)
    if not quiet:
        for path in written:
            say(f"wrote {path}")
        say(f"build the decks with: deckgen batch {spreadsheet}")


def worker_command(
    queue: Annotated[
        str,
        typer.Option("--queue", help="The Redis queue to take jobs from (redis://host:6379/0)."),
    ],
    burst: Annotated[
        bool, typer.Option("--burst", help="Stop when the queue is empty instead of waiting.")
    ] = False,
    check_every: Annotated[
        int,
        typer.Option(
            "--check-every",
            min=1,
            max=3600,
            help="Seconds between looks for jobs whose worker died (they are then rebuilt).",
        ),
    ] = 30,
    only_into: Annotated[
        Path | None,
        typer.Option(
            "--only-into",
            help="Build only decks whose output folder is this folder or inside it; refuse "
            "other jobs (recommended: whoever can write to the Redis chooses the folder).",
        ),
    ] = None,
    insecure_redis: InsecureRedisOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Build decks that `deckgen batch ... --queue URL` enqueued, until stopped (Ctrl-C)."""
    from deckgen.batch.rqueue import WorkerTiming, run_worker

    timing = WorkerTiming(
        check_every_s=check_every, heartbeat_s=min(10, check_every), grace_s=check_every
    )
    run_worker(
        queue,
        burst=burst,
        quiet=quiet,
        timing=timing,
        insecure=insecure_redis,
        only_into=only_into,
    )
