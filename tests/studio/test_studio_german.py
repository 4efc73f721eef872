"""A German customer, as a new user: start page to print zip, all in German.

A real headless Chromium (Debian's, driven by Playwright) with locale de-DE and
``Accept-Language: de`` opens a new studio, sees the page and its deck in German,
checks that nothing is cut off at the narrowest width the page supports, makes a
double-7 photo deck with its own generated photos, crops a picture and sees the pip
badge go to the corner the card will use, meets the sample checklist, replaces or
removes every sample item and downloads the print files. The zip's PDFs are read
back: the words on the cards are German (pypdf's text), and no sample content is in
them (pixels of the rasterised cards, pypdfium2; images of the back).
"""

from __future__ import annotations

import io
import json
import os
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from pypdf import PdfReader
from studio_testkit import photo
from test_studio_e2e import (
    CHROMIUM_ARGS,
    Studio,
    _big_card_loaded,
    _chromium,
    _deck,
    _version,
    _wait_saved,
)

from deckgen.resources import images_dir

pytestmark = pytest.mark.slow

NARROWEST_PX = 360
"""The narrowest window the page supports (a small phone held upright)."""
WIDTHS = (NARROWEST_PX, 420, 500, 560, 620, 700, 780, 860, 1000, 1100, 1200, 1300, 1400)
"""Window widths the text is measured at: every layout the page takes between a phone
and a desktop (one column; one and two columns of picture slots beside the preview;
one, two and three columns of fields)."""
COLOURS = [
    (220, 30, 30),
    (30, 160, 60),
    (30, 60, 200),
    (240, 200, 0),
    (160, 30, 170),
    (0, 170, 180),
    (250, 120, 0),
]
COVER_COLOUR = (120, 200, 40)
LOGO_COLOUR = (250, 20, 140)
ENGLISH = (
    "Download",
    "Picture",
    "picture",
    "Crop",
    "Remove",
    "sample",
    "Sample",
    "Cover",
    "Number",
    "tiles",
    "Short rules",
    "Printer",
    "poker",
    "anyway",
    "Preview",
    "Imprint",
    "double",
    "--force",
    "faces.",
)
"""English words that must not appear anywhere in the German page's text."""
DOCS_ENV = "DECKGEN_DOCS_SHOTS"
"""Set to a folder (``docs``) to renew the screenshots the studio's manual shows."""


def flat_photo(colour: tuple[int, int, int], size: tuple[int, int], fmt: str = "JPEG") -> bytes:
    """A photo of one colour with a little grain: any part of it has that colour."""
    im = Image.new("RGB", size, colour)
    px = im.load()
    assert px is not None
    for i in range(0, size[0], 7):
        px[i, (i * 13) % size[1]] = (255, 255, 255)
    buf = io.BytesIO()
    im.save(buf, format=fmt, quality=92)
    return buf.getvalue()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
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


def _context(browser: Any, locale: str) -> Any:
    """A browser window (its own cookies) in ``locale``, saying so in Accept-Language."""
    ctx = browser.new_context(
        viewport={"width": 1400, "height": 1000},
        locale=locale,
        extra_http_headers={"Accept-Language": f"{locale},{locale[:2]};q=0.9"},
        accept_downloads=True,
    )
    ctx.set_default_timeout(60_000)
    return ctx


@pytest.fixture
def german(browser: Any) -> Iterator[Any]:
    ctx = _context(browser, "de-DE")
    try:
        yield ctx
    finally:
        ctx.close()


def _english_words(page: Any) -> list[str]:
    text = page.evaluate(
        "() => { const b = document.body.cloneNode(true);"
        " b.querySelectorAll('#deck-path, script').forEach((e) => e.remove());"
        " return b.innerText + ' ' + Array.from(document.querySelectorAll('option'))"
        ".map((o) => o.textContent).join(' '); }"
    )
    return [w for w in ENGLISH if re.search(rf"(?<![\w-]){re.escape(w)}", text)]


