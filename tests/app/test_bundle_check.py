"""The bundle checks pass on a complete build and name each missing or broken piece of an incomplete one.

An incomplete build is simulated the way PyInstaller lays one out: a copy of ``resources/`` inside a folder
that ``sys._MEIPASS`` points at, with one piece removed or damaged per test.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QLibraryInfo
from PySide6.QtWidgets import QApplication

from app import bundle_check
from app.paths import resources_dir


@pytest.fixture
def bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qapp: QApplication) -> Path:
    """A frozen-style bundle folder holding a copy of the real resources; returns its resources folder."""
    root = tmp_path / "_internal"
    shutil.copytree(resources_dir(), root / "resources", ignore=shutil.ignore_patterns("*.po", "*.pot"))
    monkeypatch.setattr(sys, "_MEIPASS", str(root), raising=False)
    return root / "resources"


def test_the_source_tree_has_everything(qapp: QApplication) -> None:
    assert bundle_check.bundle_problems() == []


def test_a_frozen_layout_with_everything_passes(bundle: Path) -> None:
    assert resources_dir() == bundle
    assert bundle_check.bundle_problems() == []


def test_a_missing_catalog_is_named(bundle: Path) -> None:
    (bundle / "locale" / "pl" / "LC_MESSAGES" / "bojovka.mo").unlink()
    problems = bundle_check.translation_problems()
    assert len(problems) == 1 and "pl translation cannot be read" in problems[0]


def test_a_catalog_without_its_plural_rule_is_named(bundle: Path) -> None:
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    # A catalog compiled from a .po whose header lost Plural-Forms falls back to English's two forms.
    with (bundle / "locale" / "cs" / "LC_MESSAGES" / "bojovka.mo").open("wb") as stream:
        write_mo(stream, Catalog(locale=None))
    problems = bundle_check.translation_problems()
    assert len(problems) == 1 and "cs translation declares the wrong plural forms" in problems[0]


def test_a_missing_qt_catalog_is_named(tmp_path: Path, qapp: QApplication) -> None:
    real = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
    folder = tmp_path / "translations"
    folder.mkdir()
    for language in ("cs", "ru"):
        shutil.copy(real / f"qtbase_{language}.qm", folder)
    assert bundle_check.qt_translation_problems(str(real)) == []
    problems = bundle_check.qt_translation_problems(str(folder))
    assert len(problems) == 1 and "qtbase_pl.qm" in problems[0]


def test_a_broken_sample_is_named(bundle: Path) -> None:
    (bundle / "samples" / "walka.bojovka").write_text("{ not json", encoding="utf-8")
    (bundle / "samples" / "souboj.bojovka").unlink()
    problems = bundle_check.sample_problems()
    assert len(problems) == 2
    assert any("walka sample" in problem for problem in problems)
    assert any("souboj sample" in problem for problem in problems)


def test_a_missing_bestiary_is_named(bundle: Path) -> None:
    shutil.rmtree(bundle / "bestiary")
    assert bundle_check.bestiary_problems() == [f"no bestiary found in {bundle / 'bestiary'}"]


def test_a_damaged_bestiary_is_named(bundle: Path) -> None:
    (bundle / "bestiary" / "sr3.json").write_text('{"format": "something else"}', encoding="utf-8")
    problems = bundle_check.bestiary_problems()
    assert len(problems) == 1 and problems[0].startswith("the bestiary does not load")


def test_a_missing_icon_is_named(bundle: Path) -> None:
    (bundle / "icons" / "bojovka.svg").unlink()
    problems = bundle_check.icon_problems()
    assert len(problems) == 1 and "bojovka.svg" in problems[0]


def test_missing_platform_plugins_are_named(tmp_path: Path, qapp: QApplication) -> None:
    assert bundle_check.platform_problems() == []
    (tmp_path / "platforms").mkdir()
    (tmp_path / "platforms" / "libqoffscreen.so").write_bytes(b"")
    problems = bundle_check.platform_problems([str(tmp_path)])
    expected = bundle_check.NATIVE_PLATFORM_PLUGINS[sys.platform]
    assert len(problems) == len(expected) and all(plugin in " ".join(problems) for plugin in expected)


def test_resources_outside_the_bundle_are_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    monkeypatch.setattr(bundle_check, "resources_dir", lambda: Path("/somewhere/else/resources"))
    problems = bundle_check.bundle_location_problems()
    assert len(problems) == 1 and "outside the bundle" in problems[0]


def test_rule_data_is_checked(qapp: QApplication) -> None:
    assert bundle_check.rule_data_problems() == []
    assert bundle_check.game_meta_problems() == []
