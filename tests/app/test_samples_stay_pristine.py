"""A shipped sample opened through File → Open is a copy, as from the welcome page: saving it asks for a new
file, and the sample the next GM opens is still the one Bojovka shipped (the GUI monkey wrote over one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.library import Library
from app.samples import sample_path
from app.storage import StorageError
from app.workspace import Workspace
from rules.combatants import SetDamage
from rules.dice import Roller


def test_a_sample_opened_by_its_path_is_never_saved_over(tmp_path: Path) -> None:
    sample = sample_path("walka")
    shipped = sample.read_bytes()
    workspace = Workspace(roller=Roller.seeded(1), library=Library(tmp_path / "library.sqlite3"))
    try:
        workspace.open(sample)
        assert workspace.document.path is None and workspace.document.system.id == "walka"
        combatant = next(iter(workspace.document.state.combatants))
        workspace.document.apply(SetDamage(combatant, "hp", 1))
        with pytest.raises(StorageError, match="Choose a file name first"):
            workspace.save()  # Ctrl+S: the window then asks for a file name
        saved = workspace.save(tmp_path / "mine.bojovka")
        assert saved == tmp_path / "mine.bojovka" and workspace.document.path == saved
    finally:
        workspace.close(keep_journal=False)
    assert sample.read_bytes() == shipped
    assert not sample.with_name(sample.name + ".bak").exists()
