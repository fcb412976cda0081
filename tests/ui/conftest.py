"""Every UI test runs with its own BOJOVKA_HOME, so nothing touches the developer's real data."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point every user directory at a fresh temporary folder."""
    home = tmp_path / "bojovka-home"
    monkeypatch.setenv("BOJOVKA_HOME", str(home))
    return home
