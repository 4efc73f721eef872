"""Each vendor's CMYK files carry the printing condition it asks for: SWOP (CGATS TR 003)
for DriveThruCards, FOGRA39 for MeinSpiel, in every press file's output intent."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest

from deckgen.prepress.iccprofile import profile_path

PRESS_EXCLUDED = {"proof.pdf"}


@pytest.mark.parametrize(
    ("build", "condition", "identifier"),
    [("dtc_build", "swop-tr003", "CGATS TR 003"), ("ms_build", "fogra39", "FOGRA39")],
)
def test_output_intent_is_the_vendors(
    build: str, condition: str, identifier: str, request: pytest.FixtureRequest
) -> None:
    folder: Path = request.getfixturevalue(build)
    shipped = profile_path(condition).read_bytes()
    files = [p for p in sorted(folder.rglob("*.pdf")) if p.name not in PRESS_EXCLUDED]
    assert files
    for path in files:
        with pikepdf.open(path) as pdf:
            intents = list(pdf.Root.OutputIntents)
            assert len(intents) == 1, path.name
            intent = intents[0]
            assert str(intent.OutputConditionIdentifier) == identifier, path.name
            assert str(intent.RegistryName) == "http://www.color.org"
            assert intent.DestOutputProfile.read_bytes() == shipped, path.name


def test_swop_profile_is_a_v2_cmyk_output_profile() -> None:
    data = profile_path("swop-tr003").read_bytes()
    assert data[8] == 2  # ICC version 2, as PDF/X-1a:2003 needs
    assert data[12:20] == b"prtrCMYK"
    assert b"TR 003" in data
