"""The columns of an orders spreadsheet: which deck-file key each one sets, and how.

A column is named after a deck-file key in dotted form (``cover.title``,
``back.logo``, ``faces.pictures``); the list is read from the deck file's own model
(:class:`deckgen.deck.spec.DeckFile`), so a key added there is a column here. Three
columns are the batch's own: ``order`` (the order's id and output folder name),
``deck`` (a full deck file the row's other columns override) and ``quantity`` (how
many copies were ordered; carried into the manifest). ``faces.pictures.1`` ...
``faces.pictures.18`` set one value's picture each, for sheets that keep one picture
per cell.

Cell text becomes a key's value here: lists are separated by ``;`` (``faces.colours``,
``faces.pictures``, ``back_offset_mm``); numbers and yes/no values are left to the
deck file's validation, which accepts them as text.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from deckgen.tiles import MAX_SUPPORTED_PIP

ORDER = "order"
DECK = "deck"
QUANTITY = "quantity"
BATCH_COLUMNS = (ORDER, DECK, QUANTITY)
LIST_SEPARATOR = ";"
PICTURE_COLUMN_PREFIX = "faces.pictures."

ValueKind = Literal["text", "list", "path", "path-list"]


@dataclass(frozen=True)
class Column:
    """A deck-file key a spreadsheet column may set."""

    key: str
    kind: ValueKind


def _unwrap(annotation: Any) -> list[Any]:
    """The alternatives of an annotation, without ``None``, ``Annotated`` and unions."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    if origin is typing.Union or origin is types.UnionType:
        found: list[Any] = []
        for arg in typing.get_args(annotation):
            if arg is not type(None):
                found.extend(_unwrap(arg))
        return found
    return [annotation]


def _is_picture(annotation: Any) -> bool:
    from deckgen.deck.spec import PictureRef

    return any(a is PictureRef for a in _unwrap(annotation))


def _is_model(annotation: Any) -> type[BaseModel] | None:
    for a in _unwrap(annotation):
        if isinstance(a, type) and issubclass(a, BaseModel):
            return a
    return None


def _kind(key: str, annotation: Any) -> ValueKind:
    options = _unwrap(annotation)
    listy = any(typing.get_origin(a) in (list, tuple) for a in options)
    if listy:
        inner = [arg for a in options for arg in typing.get_args(a)]
        return "path-list" if any(_is_picture(arg) for arg in inner) else "list"
    if _is_picture(annotation) or key.startswith("fonts."):
        return "path"
    return "text"


def _walk(model: type[BaseModel], prefix: str) -> list[Column]:
    out: list[Column] = []
    for name, info in model.model_fields.items():
        key = prefix + (info.alias or name)
        sub = _is_model(info.annotation)
        if sub is not None and not _is_picture(info.annotation):
            out.extend(_walk(sub, key + "."))
        else:
            out.append(Column(key, _kind(key, info.annotation)))
    return out


def deck_columns() -> dict[str, Column]:
    """Every deck-file key a column may set, by name, in the deck file's order."""
    from deckgen.deck.spec import DeckFile

    columns = {c.key: c for c in _walk(DeckFile, "")}
    for value in range(1, MAX_SUPPORTED_PIP + 1):
        key = f"{PICTURE_COLUMN_PREFIX}{value}"
        columns[key] = Column(key, "path")
    return columns


def picture_column_value(key: str) -> int | None:
    """The value a ``faces.pictures.N`` column is for, else None."""
    if key.startswith(PICTURE_COLUMN_PREFIX):
        tail = key[len(PICTURE_COLUMN_PREFIX) :]
        if tail.isdigit():
            return int(tail)
    return None


def split_list(text: str) -> list[str]:
    """``a; b ;c`` -> ``["a", "b", "c"]`` (empty items dropped)."""
    return [part.strip() for part in text.split(LIST_SEPARATOR) if part.strip()]


def set_key(data: dict[str, Any], key: str, value: Any) -> None:
    """Set a dotted key in nested deck data, creating the tables on the way."""
    parts = key.split(".")
    node = data
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = {}
            node[part] = child
        node = child
    node[parts[-1]] = value


def get_key(data: dict[str, Any], key: str) -> Any:
    """A dotted key's value in nested deck data, or None."""
    node: Any = data
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node
