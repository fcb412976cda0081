"""Hiding a combatant from the players: an undoable operation, saved with the fight, never for a PC."""

from __future__ import annotations

import pytest

from rules.combatants import HIDDEN, EditCombatant, SetHidden, is_hidden
from rules.encounter import Side
from rules.errors import OperationError
from rules.serialize import history_from_document, history_to_document, to_data
from tests.rules.sr3_scenes import eight_characters


def test_hide_reveal_undo_and_the_log() -> None:
    history, ids = eight_characters()
    before = to_data(history.state)
    history.do(SetHidden(ids["Ganger 1"], True))
    assert is_hidden(history.state.combatant(ids["Ganger 1"]))
    assert history.entries[-1].log[0].render() == "Ganger 1 is hidden from the players."
    history.undo()
    assert to_data(history.state) == before  # a fight with nobody hidden is saved exactly as before
    history.redo()
    history.do(SetHidden(ids["Ganger 1"], False))
    assert HIDDEN not in history.state.combatant(ids["Ganger 1"]).extra
    assert history.entries[-1].log[0].render() == "Ganger 1 is revealed to the players."


def test_hidden_survives_saving_and_reopening() -> None:
    history, ids = eight_characters()
    history.do(SetHidden(ids["Ganger 3"], True))
    reopened = history_from_document(history_to_document(history))
    assert is_hidden(reopened.state.combatant(ids["Ganger 3"]))
    reopened.undo()
    assert not is_hidden(reopened.state.combatant(ids["Ganger 3"]))


def test_player_characters_are_always_shown() -> None:
    history, ids = eight_characters()
    with pytest.raises(OperationError, match="player character"):
        history.do(SetHidden(ids["Mike"], True))
    history.do(SetHidden(ids["Ganger 2"], True))
    history.do(EditCombatant(ids["Ganger 2"], "side", Side.PLAYER.value))  # joins the party: shown at once
    assert not is_hidden(history.state.combatant(ids["Ganger 2"]))
    history.do(SetHidden(ids["Mike"], False))  # revealing one already shown changes nothing
    assert history.entries[-1].log == ()
