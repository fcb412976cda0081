"""Every app test gets its own user directories: BOJOVKA_HOME points at a fresh temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.paths import HOME_VARIABLE


@pytest.fixture(autouse=True)
def bojovka_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private BOJOVKA_HOME (apart from ``tmp_path``), so no test touches the developer's real settings."""
    home = tmp_path_factory.mktemp("bojovka-home")
    monkeypatch.setenv(HOME_VARIABLE, str(home))
    return home
