"""Typed settings with defaults, validated on load, with versioned migrations.

``config_dir()/settings.json`` holds ``{"version": SETTINGS_VERSION, <key>: <value>, …}``. Loading never fails:
a missing file gives the defaults; a file that cannot be read is renamed ``settings.json.corrupt`` (so nothing
is silently lost) and the defaults are used; a key of the wrong type falls back to its own default; unknown
keys are ignored. Older files are migrated step by step (``MIGRATIONS``: version n → n + 1); a file written
by a newer Bojovka is read as far as its keys are understood. Autosave is not a setting: it is always on.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import logging
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, Final, Literal, get_args

from app.paths import config_dir
from app.storage import StorageError, atomic_write_text, parse_json, read_limited
from rules.systems import system_ids

log = logging.getLogger(__name__)

SETTINGS_VERSION: Final[int] = 1
SETTINGS_FILE: Final[str] = "settings.json"
CORRUPT_SUFFIX: Final[str] = ".corrupt"
MAX_RECENT: Final[int] = 10
MAX_SETTINGS_BYTES: Final[int] = 1024 * 1024
MAX_LAYOUT_CHARS: Final[int] = 256 * 1024  # base64 of Qt's saveGeometry/saveState: a few KB in practice

Theme = Literal["system", "light", "dark"]
THEMES: Final[tuple[str, ...]] = get_args(Theme)
PaperSetting = Literal["auto", "a4", "letter"]  # auto: Letter where the locale measures in US units, else A4
PAPER_SETTINGS: Final[tuple[str, ...]] = get_args(PaperSetting)
_LANGUAGE = re.compile(r"[a-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})?")


@dataclass(frozen=True)
class Settings:
    """What Bojovka remembers between runs (change with ``dataclasses.replace``, save with save_settings)."""

    language: str = "en"  # a code of app.i18n.LANGUAGES; unknown codes fall back to English when installed
    theme: Theme = "system"
    recent_files: tuple[str, ...] = ()  # most recent first, at most MAX_RECENT
    last_encounter: str | None = None  # reopened at start-up
    window_geometry: str = ""  # base64 of QMainWindow.saveGeometry()
    window_state: str = ""  # base64 of QMainWindow.saveState(): docks and toolbars
    player_view_geometry: str = ""  # base64: the second screen's window
    last_directory: str = ""  # where the open/save dialogs start
    default_system: str = "sr3"  # the game "New encounter" starts
    paper: PaperSetting = "auto"  # what the summary and prep sheet print on (the print dialogs can change it)


# --- validating each key ------------------------------------------------------------------------


def _language(value: Any) -> str | None:
    return value if isinstance(value, str) and _LANGUAGE.fullmatch(value) else None


def _theme(value: Any) -> str | None:
    return value if value in THEMES else None


def _paper(value: Any) -> str | None:
    return value if value in PAPER_SETTINGS else None


def _path_text(value: Any) -> str | None:
    if not isinstance(value, str) or not value or len(value) > 4096 or "\0" in value:
        return None
    return value


def _optional_path(value: Any) -> str | None:
    return _path_text(value)


def _recent(value: Any) -> tuple[str, ...] | None:
    if not isinstance(value, list):
        return None
    kept: list[str] = []
    seen: set[str] = set()
    for item in value:  # a bad entry is dropped, the good ones stay
        text = _path_text(item)
        if text is not None and _same_file_key(text) not in seen:
            kept.append(text)
            seen.add(_same_file_key(text))
            if len(kept) == MAX_RECENT:
                break
    return tuple(kept)


def _layout(value: Any) -> str | None:
    if not isinstance(value, str) or len(value) > MAX_LAYOUT_CHARS:
        return None
    try:
        base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return None
    return value


def _directory(value: Any) -> str | None:
    return "" if value == "" else _path_text(value)


def _system(value: Any) -> str | None:
    """A game this Bojovka has (the ids are listed without importing any game)."""
    return value if isinstance(value, str) and value in system_ids() else None


#: Key → validator returning the value to keep, or None for "use the default". A key with a None default
#: (last_encounter) accepts null too.
_VALIDATORS: Final[Mapping[str, Callable[[Any], Any]]] = {
    "language": _language,
    "theme": _theme,
    "recent_files": _recent,
    "last_encounter": _optional_path,
    "window_geometry": _layout,
    "window_state": _layout,
    "player_view_geometry": _layout,
    "last_directory": _directory,
    "default_system": _system,
    "paper": _paper,
}


def _same_file_key(path: str) -> str:
    return os.path.normcase(os.path.normpath(path))


# --- migrations ---------------------------------------------------------------------------------


def _from_version_0(data: dict[str, Any]) -> dict[str, Any]:
    """Version 0, the pre-history format: a flat file without ``version``, with short keys.

    ``{"lang": "cs", "dark": true, "recent": [...], "geometry": "...", "state": "..."}``.
    """
    renamed = {"lang": "language", "recent": "recent_files", "geometry": "window_geometry",
               "state": "window_state", "last": "last_encounter"}
    migrated = {new: data[old] for old, new in renamed.items() if old in data}
    if "dark" in data and isinstance(data["dark"], bool):
        migrated["theme"] = "dark" if data["dark"] else "light"
    return migrated


#: Migrations: version n → n + 1.
MIGRATIONS: Final[Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]]] = {0: _from_version_0}


def _version_of(data: dict[str, Any]) -> int:
    version = data.get("version", 0)
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise ValueError(f"invalid settings version {version!r}")
    return version


def migrate_settings(data: dict[str, Any]) -> dict[str, Any]:
    """Bring raw settings data up to SETTINGS_VERSION (newer data is returned as is)."""
    version = _version_of(data)
    while version < SETTINGS_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
    return data


def settings_from_data(data: Mapping[str, Any]) -> Settings:
    """Typed settings from migrated data: unknown keys ignored, a bad value replaced by its key's default."""
    defaults = Settings()
    values: dict[str, Any] = {}
    for spec in fields(Settings):
        if spec.name not in data:
            continue
        raw = data[spec.name]
        value = None if raw is None else _VALIDATORS[spec.name](raw)
        if value is None and getattr(defaults, spec.name) is not None:
            log.warning("settings: ignoring the invalid value of %s", spec.name)
            continue
        values[spec.name] = value
    return replace(defaults, **values)


