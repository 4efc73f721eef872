"""End to end in a real headless Chromium (Debian's, driven by Playwright): a family's deck.

The studio runs as the user starts it (``deckgen studio --no-browser``, in a
subprocess); the browser opens the printed link, makes a double-7 photo deck from
scratch (file picker and drag and drop), crops a picture, changes the title and sees
the cover change, downloads the print files and checks their PDFs with pypdf, then
downloads the deck file and reopens it in a second studio. Screenshots go to the test's
temporary folder (and to ``$DECKGEN_E2E_SHOTS`` when set, to look at them).

Playwright never downloads a browser here: Chromium comes from the system
(``scripts/sysdeps.sh`` installs Debian's ``chromium``). Without it these tests skip.
"""

from __future__ import annotations

import base64
import io
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from PIL import Image
from pypdf import PdfReader
from studio_testkit import photo

if TYPE_CHECKING:
    from playwright.sync_api import Dialog

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
COLOURS = [
    (200, 50, 40),
    (40, 140, 60),
    (40, 70, 190),
    (220, 170, 20),
    (150, 50, 170),
    (20, 160, 170),
    (230, 110, 20),
]
TIMEOUT_MS = 60_000

pytestmark = pytest.mark.slow


def _chromium() -> str:
    found = shutil.which("chromium") or next(
        (c for c in CHROMIUM_CANDIDATES if Path(c).exists()), None
    )
    if found is None:
        pytest.skip(
            "Chromium is not installed (scripts/sysdeps.sh installs Debian's `chromium`); "
            "the studio's browser tests need it"
        )
    return found


