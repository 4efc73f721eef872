"""The only way WeasyPrint may load anything while it makes a booklet.

Takes the resources a booklet may use (files below our templates folder, pictures the
deck file names, and pictures generated in memory such as rendered cards) and gives
a WeasyPrint URL fetcher that serves exactly those. Everything else (the network,
``data:`` URLs, any other file on disk, a path that climbs out with ``..`` or a
symbolic link) is refused and remembered, so the caller can fail clearly.

This module imports WeasyPrint; import it only when a booklet is being made.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint.urls import URLFetcher, URLFetcherResponse

GENERATED_SCHEME = "deckgen"
"""Pictures made in memory are addressed as ``deckgen:generated/<name>``."""

MAX_RESOURCE_BYTES = 40_000_000


def generated_url(name: str) -> str:
    """The URL under which an in-memory picture called ``name`` is served."""
    return f"{GENERATED_SCHEME}:generated/{name}"


class RefusedURL(ValueError):
    """A URL the booklet is not allowed to load."""


class BookletFetcher(URLFetcher):  # type: ignore[misc]
    """Serve our templates, allowed picture files, and generated pictures; nothing else."""

    def __init__(
        self,
        *,
        template_dirs: Iterable[Path],
        allowed_files: Iterable[Path] = (),
        generated: Mapping[str, tuple[bytes, str]] | None = None,
    ) -> None:
        super().__init__(allowed_protocols=("file", GENERATED_SCHEME), fail_on_errors=False)
        self.template_dirs = tuple(Path(d).resolve() for d in template_dirs)
        self.allowed_files = frozenset(Path(p).resolve() for p in allowed_files)
        self.generated = dict(generated or {})
        self.refused: list[str] = []
        self.served: list[str] = []

    def _refuse(self, url: str, why: str) -> RefusedURL:
        self.refused.append(url)
        return RefusedURL(f"{why}: {url[:200]}")

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme == GENERATED_SCHEME:
            name = parts.path.removeprefix("generated/")
            if name not in self.generated:
                raise self._refuse(url, "no generated picture of that name")
            body, mime = self.generated[name]
            self.served.append(url)
            return URLFetcherResponse(url, body, {"Content-Type": mime})
        if scheme != "file" or parts.netloc not in ("", "localhost"):
            raise self._refuse(url, "booklets load nothing from the network")
        path = Path(unquote(parts.path)).resolve()
        inside = any(path.is_relative_to(d) for d in self.template_dirs)
        if not (inside or path in self.allowed_files):
            raise self._refuse(url, "not one of the booklet's own files")
        if not path.is_file() or path.stat().st_size > MAX_RESOURCE_BYTES:
            raise self._refuse(url, "missing or too large")
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        self.served.append(url)
        return URLFetcherResponse(path.as_uri(), path.read_bytes(), {"Content-Type": mime})
