"""The status line names whoever acts now, with the verb in the right number for a group acting together."""

from __future__ import annotations

import pytest

from rules.systems import get_system
from ui.status import fight_status


def _status(game: str) -> str:
    system = get_system(game)
    state = system.sample().state
    assert state.clock.current is not None
    return fight_status(state, system)


@pytest.mark.parametrize(("game", "acting"), [
    ("souboj", "Bora, Aleš, Bandit 1 act (initiative 4)"),  # a group at one score: "act", not "acts"
    ("walka", "Kira, Osa act"),  # a seat acting for two characters
    ("sr3", "Wedge acts (phase 13)"),
    ("institut", "Arkhipov acts"),
])
def test_the_verb_agrees_with_how_many_act(game: str, acting: str) -> None:
    assert _status(game).endswith(acting)
