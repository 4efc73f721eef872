"""Booklet model -> HTML: jinja2 templates from ``templates/booklet/``, autoescaped.

Takes a :class:`~deckgen.booklet.model.Booklet` and a page format; gives one HTML
document with its paged-media CSS inline, ready for WeasyPrint. Interface strings go
through the gettext catalog of the booklet's language.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from deckgen.booklet.i18n import translations
from deckgen.booklet.model import FORMATS, Booklet
from deckgen.errors import InputError
from deckgen.resources import templates_dir


@dataclass(frozen=True)
class PageFormat:
    """A booklet page format; lengths are CSS lengths."""

    name: str
    width_mm: float
    height_mm: float
    margins_mm: tuple[float, float, float, float]  # top, outer, bottom, inner
    body_pt: float
    title_pt: float

    @property
    def text_width_mm(self) -> float:
        return self.width_mm - self.margins_mm[1] - self.margins_mm[3]


PAGE_FORMATS: dict[str, PageFormat] = {
    "a5": PageFormat("a5", 148.0, 210.0, (17.0, 14.0, 17.0, 16.0), 9.6, 30.0),
    "a6": PageFormat("a6", 105.0, 148.0, (12.5, 9.0, 12.5, 10.5), 7.6, 21.0),
}


def page_format(name: str, *, where: str = "option --format") -> PageFormat:
    """The format called ``name`` (``a5`` or ``a6``), or an InputError."""
    try:
        return PAGE_FORMATS[name.lower()]
    except KeyError:
        raise InputError(
            f"there is no booklet format '{name}'", where=where, fix=f"use {' or '.join(FORMATS)}"
        ) from None


def css_string(text: str) -> str:
    """``text`` as a quoted CSS string (safe inside a ``<style>`` element)."""
    escaped = "".join(
        ch if ch.isalnum() or ch in " .,:;-–()!?'" else f"\\{ord(ch):06x}" for ch in text
    )
    return f'"{escaped}"'


def counter_content(template: str) -> str:
    """A gettext text with ``%(page)s`` and ``%(pages)s`` as a CSS ``content`` value.

    >>> counter_content("Seite %(page)s von %(pages)s")
    '"Seite " counter(page) " von " counter(pages)'
    """
    parts: list[str] = []
    rest = template
    while rest:
        cut = min(
            (i for i in (rest.find("%(page)s"), rest.find("%(pages)s")) if i >= 0), default=-1
        )
        if cut < 0:
            parts.append(css_string(rest))
            break
        if cut:
            parts.append(css_string(rest[:cut]))
        if rest.startswith("%(pages)s", cut):
            parts.append("counter(pages)")
            rest = rest[cut + len("%(pages)s") :]
        else:
            parts.append("counter(page)")
            rest = rest[cut + len("%(page)s") :]
    return " ".join(parts)


def page_style(
    fmt: PageFormat, lang: str, running_title: str, *, bleed_mm: float = 0.0
) -> dict[str, Any]:
    """The values the CSS template needs for ``fmt`` in ``lang`` (``bleed_mm`` > 0: the
    print edition, whose pages carry bleed beyond the trim, with TrimBox and BleedBox)."""
    t = translations(lang)
    top, outer, bottom, inner = fmt.margins_mm
    return {
        "size": f"{fmt.width_mm:g}mm {fmt.height_mm:g}mm",
        "bleed": f"{bleed_mm:g}mm",
        "height": f"{fmt.height_mm:g}mm",
        "margin_top": f"{top:g}mm",
        "margin_outer": f"{outer:g}mm",
        "margin_bottom": f"{bottom:g}mm",
        "margin_inner": f"{inner:g}mm",
        "cover_padding": f"{top + 4:g}mm {outer + 2:g}mm {bottom:g}mm",
        "body_size": f"{fmt.body_pt:g}pt",
        "small_size": f"{fmt.body_pt * 0.78:.2f}pt",
        "title_size": f"{fmt.title_pt:g}pt",
        "art_margin": f"{fmt.height_mm * 0.05:.1f}mm",
        "art_padding": f"{fmt.height_mm * 0.035:.1f}mm",
        "page_label": Markup(counter_content(t.gettext("Page %(page)s of %(pages)s"))),
        "running_title": Markup(css_string(running_title)),
    }


@functools.cache
def _environment(lang: str) -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir() / "booklet")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    return env


def render_html(booklet: Booklet, fmt: PageFormat, *, bleed_mm: float = 0.0) -> str:
    """The booklet as one HTML document with inline CSS for ``fmt`` (with ``bleed_mm``
    of bleed around every page for the print edition)."""
    env = _environment(booklet.lang)
    template = env.get_template("booklet.html.j2")
    running = booklet.running_title or booklet.title.name
    style = page_style(fmt, booklet.lang, running, bleed_mm=bleed_mm)
    html: str = template.render(booklet=booklet, page=style)
    return html
