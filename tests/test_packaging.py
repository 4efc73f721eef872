"""The package list in pyproject.toml matches the tree, and the data folders resolve."""

from __future__ import annotations

import tomllib
from pathlib import Path

from deckgen import resources

REPO = Path(__file__).resolve().parent.parent


def test_every_package_is_listed_for_the_wheel() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    on_disk = {
        ".".join(p.parent.relative_to(REPO).parts) for p in (REPO / "deckgen").rglob("__init__.py")
    }
    assert on_disk <= listed, f"add to [tool.setuptools] packages: {sorted(on_disk - listed)}"
    for package, folder in config["package-dir"].items():
        assert package.startswith("deckgen._data.")
        assert (REPO / folder).is_dir()
        assert package in listed
        assert package in config["package-data"]


def test_data_folders_resolve_in_a_checkout() -> None:
    assert resources.PROJECT_ROOT == REPO
    for folder in (
        resources.rules_dir(),
        resources.templates_dir(),
        resources.images_dir(),
        resources.presets_dir(),
        resources.fonts_dir(),
        resources.icc_dir(),
    ):
        assert folder.is_dir()
        assert any(folder.iterdir())


def test_the_makefile_reinstalls_when_a_compiled_module_changes() -> None:
    from deckgen.engine import compiled

    line = next(
        x for x in (REPO / "Makefile").read_text().splitlines() if x.startswith("COMPILED :=")
    )
    listed = line.split(":=", 1)[1].split()
    assert listed == [str(compiled.source_file(m).relative_to(REPO)) for m in compiled.MODULES]
