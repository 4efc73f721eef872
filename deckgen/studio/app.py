"""The studio's routes: the page, the deck's state, changes, pictures, previews, downloads.

:func:`create_app` takes a :class:`~deckgen.studio.project.StudioProject` and the
guard's settings; gives an ASGI app (Starlette behind
:class:`~deckgen.studio.security.StudioGuard`). Every route names things by key, slot
or card id, never by path. A change answers with the whole new state (or 400 and one
message per key, shown next to the field that caused it).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import logging
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from deckgen.deck.spec import DEMO_PREFIX
from deckgen.errors import DeckgenError
from deckgen.resources import images_dir
from deckgen.studio.i18n import Language, Message, pick_language, said, say, translations
from deckgen.studio.previews import BACK, PreviewCache, card_ids
from deckgen.studio.project import (
    EDITABLE_KEYS,
    ChangeRejected,
    Crop,
    StudioProject,
    is_demo,
    ref_file,
    ref_focus,
    sample_items,
    upload_message,
)
from deckgen.studio.security import GuardSettings, StudioGuard
from deckgen.studio.slots import (
    Slot,
    UnknownSlot,
    all_slots,
    badge_corner,
    badge_drawing,
    parse_slot,
    picture_quality,
    shown_focus,
    slot_frame,
)

PACKAGE = Path(__file__).resolve().parent
STATIC_FILES = {"studio.js": "text/javascript", "studio.css": "text/css"}
MAX_JSON_BYTES = 100_000
THUMB_PX = 1200
ZOOM_RANGE = (1.0, 4.0)
NO_STORE = {"cache-control": "no-store"}
_log = logging.getLogger("uvicorn.error")


@functools.cache
def _env(lang: Language) -> Any:
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    env = Environment(
        loader=FileSystemLoader(PACKAGE / "templates"),
        autoescape=select_autoescape(["j2", "html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals["say"] = functools.partial(say, lang)
    return env


class BadRequest(Exception):
    def __init__(self, errors: dict[str, Message | str], status: int = 400) -> None:
        self.errors = errors
        self.status = status


def _picture_path(project: StudioProject, file: str) -> Path:
    """The file a picture reference names: deckgen's demo art or a file in the project."""
    if file.startswith(DEMO_PREFIX):
        from deckgen.paths import resolve_inside

        return resolve_inside(images_dir(), file[len(DEMO_PREFIX) :], where="demo art")
    return project.path(file)


def _picture_size(path: Path, where: str = "picture") -> tuple[int, int]:
    """The picture's size as shown, from its header (no pixels decoded; JPEG scans
    counted), remembered while the file stays the same."""
    try:
        stat = path.stat()
        stamp = (stat.st_size, stat.st_mtime_ns, stat.st_ino)
    except OSError:
        stamp = (-1, -1, -1)  # the loader says what is wrong
    found = _header_size(path, where, stamp)
    if isinstance(found, DeckgenError):
        raise found.with_traceback(None)
    return found


@functools.lru_cache(maxsize=512)
def _header_size(
    path: Path, where: str, stamp: tuple[int, int, int]
) -> tuple[int, int] | DeckgenError:
    from deckgen.deck.picturefile import picture_header

    try:
        return picture_header(path, where=where, count_scans=True).upright_size
    except DeckgenError as exc:
        return exc


PROBLEM_TOO_LARGE = (
    "The picture “{file}” has too many pixels or is stored in too many passes. Save it "
    "smaller (a card needs only a few megapixels) or choose another one."
)
PROBLEM_UNREADABLE = (
    "The picture “{file}” cannot be read: it is missing, damaged or not a JPEG, PNG, WebP "
    "or TIFF file. Choose another one."
)


def _picture_problem(exc: Exception, file: str, lang: Language) -> str:
    """What is wrong with a slot's picture, in the page's language, naming the file."""
    from deckgen.deck.picturefile import PictureTooLarge

    too_large = isinstance(exc, PictureTooLarge) or (
        isinstance(exc, DeckgenError) and "more than the" in exc.message()
    )
    text = translations(lang).gettext(PROBLEM_TOO_LARGE if too_large else PROBLEM_UNREADABLE)
    return text.replace("{file}", file)


