"""Card text: simple markup parsed to runs, wrapped and shrunk until it fits its box.

Markup (deliberately tiny and safe: nothing is interpreted as HTML): a blank line
starts a new paragraph, a single line break stays a line break, ``**bold**`` is bold.

Takes text, a box in points and fonts; gives a :class:`FitResult` (the size chosen,
the wrapped lines, whether it fits). :func:`fit_text` shrinks from ``max_size`` down
to ``min_size``; when even ``min_size`` does not fit the result says so
(``fits=False``) and :func:`require_fit` turns that into a clear error for callers
that must not print unreadable text.

Words are kept whole as long as a smaller size allows: lines break at spaces and after
the hyphens a word already has ("Müller-" / "Lüdenscheidt"). Only when no size down to
``min_size`` fits that way is a word hyphenated, at the points the deck's language
allows (pyphen: "Fami-lienspiel"); only when that fails too is a word cut between two
letters, and the result counts it (``split_words``) so that the caller says so.

>>> parse_markup("Made by **Anna**.\\n\\nYear 2026")
[[[('Made by ', False), ('Anna', True), ('.', False)]], [[('Year 2026', False)]]]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, Required, TypedDict, Unpack

from deckgen.errors import SpecError

Run = tuple[str, bool]
"""A piece of text and whether it is bold."""
Line = list[Run]

MIN_READABLE_PT = 6.0
_BOLD = re.compile(r"\*\*(.+?)\*\*", re.DOTALL)


def parse_markup(text: str) -> list[list[Line]]:
    """Paragraphs -> lines (hard breaks) -> runs of (text, bold)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        return []
    paragraphs: list[list[Line]] = []
    for block in re.split(r"\n\s*\n", text):
        lines: list[Line] = []
        for raw in block.split("\n"):
            runs: Line = []
            pos = 0
            for match in _BOLD.finditer(raw):
                if match.start() > pos:
                    runs.append((raw[pos : match.start()], False))
                runs.append((match.group(1), True))
                pos = match.end()
            if pos < len(raw):
                runs.append((raw[pos:], False))
            runs = [(t, b) for t, b in runs if t]
            if runs:
                lines.append(runs)
        if lines:
            paragraphs.append(lines)
    return paragraphs


@dataclass(frozen=True)
class FitResult:
    """Wrapped text at ``size`` pt; ``lines`` with ``None`` marking a paragraph gap."""

    size: float
    leading: float
    lines: list[Line | None]
    fits: bool
    height: float
    hyphenated: int = 0
    """Words hyphenated at a dictionary point (the language's rules)."""
    split_words: tuple[str, ...] = ()
    """Words cut between two letters because nothing else fitted (say so)."""


@dataclass
class WrapStats:
    """How :func:`wrap` had to break words."""

    hyphenated: int = 0
    split: list[str] = field(default_factory=list)


@lru_cache(maxsize=8)
def hyphenator(language: str | None) -> Any:
    """A pyphen dictionary for ``language`` (``de``, ``en``, ``de_DE`` ...), or None."""
    if not language:
        return None
    import pyphen

    wanted = {"en": "en_US", "de": "de_DE"}.get(language, language)
    found = pyphen.language_fallback(wanted)
    return pyphen.Pyphen(lang=found) if found else None


def _width(runs: Line, size: float, regular: str, bold: str) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return float(sum(stringWidth(t, bold if b else regular, size) for t, b in runs))


def _words(line: Line) -> list[Run]:
    """Split runs at spaces and after a word's own hyphens, keeping trailing spaces.

    >>> [w for w, _ in _words([("Müller-Lüdenscheidt Familienspiel", False)])]
    ['Müller-', 'Lüdenscheidt ', 'Familienspiel']
    """
    out: list[Run] = []
    for text, bold in line:
        for piece in re.findall(r"[^\s\-]+-+(?=[^\s\-])|\S+?(?:\s+|$)|\s+", text):
            out.append((piece, bold))
    return out


def _break_long(
    word: Run,
    size: float,
    width: float,
    fonts: tuple[str, str],
    *,
    dictionary: Any = None,
    stats: WrapStats | None = None,
) -> list[Run]:
    """Split a single word that is wider than the box into pieces that fit: at the
    dictionary's hyphenation points (with a hyphen) when given, else between letters."""
    regular, bold = fonts
    text, b = word
    pieces: list[Run] = []
    rest = text
    if dictionary is not None:
        while _width([(rest.rstrip(), b)], size, regular, bold) > width:
            stem = rest.rstrip()
            for left, right in dictionary.iterate(stem):
                if _width([(left + "-", b)], size, regular, bold) <= width:
                    pieces.append((left + "-", b))
                    rest = right + rest[len(stem) :]
                    if stats is not None:
                        stats.hyphenated += 1
                    break
            else:
                break
        if _width([(rest.rstrip(), b)], size, regular, bold) <= width:
            return [*pieces, (rest, b)]
    if stats is not None:
        stats.split.append(text.strip())
    current = ""
    for ch in rest:
        if current and _width([(current + ch, b)], size, regular, bold) > width:
            pieces.append((current, b))
            current = ch
        else:
            current += ch
    if current:
        pieces.append((current, b))
    return pieces