def _cut_off(page: Any) -> list[str]:
    """Every visible button, link and choice whose text is wider than its box."""
    found = page.evaluate(
        """() => Array.from(document.querySelectorAll(
              'button, a, .choice span, select, .slot-title, .drop-text, h2'))
            .filter((e) => e.offsetParent !== null && e.clientWidth > 0)
            .filter((e) => {
              const r = e.getBoundingClientRect();
              const frame = e.closest('.panel, .preview, .top, dialog');
              const f = frame ? frame.getBoundingClientRect()
                : { left: 0, right: window.innerWidth };
              return e.scrollWidth > e.clientWidth + 0.5 || r.right > f.right + 0.5
                || r.left < f.left - 0.5 || r.right > window.innerWidth + 0.5;
            })
            .map((e) => `${e.tagName} '${(e.textContent || '').trim().slice(0, 40)}'`
                        + ` ${e.scrollWidth} > ${e.clientWidth}`)"""
    )
    # a choice list shows its chosen entry on one line: each entry must fit its box
    options = page.evaluate(
        """() => {
          const ctx = document.createElement('canvas').getContext('2d');
          const out = [];
          for (const s of document.querySelectorAll('select')) {
            if (s.offsetParent === null || s.clientWidth === 0) continue;
            const cs = getComputedStyle(s);
            ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
            const room = s.clientWidth - parseFloat(cs.paddingLeft)
              - parseFloat(cs.paddingRight) - 18;
            for (const o of s.options) {
              const w = ctx.measureText(o.textContent.trim()).width;
              const text = o.textContent.trim();
              if (w > room) out.push(`OPTION '${text}' ${Math.round(w)} > ${Math.round(room)}`);
            }
          }
          return out;
        }"""
    )
    return list(found) + list(options)


def _colour_at(page_image: Image.Image, box_mm: list[float], page_mm: tuple[float, float]) -> Any:
    """The mean colour of the middle fifth of ``box_mm`` (left, top, w, h in mm)."""
    sx = page_image.width / page_mm[0]
    sy = page_image.height / page_mm[1]
    left, top, w, h = box_mm
    region = (
        round((left + w * 0.4) * sx),
        round((top + h * 0.4) * sy),
        round((left + w * 0.6) * sx),
        round((top + h * 0.6) * sy),
    )
    patch = page_image.crop(region).convert("RGB").resize((1, 1), Image.Resampling.BOX)
    return patch.getpixel((0, 0))


def _distance(a: Any, b: Any) -> float:
    return float(sum(abs(int(x) - int(y)) for x, y in zip(a, b, strict=True)))


def _no_cut_off_at_any_width(
    page: Any, screenshot: Path | None = None, widths: tuple[int, ...] = WIDTHS
) -> None:
    """Nothing cut off: at the narrowest width the page supports, just above the width
    where it turns into one column, and wide (``screenshot``: the pictures at 360 px)."""
    for width in widths:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(50)
        assert _cut_off(page) == [], width
        if width == NARROWEST_PX and screenshot is not None:
            page.locator("#pictures-panel").screenshot(path=str(screenshot))
    page.set_viewport_size({"width": 1400, "height": 1000})


