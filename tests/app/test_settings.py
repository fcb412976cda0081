"""Settings: defaults, round trips, migrations from the pre-history format, and nothing lost to a bad file."""

from __future__ import annotations

import base64
import dataclasses
import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest

from app import storage
from app.library import Library
from app.paths import config_dir, documents_dir
from app.settings import (
    MAX_RECENT,
    MIGRATIONS,
    SETTINGS_VERSION,
    Settings,
    load_settings,
    migrate_settings,
    save_settings,
    settings_path,
    with_recent_file,
    without_recent_file,
)
from app.storage import StorageError
from app.workspace import Workspace

GEOMETRY = base64.b64encode(bytes(range(64))).decode()


def write(data: Any) -> Path:
    path = settings_path()
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_settings_live_in_the_config_dir(bojovka_home: Path) -> None:
    assert settings_path() == config_dir() / "settings.json"
    assert settings_path().is_relative_to(bojovka_home)


def test_missing_file_gives_defaults() -> None:
    assert load_settings() == Settings()
    assert not settings_path().exists()  # loading writes nothing


def test_defaults() -> None:
    settings = Settings()
    assert (settings.language, settings.theme, settings.recent_files, settings.last_encounter) == (
        "en", "system", (), None)
    assert not hasattr(settings, "autosave")  # always on, never a setting


def test_round_trip() -> None:
    settings = Settings(language="cs", theme="dark", recent_files=("/a/one.bojovka", "/b/two.bojovka"),
                        last_encounter="/a/one.bojovka", window_geometry=GEOMETRY, window_state=GEOMETRY,
                        player_view_geometry=GEOMETRY, last_directory="/a", default_system="sr3")
    save_settings(settings)
    assert load_settings() == settings
    data = json.loads(settings_path().read_text(encoding="utf-8"))
    assert data["version"] == SETTINGS_VERSION and data["recent_files"] == ["/a/one.bojovka", "/b/two.bojovka"]


def test_save_is_atomic_and_leaves_no_temp_file() -> None:
    save_settings(Settings(language="pl"))
    save_settings(Settings(language="ru"))
    assert [path.name for path in config_dir().iterdir()] == ["settings.json"]
    assert load_settings().language == "ru"


def test_save_failure_is_a_clear_storage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    save_settings(Settings(language="pl"))

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patch, pytest.raises(StorageError, match="the disk is full"):
        patch.setattr(os, "fsync", full)
        save_settings(Settings(language="cs"))
    assert load_settings().language == "pl"


@pytest.mark.parametrize("content", [b"{not json", b"", b"\xff\xfe\x00junk", b"[1, 2]", b'"text"',
                                     b'{"version": "one"}', b'{"version": -3}', b"[" * 100_000])
def test_corrupt_file_gives_defaults_and_is_kept_aside(content: bytes) -> None:
    path = settings_path()
    path.write_bytes(content)
    assert load_settings() == Settings()
    assert not path.exists()
    assert path.with_name("settings.json.corrupt").read_bytes() == content
    save_settings(Settings(language="cs"))  # the next save starts a fresh file
    assert load_settings().language == "cs"


def test_a_huge_file_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    path = settings_path()
    path.write_bytes(b" " * (2 * 1024 * 1024))
    assert load_settings() == Settings()
    assert path.with_name("settings.json.corrupt").exists()


def test_an_unreadable_file_is_not_called_corrupt(monkeypatch: pytest.MonkeyPatch) -> None:
    path = write({"version": 1, "language": "cs"})
    real_open = storage.open_regular

    def denied(opened: Path) -> Any:
        if opened == path:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(opened)

    with monkeypatch.context() as patch:
        patch.setattr(storage, "open_regular", denied)
        assert load_settings() == Settings()
    assert path.exists() and not path.with_name("settings.json.corrupt").exists()
    assert load_settings().language == "cs"


