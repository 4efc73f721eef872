"""How ``--help`` shows a value and a command's text.

Typer labels every parameter with its Python type (``<bool>`` after each flag,
``<list[str]>`` after a repeatable one), which reads like a type error to a user. This
module changes those labels for deckgen's commands: a flag takes no value, so it shows
none; a list shows what one value is, followed by ``...`` (``<de|en>...``).

Typer also keeps the line breaks of a docstring's later paragraphs, so a paragraph
wrapped at 88 columns in the source came out as ragged half-lines in an 80-column
terminal; a command's text is now reflowed (each paragraph one line, which the terminal
wraps) when its help is shown. Installed once by :mod:`deckgen.cli`; everything else
typer shows is left as it is.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

_LIST = re.compile(r"^<list\[(.*)\]>$")

Label = Callable[[Any, Any], "str | None"]


def tidy(label: str | None) -> str | None:
    """``<list[str]>`` -> ``<str>...``; anything else as it is.

    >>> tidy("<list[de|en]>"), tidy("<path>"), tidy(None)
    ('<de|en>...', '<path>', None)
    """
    if label is None:
        return None
    match = _LIST.match(label)
    return f"<{match.group(1)}>..." if match else label


def _option_label(original: Label) -> Label:
    def label(self: Any, ctx: Any) -> str | None:
        if getattr(self, "is_flag", False) and self.metavar is None:
            return None
        return tidy(original(self, ctx))

    return label


def _argument_label(original: Label) -> Label:
    def label(self: Any, ctx: Any) -> str | None:
        return tidy(original(self, ctx))

    return label


def reflow(text: str | None) -> str | None:
    r"""Each paragraph of a docstring on one line (a blank line still parts paragraphs).

    >>> reflow("Build the deck.\n\n    Its pictures are\n    checked first.\n")
    'Build the deck.\n\nIts pictures are checked first.'
    """
    if text is None:
        return None
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


def _reflowed(original: Callable[..., None]) -> Callable[..., None]:
    def format_help(self: Any, ctx: Any, formatter: Any) -> None:
        self.help = reflow(self.help)
        original(self, ctx, formatter)

    return format_help


def _patch(cls: type, name: str, wrap: Callable[[Any], Any]) -> None:
    current = getattr(cls, name)
    if not getattr(current, "_deckgen", False):
        patched = wrap(current)
        patched._deckgen = True
        setattr(cls, name, patched)


def install() -> None:
    """Relabel flags and lists, and reflow each command's text, in every typer
    command's help (idempotent)."""
    _patch(TyperOption, "display_type_rich", _option_label)
    _patch(TyperArgument, "display_type_rich", _argument_label)
    _patch(TyperCommand, "format_help", _reflowed)
    _patch(TyperGroup, "format_help", _reflowed)
