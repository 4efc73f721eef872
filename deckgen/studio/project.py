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
from deckgen.deck.wording import WORDS, word
from deckgen.errors import DeckgenError, InputError
from deckgen.resources import default_output_dir, images_dir
from deckgen.specfile import load_toml
from deckgen.studio.i18n import Language, Message
from deckgen.studio.slots import Slot, all_slots
from deckgen.studio.tomltext import deck_toml

DECK_FILE_NAME = "deck.toml"
PICTURES_DIR = "pictures"
WORK_DIR = ".studio"
META_FILE = "meta.json"
NEW_DECK_NAME = word("en", "sample_name")
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
    """A change the deck code refused; ``messages`` maps each key to its message
    (:meth:`~deckgen.studio.i18n.Message.text` says it in the page's language)."""

    def __init__(self, messages: dict[str, Message]) -> None:
        self.messages = messages
        self.errors = {k: m.text("en") for k, m in messages.items()}
        super().__init__("; ".join(f"{k}: {v}" for k, v in self.errors.items()))


def demo_picture(value: int) -> str:
    """deckgen's own sample art for a value (cycled when the set needs more)."""
    count = len(sorted(images_dir().glob("value-*.png"))) or 1
    return f"{DEMO_PREFIX}value-{(value - 1) % count + 1:02d}.png"


def new_deck_data(name: str = NEW_DECK_NAME) -> dict[str, Any]:
    """A MeinSpiel double-7 photo deck that builds as it is (sample pictures), without
    breaking a rule of MeinSpiel's."""
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
        # a neutral grey pattern prints in black ink alone, as MeinSpiel asks of thin lines
        "back": {
            "background": "#1d3557",
            "pattern": "lattice",
            "pattern_colour": "#7f7f7f",
            "logo": "demo:logo.png",
        },
        "cover": {"subtitle": "", "picture": "demo:cover.jpg"},
        "imprint": {"text": ""},
    }
    return data


def _key_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out or "name"


_NUMBER_ERRORS = frozenset(
    {"float_parsing", "float_type", "int_parsing", "int_type", "int_from_float", "finite_number"}
)


def problem_message(key: str, kind: str, ctx: dict[str, Any]) -> Message:
    """The customer's message for a value the deck file's validation refused at ``key``.

    ``kind`` is pydantic's error type; a failing validator of ours (``value_error``) is
    told apart by the field it guards (a colour, the set, the card size).

    >>> problem_message("cover.background", "value_error", {}).text("de")
    'Farbe der Titelkarte: Das ist keine Farbe. Wähle eine mit der Farbauswahl.'
    >>> problem_message("name", "string_too_long", {"max_length": 80}).text("en")
    'Name of the deck: at most 80 characters, please.'
    """
    if kind == "string_too_long":
        return Message.of("too_long", key, max=ctx.get("max_length", "?"))
    if kind in ("string_too_short", "missing"):
        return Message.of("empty", key)
    if kind in ("literal_error", "enum"):
        return Message.of("choose_one", key)
    if kind in ("greater_than_equal", "greater_than"):
        return Message.of("too_small_value", key, min=ctx.get("ge", ctx.get("gt", "?")))
    if kind in ("less_than_equal", "less_than"):
        return Message.of("too_large_value", key, max=ctx.get("le", ctx.get("lt", "?")))
    if kind in _NUMBER_ERRORS:
        return Message.of("not_a_number", key)
    if kind == "value_error":
        last = key.rpartition(".")[2]
        if key == "set":
            return Message.of("not_a_set", key)
        if last == "size":
            return Message.of("not_a_size", key)
        if "colour" in last or last in ("background", "ink", "tile_edge"):
            return Message.of("not_a_colour", key)
    return Message.of("invalid", key)


def _problems(exc: ValidationError) -> dict[str, Message]:
    out: dict[str, Message] = {}
    for err in exc.errors():
        key = _key_path(tuple(err.get("loc", ())))
        ctx = dict(err.get("ctx") or {})
        out.setdefault(key, problem_message(key, str(err.get("type", "")), ctx))
    return out