def test_unknown_keys_are_ignored() -> None:
    write({"version": 1, "language": "pl", "telemetry": True, "future_feature": {"x": 1}})
    assert load_settings() == Settings(language="pl")


@pytest.mark.parametrize(("key", "value"), [
    ("language", 5), ("language", "Klingon language please"), ("language", None),
    ("theme", "purple"), ("theme", True),
    ("recent_files", "one.bojovka"), ("recent_files", {"a": 1}),
    ("last_encounter", 12), ("last_encounter", ""), ("last_encounter", "bad\0path"),
    ("window_geometry", "not base64!"), ("window_geometry", 3), ("window_state", "x" * 300_000),
    ("player_view_geometry", ["AAAA"]), ("last_directory", False), ("default_system", "../../etc"),
])
def test_a_wrong_value_falls_back_to_its_default(key: str, value: Any) -> None:
    good = {"version": 1, "language": "cs", "theme": "dark", "recent_files": ["/x.bojovka"],
            "last_encounter": "/x.bojovka", "window_geometry": GEOMETRY, "window_state": GEOMETRY,
            "player_view_geometry": GEOMETRY, "last_directory": "/home/gm", "default_system": "sr3"}
    write({**good, key: value})
    loaded = load_settings()
    assert getattr(loaded, key) == getattr(Settings(), key)
    others = {name: getattr(loaded, name) for name in good if name not in ("version", key)}
    assert others == {name: (tuple(v) if isinstance(v, list) else v) for name, v in good.items()
                      if name not in ("version", key)}  # the other keys survive


def test_null_last_encounter_is_allowed() -> None:
    write({"version": 1, "last_encounter": None, "language": "ru"})
    assert load_settings() == Settings(language="ru")


def test_bad_recent_entries_are_dropped_one_by_one() -> None:
    write({"version": 1, "recent_files": ["/a.bojovka", 5, None, "", "/b.bojovka", "/a.bojovka"]})
    assert load_settings().recent_files == ("/a.bojovka", "/b.bojovka")


def test_a_long_recent_list_is_cut() -> None:
    write({"version": 1, "recent_files": [f"/f{i}.bojovka" for i in range(20_000)]})
    assert load_settings().recent_files == tuple(f"/f{i}.bojovka" for i in range(MAX_RECENT))


# --- migrations ---------------------------------------------------------------------------------


def test_every_older_version_has_a_migration() -> None:
    assert sorted(MIGRATIONS) == list(range(SETTINGS_VERSION))


def test_version_0_pre_history_file() -> None:
    """Version 0 was a flat file without "version" and with short keys."""
    write({"lang": "cs", "dark": True, "recent": ["/old/one.bojovka"], "geometry": GEOMETRY, "state": GEOMETRY,
           "last": "/old/one.bojovka", "autosave": False})
    settings = load_settings()
    assert settings == Settings(language="cs", theme="dark", recent_files=("/old/one.bojovka",),
                                last_encounter="/old/one.bojovka", window_geometry=GEOMETRY, window_state=GEOMETRY)
    save_settings(settings)
    assert json.loads(settings_path().read_text(encoding="utf-8"))["version"] == SETTINGS_VERSION
    assert load_settings() == settings


def test_version_0_light_theme_and_bad_values() -> None:
    write({"lang": 42, "dark": False})
    assert load_settings() == Settings(theme="light")
    assert migrate_settings({"dark": "yes"}) == {}


def test_a_newer_file_is_read_as_far_as_it_is_understood() -> None:
    path = write({"version": SETTINGS_VERSION + 5, "language": "pl", "hologram_mode": "on"})
    assert load_settings() == Settings(language="pl")
    assert path.exists() and not path.with_name("settings.json.corrupt").exists()


# --- recent files -------------------------------------------------------------------------------


