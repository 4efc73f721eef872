"""Benchmark: 20 double-7 photo decks from a spreadsheet against 20 ``deck build`` runs.

The orders: 20 rows, each a double-7 ``pictures+pips`` deck of the same seven photos
(1600 x 1600 px JPEGs, as a company's branch editions share them) with its own title,
colours and imprint. Measured in the same run:

- anchor: the 20 decks as 20 separate ``deckgen deck build`` processes, one after the
  other (what a shell loop over deck files does);
- also: the same 20 processes, as many at a time as there are cores;
- ours: ``deckgen batch orders.csv`` (a process pool of one worker per core), then the
  same command again (every deck skipped: the resume cost);
- the queue: the same batch with ``--queue`` on a throw-away ``redis-server`` and as
  many ``deckgen worker`` processes as cores (started before the clock runs, as
  workers are long-running); its overhead per job against the local pool.

Goal (issue 15): the batch at most 0.5x the anchor.
Run: ``.venv/bin/python -m bench bench_batch`` (or ``make bench``).
"""

from __future__ import annotations

import csv
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

DECKS = 20
PHOTO_PX = 1600
DECKGEN = [sys.executable, "-m", "deckgen"]


def make_photos(folder: Path) -> list[str]:
    """Seven photo-like JPEGs: smooth colour fields with grain."""
    from PIL import Image

    names = []
    for k in range(1, 8):
        small = Image.new("RGB", (8, 8))
        px = small.load()
        assert px is not None
        for y in range(8):
            for x in range(8):
                px[x, y] = (
                    (k * 37 + x * 29) % 256,
                    (k * 71 + y * 31) % 256,
                    (k * 13 + x * y * 7) % 256,
                )
        im = small.resize((PHOTO_PX, PHOTO_PX), Image.Resampling.BICUBIC)
        grain = Image.effect_noise((PHOTO_PX, PHOTO_PX), 24).convert("RGB")
        name = f"photo-{k}.jpg"
        Image.blend(im, grain, 0.18).save(folder / name, quality=88)
        names.append(name)
    return names


def row(i: int, photos: list[str]) -> dict[str, str]:
    return {
        "order": f"branch-{i:02d}",
        "quantity": str(10 + i),
        "name": f"Branch Domino {i}",
        "set": "double-7",
        "faces.style": "pictures+pips",
        "faces.pictures": ";".join(photos),
        "back.background": f"#{(i * 53) % 200:02x}3a6e",
        "cover.title": f"Branch {i}",
        "imprint.text": f"Made for branch {i}, 2026.",
    }


def deck_toml(r: dict[str, str]) -> str:
    pictures = ", ".join(f'"{p}"' for p in r["faces.pictures"].split(";"))
    return (
        f'name = "{r["name"]}"\nset = "double-7"\n[faces]\nstyle = "pictures+pips"\n'
        f'pictures = [{pictures}]\n[back]\nbackground = "{r["back.background"]}"\n'
        f'[cover]\ntitle = "{r["cover.title"]}"\n[imprint]\ntext = "{r["imprint.text"]}"\n'
    )


def timed(command: list[str], **kwargs: object) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, **kwargs)  # type: ignore[call-overload]
    return time.perf_counter() - start


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def queue_run(root: Path, sheet: Path, cores: int) -> float | None:
    """Wall time of the batch through a Redis queue with ``cores`` workers, or None."""
    if shutil.which("redis-server") is None:
        return None
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    redis = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(root),
        ],
        stdout=subprocess.DEVNULL,
    )
    workers: list[subprocess.Popen[bytes]] = []
    try:
        time.sleep(0.5)
        workers = [
            subprocess.Popen(
                [*DECKGEN, "worker", "--queue", url, "-q"],
                start_new_session=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(cores)
        ]
        time.sleep(3)  # workers are long-running: their start is not part of a batch
        return timed(
            [*DECKGEN, "batch", str(sheet), "--out", str(root / "queue"), "--queue", url, "-q"]
        )
    finally:
        for w in workers:
            os.killpg(w.pid, signal.SIGTERM)
        for w in workers:
            w.wait(timeout=30)
        redis.terminate()
        redis.wait(timeout=10)


def main() -> None:
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        photos = make_photos(root)
        rows = [row(i, photos) for i in range(DECKS)]
        sheet = root / "orders.csv"
        with open(sheet, "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        deck_files = []
        for i, r in enumerate(rows):
            path = root / f"deck-{i:02d}.toml"
            path.write_text(deck_toml(r), encoding="utf-8")
            deck_files.append(path)

        start = time.perf_counter()
        for i, path in enumerate(deck_files):
            subprocess.run(
                [
                    *DECKGEN,
                    "deck",
                    "build",
                    str(path),
                    "--out",
                    str(root / "single" / str(i)),
                    "-q",
                ],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        anchor = time.perf_counter() - start

        def build_one(i: int) -> None:
            command = [
                *DECKGEN,
                "deck",
                "build",
                str(deck_files[i]),
                "--out",
                str(root / "par" / str(i)),
                "-q",
            ]
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)

        start = time.perf_counter()
        with ThreadPoolExecutor(max_workers=cores) as runner:
            list(runner.map(build_one, range(DECKS)))
        parallel = time.perf_counter() - start

        batch = timed([*DECKGEN, "batch", str(sheet), "--out", str(root / "batch"), "-q"])
        resume = timed([*DECKGEN, "batch", str(sheet), "--out", str(root / "batch"), "-q"])
        queued = queue_run(root, sheet, cores)

    print(f"{DECKS} double-7 photo decks ({PHOTO_PX} px photos), {cores} cores")
    print(f"  anchor: {DECKS} x `deck build`, one after another   {anchor:7.1f} s")
    ratio = parallel / anchor
    print(
        f"  {DECKS} x `deck build`, {cores} at a time            {parallel:7.1f} s  ({ratio:.2f}x)"
    )
    ratio = batch / anchor
    print(f"  `deckgen batch` (process pool)             {batch:7.1f} s  ({ratio:.2f}x, goal 0.5x)")
    print(f"  `deckgen batch` again (all skipped: resume cost)  {resume:7.1f} s")
    if queued is None:
        print("  queue: skipped (no redis-server)")
    else:
        per_job = (queued - batch) / DECKS
        print(
            f"  `deckgen batch --queue` ({cores} workers)              {queued:7.1f} s  "
            f"({queued / anchor:.2f}x; {per_job * 1000:+.0f} ms per job against the pool)"
        )


if __name__ == "__main__":
    main()