class Studio:
    """The app's state: the project, the preview cache and the translations."""

    def __init__(self, project: StudioProject) -> None:
        self.project = project
        self.previews = PreviewCache()

    # -- state -------------------------------------------------------------------------
    def slot_state(self, slot: Slot, deck: Any, lang: Language = "en") -> dict[str, Any]:
        project = self.project
        ref = project.picture_ref(slot)
        file = ref_file(ref)
        frame = slot_frame(slot, deck)
        out: dict[str, Any] = {
            "name": slot.name,
            "key": slot.dotted,
            "frame": frame,
            "file": None,
            "demo": False,
            "badge": (
                badge_drawing(
                    slot.value, deck.value_colours[slot.value], deck.spec.faces.tile_colour
                )
                if slot.value is not None and deck.spec.faces.style == "pictures+pips"
                else None
            ),
        }
        if file is None:
            return out
        crop = project.crops.get(file)
        shown_file = crop.original if crop else file
        try:
            size = _picture_size(_picture_path(project, shown_file), slot.dotted)
        except (OSError, ValueError, DeckgenError) as exc:
            out["problem"] = _picture_problem(exc, Path(file).name, lang)
            return out
        zoom = crop.zoom if crop else 1.0
        focus = crop.focus if crop else ref_focus(ref)
        box = (frame["box"][2], frame["box"][3])
        digest = hashlib.sha256(f"{file}|{shown_file}".encode()).hexdigest()[:10]
        out.update(
            {
                "file": project.upload_name(file) or Path(file).name,
                "demo": is_demo(ref),
                "url": f"/api/picture/{slot.name}?v={digest}",
                "original_url": f"/api/picture/{slot.name}?v={digest}&original=1",
                "size_px": list(size),
                "focus": list(focus),
                "zoom": zoom,
                "quality": picture_quality(size, box, frame["fit"], zoom),
            }
        )
        return out

    def state(self, lang: Language) -> dict[str, Any]:
        from deckgen.studio.i18n import note_text

        project = self.project
        with project.lock:
            deck = project.loaded()
            fields = {key: project.get(key) for key in sorted(EDITABLE_KEYS)}
            fields["profile"] = project.get("preset") or ""
            keys = self.previews.keys(project)
            t = translations(lang)
            labels = {
                "cover": t.gettext("Cover"),
                "imprint": t.gettext("Imprint"),
                BACK: t.gettext("Back"),
            }
            return {
                "version": project.version,
                "deck_file": project.deck_path.name,
                "folder": str(project.folder),
                "fields": fields,
                "card": {
                    "width_mm": deck.width_mm,
                    "height_mm": deck.height_mm,
                    "radius_mm": deck.corner_radius_mm,
                },
                "max_pip": deck.dset.max_pip,
                "slots": {
                    s.name: self.slot_state(s, deck, lang) for s in all_slots(deck.dset.max_pip)
                },
                "cards": [
                    {"id": c, "key": keys[c], "label": labels.get(c, c)}
                    for c in card_ids(deck.dset.max_pip)
                ],
                "notes": {
                    card: [note_text(n, lang, self.picture_names()) for n in notes]
                    for card, notes in self.previews.notes.items()
                },
                "samples": [
                    {
                        "key": i.key,
                        "slot": i.slot,
                        "text": i.message.text(lang),
                        "blocking": i.blocking,
                    }
                    for i in sample_items(project)
                ],
                "language_follows_page": bool(project.meta.get("follow_page_language")),
            }

    def picture_names(self) -> dict[str, Message]:
        """How to call each picture file of the deck in a message: the customer's own
        file name, or the sample picture (keyed by the file's name on disk)."""
        project = self.project
        out: dict[str, Message] = {}
        for slot in all_slots(project.max_pip):
            ref = project.picture_ref(slot)
            file = ref_file(ref)
            if file is None:
                continue
            shown = project.upload_name(file)
            out[Path(file).name] = (
                Message.of("your_picture", file=shown)
                if shown and not is_demo(ref)
                else Message.of("the_sample_picture")
            )
        return out

    # -- changes -----------------------------------------------------------------------
    def set_field(self, key: str, value: Any) -> None:
        if key == "profile":
            self.set_profile(str(value or ""))
            return
        if key not in EDITABLE_KEYS:
            raise BadRequest({key or "_": Message.of("unknown_field")})
        if not isinstance(value, str | int | float | bool) or (
            isinstance(value, float) and value != value
        ):
            raise BadRequest({key: Message.of("invalid", key)})
        self.project.set_value(key, value)

    def set_profile(self, name: str) -> None:
        from deckgen.studio.cards import profile_card
        from deckgen.studio.printing import profile_names

        if name and name not in profile_names():
            raise BadRequest({"profile": Message.of("unknown_printer")})
        if name:
            card = profile_card(name)
            changes = {f"card.{k}": v for k, v in card.items()}
            changes["preset"] = name
            self.project.set_many(changes)
        else:
            self.project.set_many({}, remove=("preset",))

    def crop(self, slot: Slot, focus: tuple[float, float], zoom: float) -> None:
        from deckgen.studio.uploads import crop_picture, dropping_replaced

        project = self.project
        with project.lock:
            ref = project.picture_ref(slot)
            file = ref_file(ref)
            if file is None:
                raise BadRequest({slot.dotted: Message.of("nothing_to_crop", slot.dotted)})
            crop = project.crops.get(file)
            original = crop.original if crop else file
            deck = project.loaded()
            frame = slot_frame(slot, deck)
            if frame["fit"] != "cover" or zoom <= 1.0001:
                new_ref: Any = (
                    original if focus == (0.5, 0.5) else {"file": original, "focus": list(focus)}
                )
                with dropping_replaced(project):
                    project.set_picture(slot, new_ref)
                return
            box_w, box_h = frame["box"][2], frame["box"][3]
            try:
                source = _picture_path(project, original)
            except (ValueError, DeckgenError):
                # an edited crops.json naming a file outside the project: crop the picture
                try:
                    source, original = _picture_path(project, file), file
                except (ValueError, DeckgenError):
                    problem: dict[str, Message | str] = {
                        slot.dotted: Message.of("picture_outside", slot.dotted)
                    }
                    raise BadRequest(problem) from None
            made = crop_picture(
                project,
                source,
                slot=slot.name,
                box_ratio=box_w / box_h,
                zoom=zoom,
                focus=focus,
            )
            inside = shown_focus(_picture_size(source), box_w / box_h, zoom, focus)
            # the crop is box-shaped, so its focus moves nothing; it tells the card
            # where the subject is (the pip badge keeps away from it)
            new_ref = (
                made.file if inside == (0.5, 0.5) else {"file": made.file, "focus": list(inside)}
            )
            with dropping_replaced(project):
                project.remember_crop(made.file, Crop(original, zoom, focus))
                project.set_picture(slot, new_ref)

    def badge(self, slot: Slot, focus: tuple[float, float], zoom: float) -> str | None:
        """The corner where the card puts the pip badge of ``slot``'s picture, cut so."""
        project = self.project
        with project.lock:
            deck = project.loaded()
            if slot.value is None or deck.spec.faces.style != "pictures+pips":
                return None
            file = ref_file(project.picture_ref(slot))
            if file is None:
                return None
            crop = project.crops.get(file)
            frame = slot_frame(slot, deck)
            size = _picture_size(_picture_path(project, crop.original if crop else file))
        box_w, box_h = frame["box"][2], frame["box"][3]
        if frame["fit"] != "cover":
            zoom = 1.0
        x, y = shown_focus(size, box_w / box_h, zoom, focus)
        return badge_corner((x, y, x, y), box_w, box_h)


