"""Loading user TOML files (deck files, rules files, presets) into validated models.

Takes a path and a pydantic model class; gives a validated model or a
:class:`~deckgen.errors.SpecError` that names the file, the key path (``cover.title``),
what was wrong and what is allowed, with a did-you-mean for misspelt keys. The file is
untrusted: its size is limited and its text must be UTF-8 TOML.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from deckgen.errors import SpecError, did_you_mean
from deckgen.paths import read_limited

MAX_TOML_BYTES = 2_000_000

M = TypeVar("M", bound=BaseModel)


def load_toml(path: str | Path, *, what: str = "file") -> dict[str, Any]:
    """Parse a TOML file, turning every way it can be broken into a SpecError."""
    path = Path(path)
    raw = read_limited(path, max_bytes=MAX_TOML_BYTES, what=what, where=str(path))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(
            f"the {what} is not UTF-8 text (bad byte at offset {exc.start})",
            where=str(path),
            fix="save it as UTF-8",
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(
            f"the {what} is not valid TOML: {exc}",
            where=str(path),
            fix="fix the TOML syntax at that line (strings need quotes, tables [like.this])",
        ) from None


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


def describe_validation_error(exc: ValidationError, model: type[BaseModel]) -> list[str]:
    """One readable line per problem: ``key.path: what (hint)``."""
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
            if err["type"] != "missing" and not isinstance(got, dict | list):
                text += f", got {got!r}"
            lines.append(f"{key}: {text}")
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
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = describe_validation_error(exc, model)
        count = len(problems)
        raise SpecError(
            f"the {what} has {count} problem{'s' if count != 1 else ''}: " + "; ".join(problems),
            where=str(path),
            fix=fix,
        ) from None


def load_model(
    model: type[M], path: str | Path, *, what: str, fix: str = "correct those keys"
) -> M:
    """Load and validate a TOML file in one step."""
    return validate(model, load_toml(path, what=what), path=path, what=what, fix=fix)
