"""The deck being edited: its project folder, its deck data, and every write the studio makes.

A project is one folder: the deck file (``deck.toml`` for a new deck), the pictures
uploaded for it (``pictures/``), the print files (``print/``) and the studio's own
working files (``.studio/``). :meth:`StudioProject.path` is the only way the studio
names a file, and it refuses anything outside the folder. Every accepted change is
validated by the deck code first (a rejected change leaves the deck as it was and
gives one message per key) and then saved at once, atomically, so the deck file
always builds from the command line as the studio shows it.

A deck file opened unchanged is saved back byte for byte; after a change it is
written by :func:`deckgen.studio.tomltext.deck_toml` (same data, comments dropped).
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from deckgen import atomic
from deckgen.deck.spec import DEMO_PREFIX, DeckFile, LoadedDeck, deck_from_data, slugify
from deckgen.errors import DeckgenError, InputError
from deckgen.resources import default_output_dir, images_dir
from deckgen.specfile import load_toml
from deckgen.studio.slots import Slot
from deckgen.studio.tomltext import deck_toml

DECK_FILE_NAME = "deck.toml"
PICTURES_DIR = "pictures"
WORK_DIR = ".studio"
NEW_DECK_NAME = "Our Domino"
DEFAULT_SET = "double-7"
DEFAULT_PRESET = "meinspiel"

EDITABLE_KEYS = frozenset(
    {
        "name",
        "set",
        "language",
        "card.size",
        "card.orientation",
        "card.background",
        "card.corner_index",
        "faces.style",
        "faces.pip_colours",
        "faces.fit",
        "faces.tile_colour",
        "back.background",
        "back.pattern",
        "back.pattern_colour",
        "back.logo_width",
        "cover.title",
        "cover.subtitle",
        "cover.background",
        "cover.text_colour",
        "imprint.text",
        "imprint.rules",
        "imprint.background",
        "imprint.text_colour",
    }
)
"""Keys the browser may set directly (profiles and pictures have their own calls)."""
OPTIONAL_KEYS = frozenset(
    {"cover.title", "cover.text_colour", "back.pattern_colour", "imprint.rules"}
)
"""Keys removed from the deck file when set to an empty value."""

_WHERE_KEY = re.compile(r"key ([A-Za-z_.\[\]0-9]+)")


class ChangeRejected(DeckgenError):
    """A change the deck code refused; ``errors`` maps each key to its message."""

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))


def demo_picture(value: int) -> str:
    """deckgen's own sample art for a value (cycled when the set needs more)."""
    count = len(sorted(images_dir().glob("value-*.png"))) or 1
    return f"{DEMO_PREFIX}value-{(value - 1) % count + 1:02d}.png"


def new_deck_data(name: str = NEW_DECK_NAME) -> dict[str, Any]:
    """A MeinSpiel double-7 photo deck that builds as it is (sample pictures)."""
    from deckgen.studio.cards import profile_card

    data: dict[str, Any] = {
        "name": name,
        "set": DEFAULT_SET,
        "language": "en",
        "preset": DEFAULT_PRESET,
        "card": profile_card(DEFAULT_PRESET),
        "faces": {
            "style": "pictures+pips",
            "fit": "cover",
            "pictures": [demo_picture(v) for v in range(1, 8)],
        },
        "back": {"background": "#1d3557", "pattern": "lattice", "logo": "demo:logo.png"},
        "cover": {"subtitle": "", "picture": "demo:cover.jpg"},
        "imprint": {"text": ""},
    }
    return data


def _key_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out or "name"


def _problems(exc: ValidationError) -> dict[str, str]:
    out: dict[str, str] = {}
    for err in exc.errors():
        key = _key_path(tuple(err.get("loc", ())))
        text = str(err.get("msg", "invalid value"))
        out.setdefault(key, text.removeprefix("Value error, "))
    return out


def _error_key(exc: DeckgenError, fallback: str) -> str:
    match = _WHERE_KEY.search(exc.where or "")
    return match.group(1) if match else fallback


def sentence(exc: DeckgenError) -> str:
    """An error as one or two sentences for the page: what, then how to fix it.

    The file and key stay out: the page shows the message next to the field.
    """
    text = exc.what.rstrip(". ") + "."
    if exc.fix:
        fix = exc.fix.strip()
        text += " " + fix[:1].upper() + fix[1:].rstrip(".") + "."
    return text


@dataclass(frozen=True)
class Crop:
    """How a cropped picture was made: its original upload, zoom and focus."""

    original: str
    zoom: float
    focus: tuple[float, float]