def settings_to_data(settings: Settings) -> dict[str, Any]:
    """The JSON written to settings.json."""
    data: dict[str, Any] = {"version": SETTINGS_VERSION}
    for spec in fields(Settings):
        value = getattr(settings, spec.name)
        data[spec.name] = list(value) if isinstance(value, tuple) else value
    return data


# --- the file -----------------------------------------------------------------------------------


def settings_path() -> Path:
    """``config_dir()/settings.json``."""
    return config_dir() / SETTINGS_FILE


def _set_aside(path: Path, problem: str) -> None:
    """Keep a file that cannot be read as ``settings.json.corrupt`` for the GM (or a bug report)."""
    log.warning("settings: %s; using the defaults and keeping the file as %s%s", problem.rstrip("."), path.name,
                CORRUPT_SUFFIX)
    with contextlib.suppress(OSError):
        os.replace(path, path.with_name(path.name + CORRUPT_SUFFIX))


def load_settings() -> Settings:
    """The saved settings, or the defaults; never raises (see the module docstring)."""
    path = settings_path()
    if not path.exists():
        return Settings()
    try:
        raw = read_limited(path, MAX_SETTINGS_BYTES)
    except StorageError as error:
        if isinstance(error.__cause__, OSError):  # unreadable now (permissions, a lock): not corrupt
            log.warning("settings: %s; using the defaults for this run", error)
            return Settings()
        _set_aside(path, str(error))  # too large to be settings
        return Settings()
    try:
        data = parse_json(path, raw)
        if not isinstance(data, dict):
            raise ValueError("the settings file does not hold an object")
        return settings_from_data(migrate_settings(data))
    except (StorageError, ValueError, KeyError, TypeError) as error:
        _set_aside(path, str(error))
        return Settings()


def save_settings(settings: Settings) -> None:
    """Write the settings atomically; StorageError (a message for the GM) if the disk refuses."""
    text = json.dumps(settings_to_data(settings), indent=2, ensure_ascii=False) + "\n"
    atomic_write_text(settings_path(), text)


def with_recent_file(settings: Settings, path: Path | str) -> Settings:
    """``path`` first in the recent files (moved up if it was there), at most MAX_RECENT kept."""
    text = os.path.abspath(path)
    key = _same_file_key(text)
    rest = tuple(item for item in settings.recent_files if _same_file_key(item) != key)
    return replace(settings, recent_files=((text, *rest))[:MAX_RECENT])


def without_recent_file(settings: Settings, path: Path | str) -> Settings:
    """``path`` removed from the recent files (it was moved or deleted)."""
    key = _same_file_key(os.path.abspath(path))
    return replace(settings, recent_files=tuple(item for item in settings.recent_files
                                                 if _same_file_key(item) != key))
