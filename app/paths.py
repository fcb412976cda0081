"""Every directory Bojovka uses, in one place.

User directories come from platformdirs; ``BOJOVKA_HOME`` overrides all of them at once (tests, portable
installs on a USB stick). Bundled resources are found both in a source checkout and inside a PyInstaller
bundle (``sys._MEIPASS``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Final

import platformdirs

APP_NAME: Final[str] = "Bojovka"
HOME_VARIABLE: Final[str] = "BOJOVKA_HOME"
ENCOUNTER_SUFFIX: Final[str] = ".bojovka"


def _home() -> Path | None:
    value = os.environ.get(HOME_VARIABLE, "").strip()
    return Path(value).expanduser() if value else None


def _ensure(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def data_dir() -> Path:
    """Roster/bestiary database, autosaved encounters."""
    home = _home()
    return _ensure(home / "data" if home else platformdirs.user_data_path(APP_NAME, appauthor=False))


def config_dir() -> Path:
    """Settings."""
    home = _home()
    return _ensure(home / "config" if home else platformdirs.user_config_path(APP_NAME, appauthor=False))


def _state_path() -> Path:
    home = _home()
    return home / "state" if home else platformdirs.user_state_path(APP_NAME, appauthor=False)


def state_dir() -> Path:
    """Journals of running fights (crash recovery) and lock files."""
    return _ensure(_state_path())


def journals_dir(create: bool = True) -> Path:
    """Journals of running fights and their lock files, and the locks of open encounter files (``create``: made
    if missing; OSError if the disk refuses)."""
    path = _state_path() / "journals"
    return _ensure(path) if create else path


def log_dir() -> Path:
    """Error logs written by the exception hook."""
    home = _home()
    return _ensure(home / "logs" if home else platformdirs.user_log_path(APP_NAME, appauthor=False))


def documents_dir() -> Path:
    """Where the save dialog starts."""
    home = _home()
    return home / "encounters" if home else platformdirs.user_documents_path()


def resources_dir() -> Path:
    """The bundled ``resources/`` folder: next to the code, or inside the PyInstaller bundle."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def resource(*parts: str) -> Path:
    """A file inside ``resources/``."""
    return resources_dir().joinpath(*parts)