async def _json(request: Request) -> dict[str, Any]:
    from starlette.requests import ClientDisconnect

    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_JSON_BYTES):
        raise BadRequest({"request": Message.of("bad_request")}, 413)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        # a form or a plain text post (which other web pages can send) is not a change
        raise BadRequest({"request": Message.of("bad_request")}, 415)
    body = b""
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_JSON_BYTES:
                raise BadRequest({"request": Message.of("bad_request")}, 413)
    except ClientDisconnect:
        raise BadRequest({"request": Message.of("browser_stopped")}, 400) from None
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):  # RecursionError: nested too deep (docs/limits.md)
        raise BadRequest({"request": Message.of("bad_request")}) from None
    if not isinstance(data, dict):
        raise BadRequest({"request": Message.of("bad_request")})
    return data


def create_app(project: StudioProject, settings: GuardSettings) -> StudioGuard:
    """The studio as an ASGI app, guarded."""
    studio = Studio(project)

    def lang_of(request: Request) -> Language:
        return pick_language(request.headers.get("accept-language"))

    def slot_of(request: Request) -> Slot:
        try:
            return parse_slot(request.path_params["slot"], project.max_pip)
        except UnknownSlot:
            raise BadRequest({"slot": Message.of("unknown_slot")}, 404) from None

    async def answer(request: Request, work: Any) -> Response:
        lang = lang_of(request)
        try:
            await run_in_threadpool(work)
        except BadRequest as exc:
            return JSONResponse(
                {"ok": False, "errors": said(exc.errors, lang)}, exc.status, headers=NO_STORE
            )
        except ChangeRejected as exc:
            return JSONResponse(
                {"ok": False, "errors": said(dict(exc.messages), lang)}, 400, headers=NO_STORE
            )
        except DeckgenError:
            return JSONResponse(
                {"ok": False, "errors": said({"_": Message.of("something_wrong")}, lang)},
                400,
                headers=NO_STORE,
            )
        state = await run_in_threadpool(studio.state, lang)
        return JSONResponse({"ok": True, "state": state}, headers=NO_STORE)

    async def page(request: Request) -> Response:
        from deckgen.studio.cards import card_sizes
        from deckgen.studio.printing import profiles

        lang = lang_of(request)
        with contextlib.suppress(DeckgenError):  # the deck keeps its language; the page opens
            await run_in_threadpool(project.follow_page_language, lang)
        state = await run_in_threadpool(studio.state, lang)
        from deckgen.studio.printing import games_for

        rules = await run_in_threadpool(games_for, project.max_pip, lang)
        html = (
            _env(lang)
            .get_template("page.html.j2")
            .render(
                lang=lang,
                state=state,
                sizes=card_sizes(lang),
                profiles=profiles(lang),
                rules=rules,
                sets=[f"double-{n}" for n in range(6, 13)],
            )
        )
        return HTMLResponse(html, headers={**NO_STORE, "content-security-policy": _CSP})

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC_FILES:
            return Response("not found", 404)
        return Response((PACKAGE / "static" / name).read_bytes(), media_type=STATIC_FILES[name])

    async def get_state(request: Request) -> Response:
        return JSONResponse(
            await run_in_threadpool(studio.state, lang_of(request)), headers=NO_STORE
        )

    async def post_field(request: Request) -> Response:
        try:
            body = await _json(request)
        except BadRequest as exc:
            return JSONResponse(
                {"ok": False, "errors": said(exc.errors, lang_of(request))}, exc.status
            )
        key = str(body.get("key", ""))
        return await answer(request, lambda: studio.set_field(key, body.get("value")))

    async def put_picture(request: Request) -> Response:
        from starlette.requests import ClientDisconnect

        from deckgen.studio.uploads import (
            MAX_UPLOAD_BYTES,
            accept_picture,
            dropping_replaced,
            receive_upload,
        )

        lang = lang_of(request)
        try:
            slot = slot_of(request)
        except BadRequest as exc:
            return JSONResponse({"ok": False, "errors": said(exc.errors, lang)}, exc.status)
        shown = _shown_name(request.headers.get("x-file-name", ""))
        too_large = Message.of(
            "upload_too_large", slot.dotted, file=shown, mb=f"{MAX_UPLOAD_BYTES / 1e6:.0f}"
        )
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES:
            return JSONResponse({"ok": False, "errors": said({slot.dotted: too_large}, lang)}, 413)
        try:
            tmp = await receive_upload(project, request.stream())
        except DeckgenError:
            return JSONResponse({"ok": False, "errors": said({slot.dotted: too_large}, lang)}, 413)
        except ClientDisconnect:
            # the browser went away (tab closed, upload cancelled): one line, no traceback
            _log.warning("an upload for %s was aborted by the browser", slot.name)
            return Response(status_code=400)

        def work() -> None:
            try:
                made = accept_picture(project, tmp, slot=slot.name, shown_name=shown)
            except DeckgenError as exc:
                raise BadRequest({slot.dotted: upload_message(exc, slot.dotted, shown)}) from None
            project.remember_name(made.file, shown)
            with dropping_replaced(project):
                project.set_picture(slot, made.file)

        return await answer(request, work)

    async def delete_picture(request: Request) -> Response:
        try:
            slot = slot_of(request)
        except BadRequest as exc:
            return JSONResponse(
                {"ok": False, "errors": said(exc.errors, lang_of(request))}, exc.status
            )

        def work() -> None:
            from deckgen.studio.uploads import dropping_replaced

            with dropping_replaced(project):
                project.set_picture(slot, None)

        return await answer(request, work)

    async def get_picture(request: Request) -> Response:
        try:
            slot = slot_of(request)
        except BadRequest as exc:
            return JSONResponse(
                {"ok": False, "errors": said(exc.errors, lang_of(request))}, exc.status
            )
        original = request.query_params.get("original") == "1"
        data = await run_in_threadpool(_thumbnail, project, slot, original)
        if data is None:
            return Response("no picture", 404)
        return Response(
            data, media_type="image/png", headers={"cache-control": "private, max-age=3600"}
        )

    async def crop_request(request: Request) -> tuple[Slot, tuple[float, float], float]:
        """The slot, focus and zoom a crop request names (BadRequest when it is nonsense)."""
        slot = slot_of(request)
        body = await _json(request)
        try:
            fx, fy = (float(v) for v in body.get("focus", (0.5, 0.5)))
            zoom = float(body.get("zoom", 1.0))
        except (TypeError, ValueError):
            raise BadRequest({"crop": Message.of("bad_request")}) from None
        if not (0 <= fx <= 1 and 0 <= fy <= 1 and ZOOM_RANGE[0] <= zoom <= ZOOM_RANGE[1]):
            raise BadRequest({"crop": Message.of("bad_request")})
        return slot, (round(fx, 4), round(fy, 4)), round(zoom, 3)

    async def post_crop(request: Request) -> Response:
        try:
            slot, focus, zoom = await crop_request(request)
        except BadRequest as exc:
            return JSONResponse(
                {"ok": False, "errors": said(exc.errors, lang_of(request))}, exc.status
            )
        return await answer(request, lambda: studio.crop(slot, focus, zoom))

    async def post_badge(request: Request) -> Response:
        try:
            slot, focus, zoom = await crop_request(request)
        except BadRequest as exc:
            return JSONResponse(
                {"ok": False, "errors": said(exc.errors, lang_of(request))}, exc.status
            )
        try:
            corner = await run_in_threadpool(studio.badge, slot, focus, zoom)
        except (DeckgenError, OSError, ValueError):
            corner = None
        return JSONResponse({"ok": True, "corner": corner}, headers=NO_STORE)

    async def card_png(request: Request) -> Response:
        card = request.path_params["card"]
        if card not in card_ids(project.max_pip):
            return Response("no such card", 404)
        try:
            data = await run_in_threadpool(studio.previews.png, project, card)
        except DeckgenError as exc:
            errors = said({"_": project.drawing_problem(exc)}, lang_of(request))
            return JSONResponse({"ok": False, "errors": errors}, 400)
        except KeyError:
            return Response("no such card", 404)
        return Response(
            data, media_type="image/png", headers={"cache-control": "private, max-age=600"}
        )

    async def print_zip(request: Request) -> Response:
        from deckgen.deck.build import SampleContentError
        from deckgen.prepress.contract import ContractError
        from deckgen.studio.printing import build_print_zip, print_problems

        lang = lang_of(request)
        force = request.query_params.get("force") == "1"
        try:
            data, _warnings = await run_in_threadpool(build_print_zip, project, force=force)
        except SampleContentError:
            # the print step refuses sample content for a printer: say which, as the
            # page's checklist does
            left = await run_in_threadpool(sample_items, project)
            items = "; ".join(i.message.text(lang) for i in left)
            text = said({"_": Message.of("samples_left", items=items)}, lang)["_"]
            return JSONResponse({"ok": False, "errors": {"_": text}}, 409)
        except ContractError as exc:
            # the printer's rules are broken: say which, in the customer's words, and let
            # them decide
            shown = await run_in_threadpool(studio.state, lang)
            problems = await run_in_threadpool(print_problems, project, shown["slots"], exc.what)
            text = "\n".join(m.text(lang) for m in problems)
            return JSONResponse({"ok": False, "errors": {"_": text}, "can_force": True}, 409)
        except DeckgenError as exc:
            errors = said({"_": project.drawing_problem(exc)}, lang)
            return JSONResponse({"ok": False, "errors": errors}, 400)
        return _download(data, f"{_slug(project)}-print.zip")

    async def deck_zip_route(request: Request) -> Response:
        from deckgen.studio.printing import deck_zip

        data = await run_in_threadpool(deck_zip, project)
        return _download(data, f"{_slug(project)}-deck.zip")

    routes = [
        Route("/", page),
        Route("/static/{name}", static),
        Route("/api/state", get_state),
        Route("/api/field", post_field, methods=["POST"]),
        Route("/api/picture/{slot}", get_picture, methods=["GET"]),
        Route("/api/picture/{slot}", put_picture, methods=["PUT"]),
        Route("/api/picture/{slot}", delete_picture, methods=["DELETE"]),
        Route("/api/crop/{slot}", post_crop, methods=["POST"]),
        Route("/api/badge/{slot}", post_badge, methods=["POST"]),
        Route("/api/card/{card}.png", card_png),
        Route("/download/print.zip", print_zip),
        Route("/download/deck.zip", deck_zip_route),
    ]
    app = Starlette(routes=routes)
    app.state.studio = studio
    guarded = StudioGuard(app, settings)
    guarded.studio = studio  # type: ignore[attr-defined]
    return guarded


