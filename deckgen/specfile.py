"""Loading user files (deck files, rules files, presets, game records, check reports).

Takes a path and a pydantic model class; gives a validated model or a
:class:`~deckgen.errors.SpecError` that names the file, the key path (``cover.title``),
what was wrong and what is allowed, with a did-you-mean for misspelt keys.

The file is untrusted, so this is the edge where its limits hold (docs/limits.md):
its size is limited, its text must be UTF-8 TOML (or JSON), and before any model sees
the data :func:`check_tree` bounds it: nesting depth, number of values, integers
(no thousands of digits), finite numbers, string length, no control characters.
A nesting too deep for the parser itself is found by :func:`locate_nesting`, which
names the line and key. Everything behind this module can trust the shape of its data.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from deckgen.errors import SpecError, did_you_mean, excerpt
from deckgen.paths import read_limited

MAX_TOML_BYTES = 2_000_000


@dataclass(frozen=True)
class TreeLimits:
    """Bounds on parsed TOML/JSON data (docs/limits.md)."""

    max_depth: int = 32
    """Nested tables/arrays (a deck file needs 4)."""
    max_values: int = 2_000_000
    """Values in the whole file."""
    max_int: int = 2**53
    """Largest integer magnitude (exact in every JSON reader)."""
    max_string_chars: int = 100_000
    """Longest string."""


DEFAULT_LIMITS = TreeLimits()
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_MAX_DIGITS = 4000  # below Python's int-string limit, so parsing never fails on it


class _Bounded(Exception):
    """A number the parser must not build (raised from inside ``json.loads``)."""


def _key(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            name = part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else json.dumps(part)
            out += ("." if out else "") + excerpt(name, 40)
    return out or "(top level)"


def _walk(data: Any) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Every value with its key path, depth first, without recursion."""
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        yield path, value
        if isinstance(value, dict):
            stack.extend(((*path, str(k)), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend(((*path, i), v) for i, v in reversed(list(enumerate(value))))


def check_tree(data: Any, *, where: str, what: str, limits: TreeLimits = DEFAULT_LIMITS) -> None:
    """Refuse data that no deckgen file needs: too deep, too many values, huge numbers,
    non-finite numbers, huge strings, control characters (SpecError with the key path)."""

    def refuse(path: tuple[str | int, ...], problem: str, fix: str) -> SpecError:
        return SpecError(f"the {what} {problem} at key {_key(path)}", where=where, fix=fix)

    count = 0
    for path, value in _walk(data):
        count += 1
        if count > limits.max_values:
            raise refuse(path, f"has more than {limits.max_values:,} values", "use a smaller file")
        if len(path) > limits.max_depth:
            raise refuse(
                path[: limits.max_depth + 1],
                f"is nested deeper than {limits.max_depth} levels",
                "no deckgen file nests its tables or lists that deep; remove the nesting",
            )
        if isinstance(value, bool):
            continue
        if isinstance(value, int) and abs(value) > limits.max_int:
            raise refuse(
                path,
                f"has an integer of {_digits(value)} digits",
                f"use a number between -{limits.max_int:,} and {limits.max_int:,}",
            )
        if isinstance(value, float) and not math.isfinite(value):
            raise refuse(path, f"has the number {value}", "use a finite number")
        if isinstance(value, str):
            if len(value) > limits.max_string_chars:
                raise refuse(
                    path,
                    f"has a text of {len(value):,} characters, more than the "
                    f"{limits.max_string_chars:,} allowed",
                    "shorten it",
                )
            bad = _CONTROL.search(value)
            if bad:
                raise refuse(
                    path,
                    f"has the control character U+{ord(bad.group()):04X} in a text",
                    "remove it (only tabs and line breaks are allowed in texts)",
                )
        if isinstance(value, dict):
            for k in value:
                bad = _CONTROL.search(str(k))
                if bad or len(str(k)) > 200:
                    raise refuse(
                        path,
                        "has a key that is too long or holds a control character",
                        "rename the key",
                    )


_JSON_TOKENS = r'"(?:[^"\\\n]|\\.)*"|[\[\]{},:\n]'
_TOML_TOKENS = (
    r"^[ \t]*\[\[?[^\]\n]*\]\]?|^[ \t]*[A-Za-z0-9_.\"' -]+?[ \t]*="
    r'|"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\''
    r"|#[^\n]*|[\[\]{}\n]"
)


def _digits(value: int) -> str:
    if abs(value) >= 10**_MAX_DIGITS:
        return "thousands of"
    return f"{len(str(abs(value))):,}"


def locate_nesting(text: str, kind: Literal["toml", "json"], limit: int) -> tuple[int, str]:
    """The line (1-based) where brackets first nest deeper than ``limit``, and its key.

    Only called after a parser gave up on the nesting; skips strings and comments.
    """
    depth = 0
    line = 1
    key = ""
    table = ""
    tokens = _JSON_TOKENS if kind == "json" else _TOML_TOKENS
    last_string = ""
    for match in re.finditer(tokens, text, flags=re.MULTILINE):
        token = match.group()
        if token == "\n":
            line += 1
            continue
        line += token.count("\n")
        if token in ("[", "{"):
            depth += 1
            if depth > limit:
                return line, key
        elif token in ("]", "}"):
            depth = max(0, depth - 1)
        elif kind == "json" and token.startswith('"'):
            last_string = token
        elif kind == "json" and token == ":":
            key = last_string.strip('"')
        elif kind == "toml" and depth == 0 and token.lstrip().startswith("["):
            table = token.strip().strip("[]").strip()
        elif kind == "toml" and depth == 0 and token.rstrip().endswith("="):
            key = (table + "." if table else "") + token.rstrip("= \t").strip()
    return line, key


def _too_deep(text: str, kind: Literal["toml", "json"], what: str, where: str) -> SpecError:
    line, key = locate_nesting(text, kind, DEFAULT_LIMITS.max_depth)
    return SpecError(
        f"the {what} nests lists or tables deeper than {DEFAULT_LIMITS.max_depth} levels"
        + (f" at key {excerpt(key, 40)}" if key else ""),
        where=f"{where}, line {line}",
        fix="no deckgen file nests that deep; remove the nesting",
    )


def _utf8(raw: bytes, what: str, where: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(
            f"the {what} is not UTF-8 text (bad byte at offset {exc.start})",
            where=where,
            fix="save it as UTF-8",
        ) from None


def parse_toml(text: str, *, what: str, where: str) -> dict[str, Any]:
    """Parse TOML text; every way it can be broken (or too deep) is a SpecError."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(
            f"the {what} is not valid TOML: {excerpt(exc, 160)}",
            where=where,
            fix="fix the TOML syntax at that line (strings need quotes, tables [like.this])",
        ) from None
    except RecursionError:
        raise _too_deep(text, "toml", what, where) from None
    except ValueError:  # an integer with more digits than Python converts
        line = text.count("\n", 0, _long_number_at(text)) + 1
        raise SpecError(
            f"the {what} has a number with thousands of digits",
            where=f"{where}, line {line}",
            fix=f"use numbers between -{DEFAULT_LIMITS.max_int:,} and {DEFAULT_LIMITS.max_int:,}",
        ) from None


def _long_number_at(text: str) -> int:
    found = re.search(r"[0-9_]{" + str(_MAX_DIGITS) + ",}", text)
    return found.start() if found else 0


def _bounded_int(digits: str) -> int:
    if len(digits) > _MAX_DIGITS:
        raise _Bounded(digits)
    return int(digits)


def parse_json(raw: bytes, *, what: str, where: str, fix: str) -> Any:
    """Parse JSON bytes (UTF-8); broken, too deep or huge-number JSON is a SpecError."""
    text = _utf8(raw, what, where)
    try:
        return json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise SpecError(
            f"the {what} is not JSON: {excerpt(exc.msg, 80)}",
            where=f"{where}, line {exc.lineno}",
            fix=fix,
        ) from None
    except RecursionError:
        raise _too_deep(text, "json", what, where) from None
    except (_Bounded, ValueError):
        line = text.count("\n", 0, _long_number_at(text)) + 1
        raise SpecError(
            f"the {what} has a number with thousands of digits or that is not finite",
            where=f"{where}, line {line}",
            fix=fix,
        ) from None


def _no_constant(name: str) -> float:
    raise ValueError(name)


def load_json(
    path: str | Path, *, what: str, max_bytes: int, fix: str, where: str | None = None
) -> Any:
    """Read (size-limited) and parse a JSON file written by deckgen or edited by hand."""
    path = Path(path)
    where = where or str(path)
    raw = read_limited(path, max_bytes=max_bytes, what=what, where=where)
    return parse_json(raw, what=what, where=where, fix=fix)


M = TypeVar("M", bound=BaseModel)


def load_toml(path: str | Path, *, what: str = "file") -> dict[str, Any]:
    """Parse a TOML file, turning every way it can be broken into a SpecError."""
    path = Path(path)
    raw = read_limited(path, max_bytes=MAX_TOML_BYTES, what=what, where=str(path))
    data = parse_toml(_utf8(raw, what, str(path)), what=what, where=str(path))
    check_tree(data, where=str(path), what=what)
    return data


def _key_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


def _known_fields(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """The field names allowed at ``loc`` (the parent of an unknown key), best effort."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        fields = getattr(current, "model_fields", None)
        if not fields or part not in fields:
            return []
        annotation = fields[part].annotation
        current = _first_model(annotation)
        if current is None:
            return []
    fields = getattr(current, "model_fields", None)
    if not fields:
        return []
    names: list[str] = []
    for name, info in fields.items():
        names.append(info.alias or name)
    return names


def _first_model(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _first_model(arg)
        if found is not None:
            return found
    return None


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _missing(loc: tuple[int | str, ...], what: str) -> str:
    """A required key left out, as a customer reads it: "the deck needs a name"."""
    last = str(loc[-1]) if loc else "value"
    parent = _key_path(loc[:-1]) if len(loc) > 1 else ""
    owner = f"[{parent}]" if parent else f"the {what.removesuffix(' file') or 'file'}"
    return f"{owner} needs {_article(last)} {last}"


def _plain(err: Any, text: str) -> str:
    """Pydantic's "Input should be ..." in a customer's words: "choose one of ..."."""
    if err["type"] in ("literal_error", "enum") and "expected" in err.get("ctx", {}):
        return f"choose one of {err['ctx']['expected']}"
    rest = text.removeprefix("Input should be ")
    if rest == text:
        return text
    rest = rest.split(", unable to ")[0]  # pydantic's own reason adds nothing for a customer
    if rest.startswith(("less ", "greater ")):
        return f"use a value {rest}"
    return f"use {rest}"


def describe_validation_error(
    exc: ValidationError, model: type[BaseModel], what: str = "file"
) -> list[str]:
    """One readable line per problem: ``key.path: what (hint)``; ``what`` names the
    file for a key left out ("the deck needs a name")."""
    lines = []
    for err in exc.errors():
        loc = tuple(err.get("loc", ()))
        key = _key_path(loc)
        if err["type"] == "extra_forbidden":
            name = str(loc[-1]) if loc else key
            hint = did_you_mean(name, _known_fields(model, loc[:-1]))
            allowed = ", ".join(sorted(_known_fields(model, loc[:-1])))
            msg = f"{key}: unknown key"
            if hint:
                msg += f" ({hint})"
            elif allowed:
                msg += f" (allowed here: {allowed})"
            lines.append(msg)
        else:
            text = err.get("msg", "invalid value")
            if text.startswith("Value error, "):
                text = text[len("Value error, ") :]
            got = err.get("input")
            text = _missing(loc, what) if err["type"] == "missing" else _plain(err, text)
            if (
                err["type"] != "missing"
                and not isinstance(got, dict | list)
                and f"'{got}'" not in text  # the message quotes it already
            ):
                text += f", got {excerpt(repr(got))}"
            lines.append(f"{key}: {excerpt(text, 200)}")
    return lines


def validate(
    model: type[M],
    data: dict[str, Any],
    *,
    path: str | Path,
    what: str,
    fix: str = "correct those keys",
) -> M:
    """Validate ``data`` against ``model``, raising one SpecError listing every problem.

    ``fix`` says how to put it right (for example where the keys are documented).
    """
    check_tree(data, where=str(path), what=what)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = describe_validation_error(exc, model, what)
        count = len(problems)
        shown = problems[:4] + ([f"and {count - 4} more"] if count > 4 else [])
        raise SpecError(
            f"the {what} has {count} problem{'s' if count != 1 else ''}: " + "; ".join(shown),
            where=str(path),
            fix=fix,
        ) from None


def load_model(
    model: type[M], path: str | Path, *, what: str, fix: str = "correct those keys"
) -> M:
    """Load and validate a TOML file in one step."""
    return validate(model, load_toml(path, what=what), path=path, what=what, fix=fix)