def wrap(
    paragraphs: list[list[Line]],
    size: float,
    width: float,
    regular: str,
    bold: str,
    *,
    dictionary: Any = None,
    stats: WrapStats | None = None,
) -> list[Line | None]:
    """Wrap to ``width`` points; a ``None`` entry separates paragraphs. A word wider
    than the box is hyphenated with ``dictionary`` (pyphen) or cut (``stats`` counts)."""
    out: list[Line | None] = []
    for p_index, paragraph in enumerate(paragraphs):
        if p_index:
            out.append(None)
        for hard_line in paragraph:
            current: Line = []
            for word in _words(hard_line):
                trial = [*current, word]
                if _width([(t.rstrip(), b) for t, b in trial[-1:]], size, regular, bold) > width:
                    if current:
                        out.append(_trim(current))
                        current = []
                    pieces = _break_long(
                        word, size, width, (regular, bold), dictionary=dictionary, stats=stats
                    )
                    out.extend([p] for p in pieces[:-1])
                    current = [pieces[-1]]
                    continue
                if current and _width(_trim(trial), size, regular, bold) > width:
                    out.append(_trim(current))
                    current = [word] if word[0].strip() else []
                else:
                    current = trial
            if current:
                out.append(_trim(current))
    return out


def _trim(line: Line) -> Line:
    if not line:
        return line
    text, bold = line[-1]
    return [*line[:-1], (text.rstrip(), bold)]


def block_height(lines: list[Line | None], size: float, leading: float) -> float:
    """The height of wrapped lines: a line is ``leading``, a paragraph gap half of it."""
    if not lines:
        return 0.0
    full = sum(1 for line in lines if line is not None)
    gaps = sum(1 for line in lines if line is None)
    return (full - 1) * leading + size + gaps * leading * 0.5


class FrameOptions(TypedDict, total=False):
    """The box and fonts :func:`fit_text` fits into (see :class:`TextFrame`)."""

    width_pt: Required[float]
    height_pt: Required[float]
    regular: Required[str]
    bold: Required[str]
    max_size: Required[float]
    min_size: float
    line_spacing: float
    language: str | None


@dataclass(frozen=True)
class TextFrame:
    """Where a text is fitted: the box (pt), the fonts, the sizes allowed, the language."""

    width_pt: float
    height_pt: float
    regular: str
    bold: str
    max_size: float
    min_size: float = MIN_READABLE_PT
    line_spacing: float = 1.25
    language: str | None = None


def fit_text(text: str, **frame: Unpack[FrameOptions]) -> FitResult:
    """The largest size from ``max_size`` down to ``min_size`` at which ``text`` fits,
    keeping words whole if any size allows, else hyphenating them by ``language``'s
    rules, else cutting them (see the module docstring).

    A text is fitted once per frame: the same text in the same frame (the imprint
    card's text chosen for the short rules, then drawn) gives the remembered result.
    """
    return fit_in(text, TextFrame(**frame))


FIT_CACHE_SIZE = 256


@lru_cache(maxsize=FIT_CACHE_SIZE)
def fit_in(text: str, frame: TextFrame) -> FitResult:
    """:func:`fit_text` with its frame as a record (results are remembered)."""
    return measure_fit(text, frame)


def measure_fit(text: str, frame: TextFrame) -> FitResult:
    """Fit ``text`` into ``frame`` (the work behind :func:`fit_in`, never remembered)."""
    width_pt, height_pt = frame.width_pt, frame.height_pt
    regular, bold = frame.regular, frame.bold
    max_size, min_size = frame.max_size, frame.min_size
    line_spacing = frame.line_spacing
    paragraphs = parse_markup(text)
    dictionary = hyphenator(frame.language)

    def attempt(size: float, mode: Literal["whole", "hyphenate", "cut"]) -> FitResult:
        leading = size * line_spacing
        stats = WrapStats()
        lines = wrap(
            paragraphs,
            size,
            width_pt,
            regular,
            bold,
            dictionary=dictionary if mode != "whole" else None,
            stats=stats,
        )
        height = block_height(lines, size, leading)
        fits = height <= height_pt + 1e-6 and (mode == "cut" or not stats.split)
        return FitResult(size, leading, lines, fits, height, stats.hyphenated, tuple(stats.split))

    def largest(mode: Literal["whole", "hyphenate", "cut"]) -> FitResult:
        best = attempt(max_size, mode)
        if best.fits or max_size <= min_size:
            return best
        smallest = attempt(min_size, mode)
        if not smallest.fits:
            return smallest
        # Binary search on a quarter-point grid: the largest size that fits.
        lo, hi = 0, int((max_size - min_size) * 4)  # lo fits, hi does not
        best = smallest
        while hi - lo > 1:
            mid = (lo + hi) // 2
            trial = attempt(min_size + mid / 4, mode)
            if trial.fits:
                lo, best = mid, trial
            else:
                hi = mid
        return best

    modes: list[Literal["whole", "hyphenate", "cut"]] = ["whole", "hyphenate", "cut"]
    if dictionary is None:
        modes.remove("hyphenate")
    result = largest(modes[0])
    for mode in modes[1:]:
        if result.fits:
            break
        result = largest(mode)
    return result


def require_fit(result: FitResult, *, what: str, where: str, min_size: float) -> None:
    """Raise a clear error when ``result`` does not fit at the minimum readable size."""
    if not result.fits:
        raise SpecError(
            f"{what} does not fit at the minimum readable size {min_size:g} pt "
            f"(it needs {result.height:.0f} pt of height)",
            where=where,
            fix="shorten the text or use a larger card",
        )


def clip_to_height(result: FitResult, height_pt: float) -> list[Line | None]:
    """The lines that fit in ``height_pt``, the last one ending in an ellipsis."""
    kept: list[Line | None] = []
    for line in result.lines:
        trial = [*kept, line]
        if block_height(trial, result.size, result.leading) > height_pt:
            break
        kept.append(line)
    while kept and kept[-1] is None:
        kept.pop()
    if kept and kept[-1] is not None:
        last = kept[-1]
        text, bold = last[-1]
        kept[-1] = [*last[:-1], (text.rstrip(" .,;:") + " …", bold)]
    return kept