def test_a_german_customer_makes_a_photo_deck_in_german(
    browser: Any, german: Any, tmp_path: Path
) -> None:
    import pypdfium2 as pdfium

    shots = Path(os.environ.get("DECKGEN_E2E_SHOTS", tmp_path / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    docs = Path(os.environ.get(DOCS_ENV, shots))
    folder = tmp_path / "familie"
    studio = Studio(folder, tmp_path)
    try:
        # first in English: nothing cut off there either, and the cards speak English
        english = _context(browser, "en-GB")
        page = english.new_page()
        page.route("**/api/card/**", lambda route: route.abort())  # layout only: no previews
        page.goto(studio.url)
        page.wait_for_selector("body.ready")
        assert _deck(folder)["language"] == "en"
        _no_cut_off_at_any_width(page)
        english.close()

        page = german.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(studio.url)
        page.wait_for_selector("body.ready")

        # the cards speak the page's language until the customer chooses (visibly)
        assert page.locator("html").get_attribute("lang") == "de"
        assert page.input_value('[data-key="language"]') == "de"
        assert page.locator("#language-follows").is_visible()
        deck = _deck(folder)
        assert deck["language"] == "de"
        assert deck["name"] == "Unser Domino"
        # printers in German, and only the games this set can play
        printers = page.locator("#f-profile").inner_text()
        assert "Drucker zu Hause, A4" in printers
        games = page.locator('[data-key="imprint.rules"] option').all_inner_texts()
        assert games[1:] == ["Karten-Domino"], games
        _big_card_loaded(page)
        assert _english_words(page) == []

        # nothing is cut off, German words included
        _no_cut_off_at_any_width(page, widths=(NARROWEST_PX, 1400))

        # the sample checklist before the download lists every sample item, in German
        page.click("#dl-print")
        page.wait_for_selector("#samples-dialog[open]")
        listed = page.locator("#samples-list li").all_inner_texts()
        assert "Zahl 3: noch das Beispielbild" in listed
        assert "Titelbild: noch das Beispielbild" in listed
        assert "Logo: noch das Beispielbild" in listed
        assert "Name des Spiels: noch der Beispieltext" in listed
        assert len(listed) == 7 + 3
        assert _english_words(page) == []
        page.locator("#samples-dialog form").screenshot(path=str(docs / "studio-samples-de.png"))
        page.locator("#samples-list button", has_text="Logo").click()
        page.wait_for_selector("#samples-dialog", state="hidden")

        # the customer replaces or removes each sample item
        version = _version(page)
        page.click('[data-slot="logo"] .remove-btn')  # "Entfernen"
        version = _wait_saved(page, version)
        page.set_input_files(
            '[data-slot="logo"] input[type=file]',
            files=[
                {
                    "name": "Wappen.png",
                    "mimeType": "image/png",
                    "buffer": flat_photo(LOGO_COLOUR, (600, 600), fmt="PNG"),
                }
            ],
        )
        version = _wait_saved(page, version)
        for value, colour in enumerate(COLOURS, start=1):
            # 2 is a photo with a subject (a sun at its upper left), for the crop editor
            data = photo((1000, 1000), colour) if value == 2 else flat_photo(colour, (500, 500))
            page.set_input_files(
                f'[data-slot="value-{value}"] input[type=file]',
                files=[{"name": f"Urlaub {value}.jpg", "mimeType": "image/jpeg", "buffer": data}],
            )
            version = _wait_saved(page, version)
        page.set_input_files(
            '[data-slot="cover"] input[type=file]',
            files=[
                {
                    "name": "Titel.jpg",
                    "mimeType": "image/jpeg",
                    "buffer": flat_photo(COVER_COLOUR, (1000, 900)),
                }
            ],
        )
        version = _wait_saved(page, version)
        page.fill("#f-name", "Familie Müller")
        version = _wait_saved(page, version)
        page.fill('[data-key="imprint.text"]', "Gemacht von **Familie Müller**, Weihnachten 2026")
        version = _wait_saved(page, version)
        page.select_option('[data-key="imprint.rules"]', "card-domino")
        version = _wait_saved(page, version)
        # every slot now shows "Zuschneiden" and "Entfernen": nothing cut off, at any width
        _no_cut_off_at_any_width(page, docs / "studio-narrow-de.png")
        # a broken upload is refused in German, naming the slot and the customer's file
        page.set_input_files(
            '[data-slot="value-5"] input[type=file]',
            files=[{"name": "Oma.heic", "mimeType": "image/heic", "buffer": b"kein Bild"}],
        )
        page.wait_for_selector('[data-error-for="value-5"].shown')
        refused = page.locator('[data-error-for="value-5"]').inner_text()
        assert refused.startswith("Zahl 5: „Oma.heic“ ist kein Bild"), refused

        # the crop editor draws the pip badge where the card will put it: far from the focus
        page.click('[data-slot="value-2"] .crop-btn')
        page.wait_for_selector("#crop-dialog[open]")
        page.wait_for_function(
            "() => { const i = document.querySelector('#crop-img');"
            " return i.complete && i.naturalWidth > 0; }"
        )
        page.fill("#crop-zoom", "1.5")

        def focus_at(fx: float, fy: float, corner: str) -> None:
            """Click the photo at (fx, fy) of the picture; the badge goes to ``corner``."""
            wrap = page.locator(".source-wrap")
            box = wrap.bounding_box()
            assert box is not None
            wrap.click(position={"x": box["width"] * fx, "y": box["height"] * fy})
            page.wait_for_function(
                "(c) => document.querySelector('#crop-badge').dataset.corner === c",
                arg=corner,
                timeout=10_000,
            )

        focus_at(0.8, 0.85, "top-left")
        focus_at(
            0.25, 0.25, "bottom-right"
        )  # the sun at the upper left: the pips at the lower right
        assert page.locator("#crop-badge .pip").count() == 2
        assert _english_words(page) == []
        page.locator("#crop-dialog form").screenshot(path=str(docs / "studio-crop-de.png"))
        assert _cut_off(page) == []
        page.click("#crop-apply")
        version = _wait_saved(page, version)
        assert page.locator(".slot.demo").count() == 0
        assert page.locator('[data-slot="value-3"] .slot-file').inner_text() == "Urlaub 3.jpg"
        assert _english_words(page) == []
        page.screenshot(path=str(shots / "german.png"))

        # no sample left, every picture sharp, nothing MeinSpiel objects to: the download
        # goes straight to the print files (the printer's objections in German are
        # checked in test_studio_language.py)
        dialogs: list[str] = []

        def refuse(dialog: Any) -> None:
            dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", refuse)
        with page.expect_download(timeout=120_000) as download:
            page.click("#dl-print")
        assert not page.locator("#samples-dialog[open]").count()
        assert dialogs == []
        zip_path = tmp_path / "druck.zip"
        download.value.save_as(zip_path)
        assert not errors
        page.close()
    finally:
        studio.stop()

    deck = _deck(folder)
    assert "demo:" not in json.dumps(deck)
    meta = json.loads((folder / ".studio" / "meta.json").read_text(encoding="utf-8"))
    assert sorted(meta["names"].values()) == sorted(
        ["Titel.jpg", "Wappen.png", *(f"Urlaub {v}.jpg" for v in range(1, 8))]
    )
    with zipfile.ZipFile(zip_path) as zf:
        cards_pdf = zf.read("cards.pdf")
        back_pdf = zf.read("back.pdf")
        manifest = json.loads(zf.read("manifest.json"))
    cards = PdfReader(io.BytesIO(cards_pdf))
    pages = {c["tile"] or c["kind"]: c["page"] - 1 for c in manifest["cards"]}
    cover_text = cards.pages[pages["cover"]].extract_text()
    imprint_text = cards.pages[pages["imprint"]].extract_text()
    assert "Doppel-7 · 36 Steine" in cover_text, cover_text
    assert "Kurzregeln" in imprint_text, imprint_text
    # the studio prints for MeinSpiel, which puts the imprint on the cover's back: 36 + 1
    assert "Doppel-7 · 36 Steine · 37 Karten insgesamt" in imprint_text, imprint_text
    assert "Gemacht von" in imprint_text
    for english in ("tiles", "Short rules", "cards in all", "double-7", "Our"):
        assert english not in cover_text + imprint_text, english
    # the short rules themselves are German sentences, not English ones
    words = re.findall(r"[A-Za-zÄÖÜäöüß]+", imprint_text)
    assert len([w for w in words if w in ("the", "and", "a", "player", "tile", "card")]) == 0
    assert len([w for w in words if w in ("der", "die", "und", "eine", "Karte", "Spieler")]) > 5

    # no sample content: every picture on the cards is the customer's, the back has none
    back_images = PdfReader(io.BytesIO(back_pdf)).pages[0].images
    assert len(back_images) == 1  # the customer's logo, no sample
    with Image.open(images_dir() / "logo.png") as im:
        sample_logo = _colour_at(im, [0, 0, im.width, im.height], im.size)
    logo_image = back_images[0].image
    assert logo_image is not None
    logo = _colour_at(logo_image, [0, 0, 1, 1], (1, 1))
    assert _distance(logo, LOGO_COLOUR) < 120, logo
    assert _distance(logo, sample_logo) > _distance(logo, LOGO_COLOUR), logo
    pdf = pdfium.PdfDocument(cards_pdf)
    bleed = manifest["card"]["bleed_mm"]
    card_mm = (manifest["card"]["width_mm"] + 2 * bleed, manifest["card"]["height_mm"] + 2 * bleed)
    # what the sample art would show in the middle of each picture box
    samples = {}
    for v in range(1, 8):
        with Image.open(images_dir() / f"value-{v:02d}.png") as im:
            samples[v] = _colour_at(im, [0, 0, im.width, im.height], im.size)
    from deckgen.studio.project import StudioProject
    from deckgen.studio.slots import all_slots, slot_frame

    loaded = StudioProject.open(folder / "deck.toml").loaded()
    frames = {s.name: slot_frame(s, loaded) for s in all_slots(7)}
    for value, colour in enumerate(COLOURS, start=1):
        if value == 2:
            continue  # the photo with a subject, cropped: not one colour
        rendered = pdf[pages[f"{value}-{value}"]].render(scale=40 / 72).to_pil()
        # the middle of the picture box (the badge sits in a corner)
        seen = _colour_at(rendered, frames[f"value-{value}"]["box"], card_mm)
        assert _distance(seen, colour) < 120, (value, seen, colour)
        assert _distance(seen, samples[value]) > _distance(seen, colour), (value, seen)
    cover = pdf[pages["cover"]].render(scale=40 / 72).to_pil()
    seen = _colour_at(cover, frames["cover"]["box"], card_mm)
    assert _distance(seen, COVER_COLOUR) < 120, seen
