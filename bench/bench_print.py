"""Benchmark: print outputs of a double-12 picture deck against building its cards.pdf.

The deck: 91 tiles + cover + imprint (93 cards), 12 value pictures (the demo art), a
logo on the back. The anchor, measured in the same run: ``build_deck`` writing
``cards.pdf`` and ``back.pdf`` (no preview). Then, on those files:

- sheets: ``sheets.pdf`` (A4, 9 up, crop marks, backs) plus ``calibration.pdf``;
  goal (issue 4): building with sheets within 1.5x of building ``cards.pdf`` alone;
- PNGs: all 93 cards and the back at 300 dpi on 2 worker processes (and on 1, for the
  ratio); goal: under 2 s wall on 2 cores;
- for the record: CMYK conversion of cards.pdf and back.pdf, and the MeinSpiel
  per-card PDFs.

If the deck code cannot build (``deckgen.deck.build`` missing), a synthetic 93-card
PDF made with reportlab is measured instead, and the output says so.
Run: ``.venv/bin/python -m bench bench_print`` (or ``make bench``).
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SET = 12
ROUNDS = 3


def _timed(fn: Callable[[], object], rounds: int = ROUNDS) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _deck_file(folder: Path) -> Path:
    pictures = ", ".join(f'"demo:value-{v:02d}.png"' for v in range(1, SET + 1))
    path = folder / "bench.toml"
    path.write_text(
        f'name = "Bench"\nset = "double-{SET}"\n[faces]\nstyle = "pictures+pips"\n'
        f'pictures = [{pictures}]\n[back]\nlogo = "demo:logo.png"\n'
    )
    return path


def _labels() -> list[str]:
    return ["cover"] + [f"{a}-{b}" for a in range(SET + 1) for b in range(a, SET + 1)] + ["imprint"]


def main() -> None:
    from deckgen.prepress.calibration import write_calibration
    from deckgen.prepress.cardfiles import split_cards
    from deckgen.prepress.cardpages import open_card_pdfs
    from deckgen.prepress.cmyk import convert_pdf
    from deckgen.prepress.imposition import SheetOptions, impose_sheets
    from deckgen.prepress.pdfout import save_pdf
    from deckgen.prepress.rasterize import PngJob, render_pngs

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        out = root / "out"
        try:
            from deckgen.deck.build import build_deck

            deck_file = _deck_file(root)

            def build() -> None:
                build_deck(deck_file, out, preview=False)

            source = "the real double-12 deck (deckgen.deck.build, demo pictures)"
        except ImportError:
            helpers = Path(__file__).resolve().parent.parent / "tests" / "helpers" / "prepress"
            sys.path.insert(0, str(helpers))
            from PIL import Image

            from print_synthetic import make_deck_pdfs

            pictures = {
                i: (
                    Image.effect_mandelbrot((600, 600), (-2, -1.5, 1, 1.5), 60 + i % 12).convert(
                        "RGB"
                    ),
                    40.0,
                )
                for i in range(93)
            }

            def build() -> None:
                make_deck_pdfs(out, _labels(), pictures=pictures)

            source = "a SYNTHETIC 93-card PDF (reportlab), the deck build was not available"

        t_cards = _timed(build)
        cards, back = out / "cards.pdf", out / "back.pdf"
        options = SheetOptions(paper="A4", bleed_mm=1.0, marks="crop")

        def sheets() -> None:
            result = impose_sheets(cards, back, options)
            save_pdf(result.pdf, out / "sheets.pdf")
            write_calibration(out / "calibration.pdf", paper="A4")

        t_sheets = _timed(sheets)
        jobs = [PngJob(cards, i, out / "png" / f"{i + 1:03d}.png") for i in range(93)]
        jobs.append(PngJob(back, 0, out / "png" / "back.png"))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t_png2 = _timed(lambda: render_pngs(jobs, dpi=300, bleed=True, workers=2))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu_png2 = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / ROUNDS
        t_png1 = _timed(lambda: render_pngs(jobs, dpi=300, bleed=True, workers=1), rounds=1)

        cmyk_dir = root / "cmyk"
        cmyk_dir.mkdir()

        def cmyk() -> None:
            convert_pdf(cards, cmyk_dir / "cards.pdf")
            convert_pdf(back, cmyk_dir / "back.pdf")

        t_cmyk = _timed(cmyk, rounds=1)
        per_card = root / "per-card"

        def split() -> None:
            shutil.rmtree(per_card, ignore_errors=True)
            split_cards(
                open_card_pdfs(cards, back),
                [per_card / f"{i:03d}.pdf" for i in range(93)],
                per_card / "back.pdf",
            )

        t_split = _timed(split, rounds=1)
        size_cards = cards.stat().st_size
        size_sheets = (out / "sheets.pdf").stat().st_size

    rows = [
        ("cards.pdf + back.pdf (anchor)", f"{t_cards * 1000:.0f} ms", ""),
        ("sheets.pdf + calibration.pdf", f"{t_sheets * 1000:.0f} ms", ""),
        (
            "build with sheets / cards alone",
            f"{(t_cards + t_sheets) / t_cards:.2f} x",
            "goal <= 1.5 x",
        ),
        ("sheets.pdf / cards.pdf size", f"{size_sheets / size_cards:.2f} x", "pictures once"),
        ("94 PNGs at 300 dpi, 2 workers", f"{t_png2 * 1000:.0f} ms", "goal < 2000 ms"),
        ("  CPU time of the 2 workers", f"{cpu_png2 * 1000:.0f} ms", "wall on 2 idle cores ~ half"),
        ("94 PNGs at 300 dpi, 1 process", f"{t_png1 * 1000:.0f} ms", f"{t_png1 / t_png2:.2f} x"),
        ("CMYK cards + back", f"{t_cmyk * 1000:.0f} ms", f"{t_cmyk / t_cards:.2f} x anchor"),
        (
            "MeinSpiel per-card PDFs",
            f"{t_split * 1000:.0f} ms",
            f"{t_split / t_cards:.2f} x anchor",
        ),
    ]
    print(f"measured on {source}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name, value, note in rows:
        print(f"{name:<34} {value:>10}   {note}")


if __name__ == "__main__":
    main()