class StudioProject:
    """One deck in one folder, edited by one studio session (thread-safe)."""

    def __init__(self, folder: Path, deck_path: Path, data: dict[str, Any], text: str | None):
        self.folder = folder.resolve()
        self.deck_path = deck_path.resolve()
        self.data = data
        self.original_text = text
        self.original_data = copy.deepcopy(data) if text is not None else None
        self.version = 0
        self.lock = threading.RLock()
        self.stash: dict[int, Any] = {}
        """Pictures of values above the current set's highest value (kept for going back)."""
        self.crops: dict[str, Crop] = self._read_crops()

    # -- opening ---------------------------------------------------------------------
    @classmethod
    def open(cls, target: Path | None = None, *, output_root: Path | None = None) -> StudioProject:
        """Open a deck file, a folder (its ``deck.toml``, new if missing), or a new deck.

        Without ``target`` the project is a new folder under ``output/``.
        """
        if target is None:
            root = output_root or default_output_dir()
            folder = _fresh_folder(root, slugify(NEW_DECK_NAME))
            return cls._new(folder, folder / DECK_FILE_NAME)
        if target.is_dir() or (not target.exists() and target.suffix.lower() != ".toml"):
            deck_path = target / DECK_FILE_NAME
            if not deck_path.exists():
                return cls._new(target, deck_path)
        elif target.is_file():
            deck_path = target
        elif not target.exists():
            return cls._new(target.parent, target)
        else:
            raise InputError(
                f"{target} is neither a deck file nor a folder",
                where="argument DECK_FILE_OR_FOLDER",
                fix="name a deck file (.toml) or a folder for a new deck",
            )
        data = load_toml(deck_path, what="deck file")
        text = deck_path.read_text(encoding="utf-8")
        project = cls(deck_path.parent, deck_path, data, text)
        project.loaded()  # refuse a deck file that does not load, before serving it
        return project

    @classmethod
    def _new(cls, folder: Path, deck_path: Path) -> StudioProject:
        folder.mkdir(parents=True, exist_ok=True)
        project = cls(folder, deck_path, new_deck_data(), None)
        project.save()
        return project

    # -- paths ------------------------------------------------------------------------
    def path(self, relative: str) -> Path:
        """``relative`` inside the project folder; ValueError if it would leave it."""
        if "\x00" in relative or Path(relative).is_absolute():
            raise ValueError(relative)
        candidate = (self.folder / relative).resolve()
        if not candidate.is_relative_to(self.folder) or candidate == self.folder:
            raise ValueError(relative)
        return candidate

    def relative(self, path: Path) -> str:
        """The deck-file-relative name of a file inside the project (``/`` separators)."""
        return path.resolve().relative_to(self.deck_path.parent).as_posix()

    # -- reading ------------------------------------------------------------------------
    @property
    def max_pip(self) -> int:
        return int(str(self.data.get("set", "double-6")).split("-")[-1])

    def get(self, dotted: str) -> Any:
        node: Any = self.data
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                return None
            node = node[part]
        return node

    def picture_ref(self, slot: Slot) -> Any:
        if slot.value is not None:
            pictures = self.get("faces.pictures") or []
            return pictures[slot.value - 1] if slot.value <= len(pictures) else None
        return self.get(f"{slot.table}.{slot.key}")

    def loaded(self, data: dict[str, Any] | None = None) -> LoadedDeck:
        """The deck as the deck code loads it (pictures resolved inside the folder)."""
        return deck_from_data(
            copy.deepcopy(data if data is not None else self.data), path=self.deck_path
        )

    def toml_text(self) -> str:
        """The deck file's text: the original bytes while nothing changed."""
        if self.original_text is not None and self.data == self.original_data:
            return self.original_text
        return deck_toml(self.data)

    # -- changing -----------------------------------------------------------------------
    def _check(self, candidate: dict[str, Any], blame: str) -> None:
        try:
            DeckFile.model_validate(candidate)
        except ValidationError as exc:
            raise ChangeRejected(_problems(exc)) from None
        try:
            deck = self.loaded(candidate)
            if str((candidate.get("imprint") or {}).get("rules", "")).strip():
                from deckgen.product import with_short_rules

                with_short_rules(deck)
        except DeckgenError as exc:
            raise ChangeRejected({_error_key(exc, blame): sentence(exc)}) from None

    def _commit(self, candidate: dict[str, Any], blame: str) -> None:
        self._check(candidate, blame)
        self.data = candidate
        self.version += 1
        self.save()

    def set_value(self, dotted: str, value: Any) -> None:
        """Set one editable key (an empty optional value removes the key)."""
        if dotted not in EDITABLE_KEYS:
            raise ChangeRejected({dotted: "this key cannot be changed here"})
        with self.lock:
            candidate = copy.deepcopy(self.data)
            table, _, key = dotted.rpartition(".")
            node = candidate.setdefault(table, {}) if table else candidate
            if not isinstance(node, dict):
                raise ChangeRejected({dotted: "not a table"})
            if dotted in OPTIONAL_KEYS and value in ("", None):
                node.pop(key, None)
            else:
                node[key] = value
            if dotted in ("set", "faces.style"):
                self._fit_pictures(candidate)
            self._commit(candidate, dotted)

    def set_many(self, changes: dict[str, Any], *, remove: tuple[str, ...] = ()) -> None:
        """Set several keys at once (a vendor profile); no whitelist: callers are ours."""
        with self.lock:
            candidate = copy.deepcopy(self.data)
            for dotted, value in changes.items():
                table, _, key = dotted.rpartition(".")
                node = candidate.setdefault(table, {}) if table else candidate
                node[key] = value
            for dotted in remove:
                table, _, key = dotted.rpartition(".")
                node = candidate.get(table, {}) if table else candidate
                node.pop(key, None)
            self._commit(candidate, next(iter(changes), "card.size"))

    def _fit_pictures(self, candidate: dict[str, Any]) -> None:
        """Keep one picture per value when the set changes (sample art for new values)."""
        try:
            top = int(str(candidate.get("set", "")).split("-")[-1])
        except ValueError:
            return
        if not 1 <= top <= 18:
            return
        faces = candidate.get("faces") or {}
        pictures = list(faces.get("pictures") or [])
        if not pictures and faces.get("style", "pips") not in ("pictures", "pictures+pips"):
            return  # a deck without pictures keeps none
        candidate["faces"] = faces
        for value in range(top + 1, len(pictures) + 1):
            self.stash[value] = pictures[value - 1]
        pictures = pictures[:top]
        for value in range(len(pictures) + 1, top + 1):
            pictures.append(self.stash.get(value, demo_picture(value)))
        faces["pictures"] = pictures

    def set_picture(self, slot: Slot, ref: Any) -> None:
        """Put a picture reference (or None: no picture / sample art) into ``slot``."""
        with self.lock:
            candidate = copy.deepcopy(self.data)
            if slot.value is not None:
                faces = candidate.setdefault("faces", {})
                pictures = list(faces.get("pictures") or [])
                while len(pictures) < slot.value:
                    pictures.append(demo_picture(len(pictures) + 1))
                pictures[slot.value - 1] = ref if ref is not None else demo_picture(slot.value)
                faces["pictures"] = pictures
            else:
                table = candidate.setdefault(slot.table, {})
                if ref is None:
                    table.pop(slot.key, None)
                else:
                    table[slot.key] = ref
            self._commit(candidate, slot.dotted)

    # -- saving ---------------------------------------------------------------------------
    def save(self) -> None:
        """Write the deck file atomically (only inside the project folder)."""
        with self.lock:
            target = self.path(self.relative(self.deck_path))
            atomic.write_text(target, self.toml_text())

    def work_path(self, name: str) -> Path:
        return self.path(f"{WORK_DIR}/{name}")

    def _read_crops(self) -> dict[str, Crop]:
        try:
            raw = json.loads(self.work_path("crops.json").read_text(encoding="utf-8"))
            return {
                k: Crop(
                    str(v["original"]),
                    float(v["zoom"]),
                    (float(v["focus"][0]), float(v["focus"][1])),
                )
                for k, v in raw.items()
            }
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            return {}

    def remember_crop(self, file: str, crop: Crop) -> None:
        with self.lock:
            self.crops[file] = crop
            payload = {
                k: {"original": c.original, "zoom": c.zoom, "focus": list(c.focus)}
                for k, c in self.crops.items()
            }
            atomic.write_text(self.work_path("crops.json"), json.dumps(payload, indent=1))


def _fresh_folder(root: Path, stem: str) -> Path:
    for n in range(1, 1000):
        folder = root / (stem if n == 1 else f"{stem}-{n}")
        if not folder.exists():
            return folder
    raise InputError(f"too many decks named {stem} in {root}", fix="tidy up the output folder")


def file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:10]


def ref_file(ref: Any) -> str | None:
    """The file named by a picture reference (string or ``{file, focus}``)."""
    if isinstance(ref, str):
        return ref
    if isinstance(ref, dict) and isinstance(ref.get("file"), str):
        return str(ref["file"])
    return None


def ref_focus(ref: Any) -> tuple[float, float]:
    if (
        isinstance(ref, dict)
        and isinstance(ref.get("focus"), list | tuple)
        and len(ref["focus"]) == 2
    ):
        return (float(ref["focus"][0]), float(ref["focus"][1]))
    return (0.5, 0.5)


def is_demo(ref: Any) -> bool:
    file = ref_file(ref)
    return file is not None and file.startswith(DEMO_PREFIX)
