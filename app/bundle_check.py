"""Does this build find everything it ships? The resource half of ``--selftest``.

A frozen bundle that lost a catalog, a sample or a Qt plugin still starts, and fails only when a GM reaches
the missing piece at the table. These checks reach each piece at start: the compiled translations (and that
each declares its language's plural rule), Qt's own catalogs for its dialogs, every sample encounter, the rule
data, the bestiaries, the icon and the platform plugins. Each check returns sentences saying what is missing.
"""

from __future__ import annotations

import gettext
import json
import sys
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Final

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QTranslator
from PySide6.QtGui import QGuiApplication

from app.i18n import DOMAIN, LANGUAGES
from app.icon import ICON_PARTS, application_icon
from app.library import Library, parse_library_file
from app.paths import resource, resources_dir
from app.samples import SAMPLES, sample_path
from app.storage import load_encounter
from rules.systems import all_systems, system_ids

#: n → the plural form each language's catalog must pick (cs: 1 / 2–4 / 5+; pl and ru: 2 also for 22–24,
#: form 2 for 11–14; ru: form 0 again for 21).
PLURAL_FORMS: Final[dict[str, dict[int, int]]] = {
    "cs": {1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 22: 2},
    "pl": {1: 0, 2: 1, 4: 1, 5: 2, 12: 2, 22: 1, 25: 2},
    "ru": {1: 0, 2: 1, 5: 2, 11: 2, 21: 0, 22: 1},
}
#: The platform plugin each system needs to open a window (Linux: X11 and Wayland).
NATIVE_PLATFORM_PLUGINS: Final[dict[str, tuple[str, ...]]] = {
    "linux": ("qxcb", "qwayland"),
    "win32": ("qwindows",),
    "darwin": ("qcocoa",),
}


def _catalog_problems(language: str, expected: dict[int, int]) -> list[str]:
    path = resource("locale", language, "LC_MESSAGES", f"{DOMAIN}.mo")
    try:
        catalog = gettext.translation(DOMAIN, localedir=str(resource("locale")), languages=[language])
    except OSError as error:
        return [f"the {language} translation cannot be read ({path}): {error}"]
    if not isinstance(catalog, gettext.GNUTranslations):
        return [f"the {language} translation is not a gettext catalog ({path})"]
    plural = getattr(catalog, "plural", None)
    picked = {number: plural(number) for number in expected} if callable(plural) else {}
    if picked != expected:
        return [f"the {language} translation declares the wrong plural forms: {picked}, expected {expected}"]
    return []


def translation_problems() -> list[str]:
    """Every shipped language's compiled catalog loads and carries its plural rule."""
    return [problem for language in LANGUAGES if language != "en"
            for problem in _catalog_problems(language, PLURAL_FORMS[language])]


def qt_translation_problems(folder: str | None = None) -> list[str]:
    """Qt's catalog for its own dialogs (file, print) is there for every shipped language."""
    folder = folder or QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    return [f"Qt's {language} catalog qtbase_{language}.qm is missing from {folder}"
            for language in LANGUAGES if language != "en" and not QTranslator().load(f"qtbase_{language}", folder)]


def sample_problems() -> list[str]:
    """One sample encounter per game, each loading."""
    problems = [f"no sample encounter for {game}" for game in all_systems() if game not in SAMPLES]
    for game in SAMPLES:
        try:
            load_encounter(sample_path(game))
        except Exception as error:  # any failure is a finding, reported as a line
            problems.append(f"the {game} sample ({sample_path(game)}) does not load: {error}")
    return problems


def rule_data_problems() -> list[str]:
    """The games' data tables (``data.json`` beside a game's rules, package data) are there and parse."""
    files = [entry for game in all_systems() if (entry := resources.files(f"rules.systems.{game}")
                                                  .joinpath("data.json")).is_file()]
    problems = [] if files else ["no rule data (rules/systems/<game>/data.json) found"]
    for entry in files:
        try:
            if not isinstance(json.loads(entry.read_text(encoding="utf-8")), dict):
                problems.append(f"rule data {entry} is not a JSON object")
        except (OSError, ValueError) as error:
            problems.append(f"rule data {entry} cannot be read: {error}")
    return problems


def game_meta_problems() -> list[str]:
    """Every game's ``meta.json`` (its title for the welcome page and recent files, read without importing the
    game) is there: without it the names still show, but each costs importing the whole game at start-up."""
    missing = [game for game in system_ids()
               if not resources.files("rules.systems").joinpath(game, "meta.json").is_file()]
    return [f"no meta.json for the game {game} (rules/systems/{game}/meta.json)" for game in missing]


def bestiary_problems() -> list[str]:
    """The bundled bestiaries parse and seed a fresh roster/bestiary database (SQLite included)."""
    files = sorted(resource("bestiary").glob("*.json"))
    if not files:
        return [f"no bestiary found in {resource('bestiary')}"]
    try:
        expected = sum(len(parse_library_file(path)) for path in files)
        with tempfile.TemporaryDirectory(prefix="bojovka-check-") as folder, \
                Library(Path(folder) / "library.sqlite3") as library:
            seeded = len(library.search())
    except Exception as error:  # any failure is a finding, reported as a line
        return [f"the bestiary does not load: {error}"]
    return [] if seeded == expected > 0 else [f"the bestiary seeded {seeded} entries, expected {expected}"]


def icon_problems() -> list[str]:
    """The application icon draws (the SVG is bundled and Qt's SVG support came along)."""
    path = resource(*ICON_PARTS)
    if not path.is_file():
        return [f"the application icon {path} is missing"]
    image = application_icon().pixmap(64, 64).toImage()
    if image.isNull():
        return [f"the application icon ({path}) cannot be drawn"]
    return [] if image.pixelColor(32, 32).alpha() > 0 else ["the application icon draws empty"]


def platform_problems(plugin_paths: list[str] | None = None) -> list[str]:
    """Qt runs on a platform plugin, and the native ones for this system are shipped."""
    problems = [] if QGuiApplication.platformName() else ["Qt started without a platform plugin"]
    searched = QCoreApplication.libraryPaths() if plugin_paths is None else plugin_paths
    folders = [Path(path) / "platforms" for path in searched]
    for plugin in NATIVE_PLATFORM_PLUGINS.get(sys.platform, ()):
        if not any(file.stem.removeprefix("lib") == plugin for folder in folders for file in _files(folder)):
            problems.append(f"Qt's {plugin} platform plugin is missing (looked in {', '.join(map(str, folders))})")
    return problems


def _files(folder: Path) -> list[Path]:
    return list(folder.iterdir()) if folder.is_dir() else []


def bundle_location_problems() -> list[str]:
    """Frozen: resources are read from inside the bundle, not from some checkout that happens to exist."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle is None:
        return []
    return [] if resources_dir().is_relative_to(Path(bundle)) else [
        f"resources are read from {resources_dir()}, outside the bundle {bundle}"]


CHECKS: Final[tuple[Callable[[], list[str]], ...]] = (
    bundle_location_problems, translation_problems, qt_translation_problems, sample_problems, rule_data_problems,
    game_meta_problems, bestiary_problems, icon_problems, platform_problems,
)


def bundle_problems() -> list[str]:
    """Every check; an empty list means this build has everything it ships."""
    return [problem for check in CHECKS for problem in check()]