_CSP = (
    "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def _shown_name(header: str) -> str:
    """The browser's file name, for messages only (never a path)."""
    from urllib.parse import unquote

    name = unquote(header).replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in name if ch.isprintable())[:80]
    return name or "picture"


def _slug(project: StudioProject) -> str:
    from deckgen.deck.spec import slugify

    return slugify(str(project.get("name") or "deck"))


def _download(data: bytes, name: str) -> Response:
    return Response(
        data,
        media_type="application/zip",
        headers={"content-disposition": f'attachment; filename="{name}"', **NO_STORE},
    )


def _thumbnail(project: StudioProject, slot: Slot, original: bool) -> bytes | None:
    """The slot's picture (or the upload it was cropped from), at most THUMB_PX a side.

    Decoded at the smallest scale that gives THUMB_PX (JPEG: draft mode); a picture that
    cannot be shown (outside the project, hostile, broken) gives None.
    """
    from deckgen.deck.picturefile import decoding, picture_header
    from deckgen.deck.pictures import PictureUse, open_picture

    with project.lock:
        file = ref_file(project.picture_ref(slot))
        if file is None:
            return None
        crop = project.crops.get(file) if original else None
        try:
            path = _picture_path(project, crop.original if crop else file)
        except (ValueError, DeckgenError):
            return None  # e.g. an edited crops.json naming a file outside the project
    side_mm = THUMB_PX / 300 * 25.4
    try:
        header = picture_header(path, where=slot.dotted)
        with decoding(header.width_px * header.height_px):
            im = open_picture(
                path, where=slot.dotted, needs=[PictureUse(side_mm, side_mm, "contain")]
            ).image
            im.thumbnail((THUMB_PX, THUMB_PX))
    except DeckgenError:
        return None
    buf = io.BytesIO()
    im.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()