def _error_key(exc: DeckgenError, fallback: str) -> str:
    match = _WHERE_KEY.search(exc.where or "")
    return match.group(1) if match else fallback


def _rules_names(ref: str) -> dict[str, str]:
    """The game called ``ref`` in both languages (``ref`` itself when unknown)."""
    from deckgen.rulespec import find_bundled

    try:
        found = find_bundled(ref)
    except DeckgenError:
        found = None
    if found is None:
        return {"en": ref, "de": ref}
    return {"en": found.name("en"), "de": found.name("de")}


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
        self.meta: dict[str, Any] = self._read_meta()
        """The studio's notes on the deck: ``names`` (each uploaded picture's original
        file name), ``follow_page_language`` (a new deck whose language nobody chose)."""

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
        project.set_meta(follow_page_language=True)
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
            raise ChangeRejected(self._refusal(exc, candidate, blame)) from None

    def _refusal(
        self, exc: DeckgenError, candidate: dict[str, Any], blame: str
    ) -> dict[str, Message]:
        """What the deck code refused, as a message about the field the customer sees."""
        key = _error_key(exc, blame)
        what = exc.what
        game = _rules_names(str((candidate.get("imprint") or {}).get("rules", "")))
        if " but the deck is " in what:
            # the set changed under the chosen short rules (or the rules under the set)
            return {blame: Message.of("rules_wrong_set", game=game)}
        if key == "imprint.rules" or "imprint card" in what or "short rules" in what:
            if "do not fit" in what:
                return {"imprint.rules": Message.of("rules_do_not_fit", game=game)}
            if "unknown rules" in what:
                return {"imprint.rules": Message.of("rules_unknown")}
        slot = next((s for s in all_slots(self.max_pip) if s.dotted == key), None)
        if slot is not None:
            ref = self.picture_ref(slot) if candidate is self.data else None
            file = ref_file(ref) or ""
            name = self.upload_name(file) or Path(file).name
            return {key: Message.of("picture_missing", key, file=name)}
        return {key: Message.of("deck_refused", key)}

    def _commit(self, candidate: dict[str, Any], blame: str) -> None:
        self._check(candidate, blame)
        self.data = candidate
        self.version += 1
        self.save()

    def set_value(self, dotted: str, value: Any) -> None:
        """Set one editable key (an empty optional value removes the key)."""
        if dotted not in EDITABLE_KEYS:
            raise ChangeRejected({dotted: Message.of("unknown_field")})
        with self.lock:
            candidate = copy.deepcopy(self.data)
            table, _, key = dotted.rpartition(".")
            node = candidate.setdefault(table, {}) if table else candidate
            if not isinstance(node, dict):
                raise ChangeRejected({dotted: Message.of("invalid", dotted)})
            if dotted in OPTIONAL_KEYS and value in ("", None):
                node.pop(key, None)
            else:
                node[key] = value
            if dotted in ("set", "faces.style"):
                self._fit_pictures(candidate)
            self._commit(candidate, dotted)
            if dotted == "language":
                self.set_meta(follow_page_language=False)  # the customer chose

    def follow_page_language(self, lang: Language) -> None:
        """A new deck speaks the page's language on its cards until the customer chooses.

        The sample name follows too; a deck file the studio opened keeps its own language.
        """
        with self.lock:
            if not self.meta.get("follow_page_language") or self.data.get("language") == lang:
                return
            candidate = copy.deepcopy(self.data)
            candidate["language"] = lang
            if candidate.get("name") in WORDS["sample_name"].values():
                candidate["name"] = word(lang, "sample_name")
            self._commit(candidate, "language")

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

    def drawing_problem(self, exc: DeckgenError) -> Message:
        """Why a card or the print files could not be made, in the customer's words: a
        picture the deck code refused is named by its slot and its file."""
        key = _error_key(exc, "")
        named = _QUOTED.search(exc.what)
        if key and named:
            file = Path(named.group(1)).name
            shown = next(
                (n for f, n in (self.meta.get("names") or {}).items() if Path(f).name == file),
                file,
            )
            return upload_message(exc, key, str(shown))
        return Message.of("something_wrong")

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

    def _read_meta(self) -> dict[str, Any]:
        try:
            raw = json.loads(self.work_path(META_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {"names": {}}
        if not isinstance(raw, dict):
            return {"names": {}}
        names = raw.get("names")
        raw["names"] = {str(k): str(v) for k, v in names.items()} if isinstance(names, dict) else {}
        return raw

    def set_meta(self, **changes: Any) -> None:
        with self.lock:
            self.meta.update(changes)
            atomic.write_text(self.work_path(META_FILE), json.dumps(self.meta, indent=1))

    def remember_name(self, file: str, shown_name: str) -> None:
        """Keep the name the customer's picture had on their computer (for messages)."""
        with self.lock:
            names = dict(self.meta.get("names") or {})
            names[file] = shown_name
            self.set_meta(names=names)

    def upload_name(self, file: str | None) -> str | None:
        """The original name of the upload behind ``file`` (through a crop), if known."""
        if not file:
            return None
        crop = self.crops.get(file)
        source = crop.original if crop else file
        names = self.meta.get("names") or {}
        found = names.get(source) or names.get(file)
        return str(found) if found else None

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


@dataclass(frozen=True)
class SampleItem:
    """Sample content still in the deck: the field or slot it is in, and what to say."""

    key: str
    """The deck file path of the field (``faces.pictures[2]``, ``cover.subtitle``)."""
    slot: str | None
    """The picture slot (``value-3``, ``logo``), or None for a text field."""
    message: Message
    blocking: bool = False
    """True when the print files cannot be made while it is there (the deck is made for
    a printer, and the print step refuses sample content for a printer)."""


PICTURE_STYLES = frozenset({"pictures", "pictures+pips"})


def sample_items(project: StudioProject) -> list[SampleItem]:
    """The sample content that would still reach the print files, in card order.

    The deck code decides what counts (:func:`deckgen.deck.starter.sample_items`, the
    list the print step refuses for a printer: sample pictures and the starter's sample
    texts); the studio adds the sample name a new deck starts with, which it only
    points out. Each is named as the page names its field or slot.
    """
    from deckgen.deck.starter import sample_items as deck_samples

    with project.lock:
        blocking = bool(project.get("preset"))
        slots = {s.dotted: s.name for s in all_slots(project.max_pip)}
        items: list[SampleItem] = []
        name = project.get("name")
        if isinstance(name, str) and name.strip() in WORDS["sample_name"].values():
            items.append(SampleItem("name", None, Message.of("sample_text", "name")))
        for item in deck_samples(project.loaded()):
            slot = slots.get(item.key)
            is_picture = slot is not None or item.key.endswith("picture")
            msg_id = "sample_picture" if is_picture else "sample_text"
            items.append(SampleItem(item.key, slot, Message.of(msg_id, item.key), blocking))
        return items


_FORMAT = re.compile(r"it is an? ([A-Za-z0-9]{2,8}) file")
_QUOTED = re.compile(r"'([^']{1,200})'")
_PASSES = re.compile(r"stored in (\d+) or more passes")


def upload_message(exc: DeckgenError, key: str, shown_name: str) -> Message:
    """Why the customer's upload ``shown_name`` was refused for the slot at ``key``.

    The deck code's picture checks (:func:`deckgen.deck.pictures.open_picture`) say it
    in English with our temporary file's name; this says it in the customer's words.
    """
    from deckgen.deck.pictures import MAX_PICTURE_PIXELS

    what = exc.what
    passes = _PASSES.search(what)
    if passes:
        return Message.of(
            "upload_too_many_passes", key, file=shown_name, scans=int(passes.group(1))
        )
    if "megapixels" in what:
        mp = MAX_PICTURE_PIXELS // 1_000_000
        return Message.of("upload_too_many_pixels", key, file=shown_name, megapixels=mp)
    if "damaged or cut short" in what:
        return Message.of("upload_damaged", key, file=shown_name)
    if "not a picture" in what:
        fmt = _FORMAT.search(what)
        detail: Message | str = Message.of("upload_format", format=fmt.group(1)) if fmt else ""
        return Message.of("upload_not_picture", key, file=shown_name, detail=detail)
    return Message.of("upload_unusable", key, file=shown_name)
