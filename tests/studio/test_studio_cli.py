"""``deckgen studio`` as a user starts it: the URL with its token on the first line."""

from __future__ import annotations

import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckgen.cli import app


def start(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "deckgen", "studio", "--no-browser", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def studio(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    proc = start([], tmp_path)
    try:
        url = proc.stdout.readline().strip() if proc.stdout else ""
        yield url, proc
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_first_line_is_the_url_with_a_token_and_it_opens_the_page(
    studio: tuple[str, subprocess.Popen[str]], tmp_path: Path
) -> None:
    url, _ = studio
    assert url.startswith("http://127.0.0.1:")
    assert "/?token=" in url
    token = url.split("token=")[1]
    assert len(token) >= 40
    import http.cookiejar

    browser = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    with browser.open(url, timeout=30) as response:  # the redirect sets the session cookie
        body = response.read().decode()
    assert "deckgen studio" in body
    assert (tmp_path / "output" / "our-domino" / "deck.toml").is_file()
    bare = url.split("?")[0] + "api/state"
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(bare, timeout=30)
    assert refused.value.code == 403


def test_another_address_warns(tmp_path: Path) -> None:
    proc = start(["--host", "127.0.0.2", str(tmp_path / "d")], tmp_path)
    try:
        first = proc.stdout.readline() if proc.stdout else ""
        assert first.startswith("http://127.0.0.2:")
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert "warning: the studio listens on 127.0.0.2" in err


def test_every_address_at_once_is_refused(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["studio", "--no-browser", "--host", "0.0.0.0", str(tmp_path / "d")]
    )
    assert result.exit_code == 2
    assert "every network" in result.output


def test_a_deck_file_that_does_not_load_is_a_clear_error(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nset = "double-99"\n')
    result = runner.invoke(app, ["studio", "--no-browser", str(bad)])
    assert result.exit_code == 2
    assert "error:" in result.output
    assert "double-99" in result.output


def test_a_port_in_use_is_a_clear_error(runner: CliRunner, tmp_path: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        result = runner.invoke(
            app, ["studio", "--no-browser", "--port", str(port), str(tmp_path / "d")]
        )
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
