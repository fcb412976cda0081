"""One harness for every registered game, from its sample fight played on with operations every game has:

- undo and redo are exact inverses (everything undone gives the initial state, everything redone the last, and
  an undo followed by a redo at every step gives that step's state back);
- saving and reopening is exact (the state, the rendered log, and undo after reopening all meet the fight as it
  was), for a file as Bojovka wrote it (opened from its last state) and for one edited since (replayed in full);
- the initiative timeline followed step by step (and through undo and redo) equals one read afresh.

Which options each game reads is checked with the window's help: tests/ui/test_every_game_in_the_window.py.
No game is named here: the parameters come from the registry.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.systems import all_systems, get_system
from tests.every_game import check_reopened, check_timeline_follows, check_undo_and_redo, played, saved_and_reopened

GAMES = list(all_systems())


@pytest.mark.parametrize("system_id", GAMES)
def test_undo_and_redo_are_exact_inverses(system_id: str) -> None:
    history = played(get_system(system_id))
    assert len(history.entries) > len(get_system(system_id).sample().entries)  # it did play on
    check_undo_and_redo(history)


@pytest.mark.parametrize("system_id", GAMES)
@pytest.mark.parametrize("sealed", [True, False], ids=["as-saved", "edited"])
def test_saving_and_reopening_is_exact(system_id: str, sealed: bool, tmp_path: Path) -> None:
    history = played(get_system(system_id))
    check_reopened(history, saved_and_reopened(history, tmp_path / "fight.bojovka", sealed))


@pytest.mark.parametrize("system_id", GAMES)
def test_the_live_timeline_equals_a_fresh_one_after_every_step(system_id: str) -> None:
    check_timeline_follows(played(get_system(system_id)))