def _shots_dir(tmp: Path) -> Path:
    folder = Path(os.environ.get("DECKGEN_E2E_SHOTS", tmp / "shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Studio:
    """``deckgen studio`` in a subprocess; ``url`` is the first line it printed."""

    def __init__(self, target: Path, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "deckgen", "studio", "--no-browser", str(target)],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()
        assert self.url.startswith("http://127.0.0.1:"), (
            self.proc.stderr.read() if self.proc.stderr else ""
        )

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=15)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for the module (Playwright gives it a fresh, temporary profile)."""
    executable = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the python package `playwright` is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def context(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A browser window (its own cookies) in English, or in the language the test asks for."""
    locale = getattr(request, "param", "en-GB")
    ctx = browser.new_context(
        viewport={"width": 1400, "height": 1000}, locale=locale, accept_downloads=True
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    try:
        yield ctx
    finally:
        ctx.close()


def _wait_saved(page: Any, version: int) -> int:
    """Wait until the page shows a state newer than ``version``; give the new version."""
    page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    return int(page.evaluate("() => Number(document.body.dataset.version)"))


def _version(page: Any) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.version)"))


def _big_card_loaded(page: Any) -> None:
    page.wait_for_function(
        "() => { const i = document.querySelector('#big-card');"
        " return i.complete && i.naturalWidth > 0 && !i.classList.contains('loading'); }"
    )


def _drop_file(page: Any, slot: str, name: str, data: bytes, mime: str) -> None:
    """Drag a file from the desktop onto a slot (a real DataTransfer with a File)."""
    page.evaluate(
        """([selector, name, b64, mime]) => {
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            const dt = new DataTransfer();
            dt.items.add(new File([bytes], name, { type: mime }));
            const target = document.querySelector(selector);
            const init = { dataTransfer: dt, bubbles: true, cancelable: true };
            target.dispatchEvent(new DragEvent("dragover", init));
            target.dispatchEvent(new DragEvent("drop", init));
        }""",
        [f'[data-slot="{slot}"] .drop', name, base64.b64encode(data).decode(), mime],
    )


def _deck(folder: Path) -> dict[str, Any]:
    return tomllib.loads((folder / "deck.toml").read_text(encoding="utf-8"))


def test_a_family_makes_a_double7_photo_deck_from_scratch(context: Any, tmp_path: Path) -> None:
    shots = _shots_dir(tmp_path)
    folder = tmp_path / "miller-domino"
    studio = Studio(folder, tmp_path)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(studio.url)
        page.wait_for_selector("body.ready")
        assert "token" not in page.url  # the token moved into a cookie
        _big_card_loaded(page)
        assert page.locator("#value-slots .slot").count() == 7
        assert page.locator("#sheet img").count() == 36 + 3

        # pictures for 1 ... 5 by the file picker, 6 too small, 7 dropped onto its slot
        version = _version(page)
        for value in range(1, 6):
            page.set_input_files(
                f'[data-slot="value-{value}"] input[type=file]',
                files=[
                    {
                        "name": f"photo-{value}.jpg",
                        "mimeType": "image/jpeg",
                        "buffer": photo((1000, 800), COLOURS[value - 1]),
                    }
                ],
            )
            version = _wait_saved(page, version)
            page.wait_for_selector(f'[data-slot="value-{value}"]:not(.demo)')
        page.set_input_files(
            '[data-slot="value-6"] input[type=file]',
            files=[
                {
                    "name": "tiny.jpg",
                    "mimeType": "image/jpeg",
                    "buffer": photo((120, 120), COLOURS[5]),
                }
            ],
        )
        version = _wait_saved(page, version)
        low = page.locator('[data-slot="value-6"]')
        assert "low" in (low.get_attribute("class") or "")
        warning = low.locator(".quality").inner_text()
        assert "Too small" in warning
        need = re.search("Use at least (\\d+) \u00d7 (\\d+) pixels", warning)
        assert need is not None, warning
        assert int(need.group(1)) > 300
        _drop_file(
            page, "value-7", "seven.png", photo((900, 900), COLOURS[6], fmt="PNG"), "image/png"
        )
        version = _wait_saved(page, version)
        page.wait_for_selector('[data-slot="value-7"]:not(.demo)')
        pictures = _deck(folder)["faces"]["pictures"]
        assert all(str(p).startswith("pictures/value-") for p in pictures)

        # a broken file is refused next to its field
        page.set_input_files(
            '[data-slot="value-6"] input[type=file]',
            files=[{"name": "broken.jpg", "mimeType": "image/jpeg", "buffer": b"not a picture"}],
        )
        page.wait_for_selector('[data-error-for="value-6"].shown')
        assert "not a picture" in page.locator('[data-error-for="value-6"]').inner_text()

        # crop picture 1: zoom in on its top-left quarter
        page.click('[data-slot="value-1"] .crop-btn')
        page.wait_for_selector("#crop-dialog[open]")
        page.fill("#crop-zoom", "2")
        box = page.locator(".source-wrap").bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] * 0.25, box["y"] + box["height"] * 0.3)
        page.screenshot(path=str(shots / "2-crop.png"))
        page.click("#crop-apply")
        version = _wait_saved(page, version)
        ref = _deck(folder)["faces"]["pictures"][0]
        cropped = ref["file"] if isinstance(ref, dict) else ref  # with the subject's focus
        assert str(cropped).endswith("-crop.jpg")
        assert page.input_value("#card-choice") == "1-1"  # the preview shows the new crop
        with Image.open(folder / cropped) as im:
            assert im.width == pytest.approx(800 / 2, abs=2)  # a square half of an 1000 x 800 photo

        # the title: the cover preview changes, the tiles do not
        tile_src = page.locator('#sheet img[data-card="3-5"]').get_attribute("src")
        page.click('#sheet img[data-card="cover"]')
        _big_card_loaded(page)
        before = page.locator("#big-card").screenshot()
        old_src = page.locator("#big-card").get_attribute("src")
        page.fill("#f-title", "The Millers")
        version = _wait_saved(page, version)
        page.wait_for_function(
            "(old) => document.querySelector('#big-card').getAttribute('src') !== old", arg=old_src
        )
        _big_card_loaded(page)
        after = page.locator("#big-card").screenshot()
        assert before != after
        assert page.locator('#sheet img[data-card="3-5"]').get_attribute("src") == tile_src
        assert _deck(folder)["cover"]["title"] == "The Millers"

        # imprint: who made it, a picture, the short rules of the card game
        page.fill('[data-key="imprint.text"]', "Made by **the Millers**, Christmas 2026")
        version = _wait_saved(page, version)
        page.set_input_files(
            '[data-slot="imprint"] input[type=file]',
            files=[
                {
                    "name": "us.png",
                    "mimeType": "image/png",
                    "buffer": photo((800, 500), (60, 90, 160), fmt="PNG"),
                }
            ],
        )
        version = _wait_saved(page, version)
        page.select_option('[data-key="imprint.rules"]', "card-domino")
        version = _wait_saved(page, version)
        page.select_option("#card-choice", "imprint")
        _big_card_loaded(page)
        page.screenshot(path=str(shots / "1-studio.png"))
        page.screenshot(path=str(shots / "1-studio-full.png"), full_page=True)
        assert not errors

        # the print files: the too-small picture of 6 breaks MeinSpiel's resolution rule,
        # so the page says so and asks before it makes the files anyway
        dialogs: list[str] = []

        def accept(dialog: Dialog) -> None:
            dialogs.append(dialog.message)
            dialog.accept()

        # a print shop gets no sample pictures: the family's own cover and logo
        for slot, size in (("cover", (1000, 900)), ("logo", (600, 600))):
            page.set_input_files(
                f'[data-slot="{slot}"] input[type=file]',
                files=[
                    {
                        "name": f"{slot}.png",
                        "mimeType": "image/png",
                        "buffer": photo(size, (90, 60, 30), fmt="PNG"),
                    }
                ],
            )
            version = _wait_saved(page, version)
        page.once("dialog", accept)
        with page.expect_download(timeout=180_000) as download:
            page.click("#dl-print")
            # the sample checklist first: the deck's name is still the sample name, which
            # the studio only points out ("Print it anyway")
            page.click("#samples-anyway")
        assert len(dialogs) == 1
        assert "anyway" in dialogs[0]
        assert "Number 6: your picture 'tiny.jpg' prints at" in dialogs[0]
        zip_path = tmp_path / "print.zip"
        download.value.save_as(zip_path)
        with zipfile.ZipFile(zip_path) as zf:
            names = set(zf.namelist())
            assert {"cards.pdf", "back.pdf", "preflight.json", "manifest.json"} <= names
            assert {"fronts.pdf", "backs.pdf"} <= names  # MeinSpiel's upload form
            cards = PdfReader(io.BytesIO(zf.read("cards.pdf")))
            back = PdfReader(io.BytesIO(zf.read("back.pdf")))
        assert len(cards.pages) == 38
        assert len(back.pages) == 1
        for pdf_page in cards.pages:
            assert float(pdf_page.trimbox.width) == pytest.approx(59 / 25.4 * 72, abs=0.01)
            assert float(pdf_page.trimbox.height) == pytest.approx(91 / 25.4 * 72, abs=0.01)
            assert float(pdf_page.mediabox.width) == pytest.approx(65 / 25.4 * 72, abs=0.01)
        assert "The Millers" in cards.pages[0].extract_text()
        assert "Short rules" in cards.pages[-1].extract_text()

        # the deck file with its pictures, reopened in a second studio
        with page.expect_download() as download:
            page.click("#dl-deck")
        deck_zip = tmp_path / "deck.zip"
        download.value.save_as(deck_zip)
        page.close()
    finally:
        studio.stop()
    again = tmp_path / "again"
    with zipfile.ZipFile(deck_zip) as zf:
        zf.extractall(again)
    saved = (again / "deck.toml").read_bytes()
    assert saved == (folder / "deck.toml").read_bytes()
    second = Studio(again / "deck.toml", tmp_path)
    try:
        page = context.new_page()
        page.goto(second.url)
        page.wait_for_selector("body.ready")
        assert page.input_value("#f-title") == "The Millers"
        assert page.locator("#value-slots .slot.demo").count() == 0
        assert page.locator('[data-slot="value-6"].low').count() == 1
        _big_card_loaded(page)
        page.screenshot(path=str(shots / "3-reopened.png"))
        page.close()
    finally:
        second.stop()
    assert (again / "deck.toml").read_bytes() == saved


@pytest.mark.parametrize("context", ["de-DE"], indirect=True)
def test_the_page_speaks_german_to_a_german_browser(context: Any, tmp_path: Path) -> None:
    studio = Studio(tmp_path / "familie", tmp_path)
    try:
        page = context.new_page()
        page.goto(studio.url)
        page.wait_for_selector("body.ready")
        assert page.locator("#dl-print").inner_text() == "Druckdateien herunterladen"
        assert page.locator("html").get_attribute("lang") == "de"
        assert "Titelkarte" in page.locator("#card-choice").inner_text()
        _big_card_loaded(page)
        page.screenshot(path=str(_shots_dir(tmp_path) / "4-german.png"))
        page.close()
    finally:
        studio.stop()
