"""How ``--help`` shows a value: flags show none, lists show their element and ``...``.

Typer labels every parameter with its Python type (``<bool>`` after each flag,
``<list[str]>`` after a repeatable one), which reads like a type error to a user. This
module changes those labels for deckgen's commands: a flag takes no value, so it shows
none; a list shows what one value is, followed by ``...`` (``<de|en>...``). Installed
once by :mod:`deckgen.cli`; everything else typer shows is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from typer.core import TyperArgument, TyperOption

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


def install() -> None:
    """Relabel flags and lists in every typer command's help (idempotent)."""
    for cls, wrap in ((TyperOption, _option_label), (TyperArgument, _argument_label)):
        current = cls.display_type_rich
        if not getattr(current, "_deckgen", False):
            labelled = wrap(current)
            setattr(labelled, "_deckgen", True)  # noqa: B010 (a mark on a function)
            setattr(cls, "display_type_rich", labelled)  # noqa: B010 (typer's class)