def test_with_recent_file_puts_it_first_without_duplicates(tmp_path: Path) -> None:
    settings = Settings()
    for index in range(12):
        settings = with_recent_file(settings, tmp_path / f"fight{index}.bojovka")
    assert len(settings.recent_files) == MAX_RECENT
    assert settings.recent_files[0] == str(tmp_path / "fight11.bojovka")
    settings = with_recent_file(settings, tmp_path / "x" / ".." / "fight5.bojovka")
    assert settings.recent_files[0] == str(tmp_path / "fight5.bojovka")  # normalised, moved up
    assert len(settings.recent_files) == MAX_RECENT
    assert sum(1 for item in settings.recent_files if item.endswith("fight5.bojovka")) == 1


def test_with_recent_file_makes_the_path_absolute() -> None:
    settings = with_recent_file(Settings(), "relative.bojovka")
    assert Path(settings.recent_files[0]).is_absolute()


def test_without_recent_file(tmp_path: Path) -> None:
    settings = with_recent_file(with_recent_file(Settings(), tmp_path / "a.bojovka"), tmp_path / "b.bojovka")
    assert without_recent_file(settings, tmp_path / "a.bojovka").recent_files == (str(tmp_path / "b.bojovka"),)


def test_settings_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Settings().language = "cs"  # type: ignore[misc]


def test_an_unknown_default_game_falls_back_to_the_shipped_default() -> None:
    """A setting naming a game this Bojovka lacks (a removed plug-in) must not stop the start."""
    save_settings(Settings(language="pl"))
    data = json.loads(settings_path().read_text(encoding="utf-8"))
    settings_path().write_text(json.dumps({**data, "default_system": "no_such_game"}), encoding="utf-8")
    loaded = load_settings()
    assert loaded.default_system == Settings().default_system and loaded.language == "pl"


# --- what the workspace remembers of the GM's choices ------------------------------------------------


def _workspace() -> Workspace:
    return Workspace(library=Library(config_dir() / "library.sqlite3", seed=False))


def test_a_new_encounter_the_gm_starts_makes_its_game_the_default() -> None:
    workspace = _workspace()
    try:
        workspace.start_new("walka")
        assert workspace.document.system.id == "walka"
        assert load_settings().default_system == "walka"
        workspace.new("souboj")  # an encounter a service starts (a test, the self-test) changes nothing
        assert load_settings().default_system == "walka"
    finally:
        workspace.close(keep_journal=False)
    assert _workspace_game() == "walka"  # the next start-up's empty encounter


def _workspace_game() -> str:
    workspace = _workspace()
    try:
        return workspace.document.system.id
    finally:
        workspace.close(keep_journal=False)


def test_file_dialogs_start_in_the_folder_last_chosen(tmp_path: Path) -> None:
    workspace = _workspace()
    try:
        assert workspace.start_directory() == documents_dir()
        workspace.chose_file(tmp_path / "ambush.bojovka")
        assert workspace.start_directory() == tmp_path
        assert load_settings().last_directory == str(tmp_path)
        workspace.chose_file(tmp_path / "gone" / "x.pdf")  # a folder that does not exist (yet): not a start
        assert workspace.start_directory() == documents_dir()
    finally:
        workspace.close(keep_journal=False)


def test_a_convenience_the_disk_refuses_is_logged_not_raised(monkeypatch: pytest.MonkeyPatch,
                                                             caplog: pytest.LogCaptureFixture,
                                                             tmp_path: Path) -> None:
    workspace = _workspace()

    def refused(_settings: Settings) -> None:
        raise StorageError("Could not save “settings.json”: the disk is full.")

    try:
        with monkeypatch.context() as patch:
            patch.setattr("app.workspace.save_settings", refused)
            workspace.start_new("institut")  # the encounter starts all the same
            workspace.chose_file(tmp_path / "x.bojovka")
        assert workspace.document.system.id == "institut"
        assert "could not remember default_system" in caplog.text and "last_directory" in caplog.text
    finally:
        workspace.close(keep_journal=False)
