"""The booklet's URL fetcher serves our templates and allowed pictures, nothing else."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from deckgen.booklet.fetcher import BookletFetcher, RefusedURL, generated_url
from deckgen.errors import ResourceError
from deckgen.resources import templates_dir


def _png(colour: tuple[int, int, int]) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (40, 40), colour).save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture
def fetcher(tmp_path: Path) -> BookletFetcher:
    allowed = tmp_path / "allowed.png"
    allowed.write_bytes(_png((0, 0, 255)))
    return BookletFetcher(
        template_dirs=[templates_dir() / "booklet"],
        allowed_files=[allowed],
        generated={"card-1.png": (_png((255, 0, 0)), "image/png")},
    )


def test_serves_templates_generated_and_allowed(fetcher: BookletFetcher, tmp_path: Path) -> None:
    css = (templates_dir() / "booklet" / "booklet.css.j2").as_uri()
    assert b"@page" in fetcher.fetch(css).read()
    assert fetcher.fetch(generated_url("card-1.png")).read().startswith(b"\x89PNG")
    assert fetcher.fetch((tmp_path / "allowed.png").as_uri()).read().startswith(b"\x89PNG")
    assert not fetcher.refused


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/logo.png",
        "http://127.0.0.1:8000/x.png",
        "ftp://example.com/x",
        "file:///etc/passwd",
        "file://otherhost/etc/passwd",
        "data:image/png;base64,iVBORw0KGgo=",
        "deckgen:generated/not-there.png",
    ],
)
def test_refuses_everything_else(fetcher: BookletFetcher, url: str) -> None:
    with pytest.raises(RefusedURL):
        fetcher.fetch(url)
    assert fetcher.refused == [url]


def test_refuses_climbing_out_and_symlinks(fetcher: BookletFetcher, tmp_path: Path) -> None:
    climb = (templates_dir() / "booklet").as_uri() + "/../../pyproject.toml"
    with pytest.raises(RefusedURL):
        fetcher.fetch(climb)
    link = tmp_path / "link.png"
    link.symlink_to("/etc/hostname")
    with pytest.raises(RefusedURL):
        fetcher.fetch(link.as_uri())


def test_render_fails_clearly_on_a_foreign_url() -> None:
    from deckgen.booklet.pdf import render_pdf

    html = '<html lang="en"><title>x</title><p>x</p><img src="https://example.com/a.png" alt="a">'
    with pytest.raises(ResourceError, match="may not"):
        render_pdf(html, tagged=False)


def test_render_embeds_a_generated_picture() -> None:
    import pypdf

    from deckgen.booklet.pdf import render_pdf

    url = generated_url("red.png")
    html = f'<html lang="en"><title>x</title><p>x</p><img src="{url}" alt="red card">'
    pdf = render_pdf(html, generated={"red.png": (_png((255, 0, 0)), "image/png")})
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    assert len(reader.pages[0].images) == 1
