"""Člověk's turn order without an initiative roll (clovek.md, Actions, reactions, turns):

"in a round the characters take turns, ordered by alternation, by the conflict's logic or, in some kinds of conflict,
by initiative. Decision: the GM picks the ordering per conflict (default: initiative in fights, as in the seed's chase
example)."
"""

from __future__ import annotations

import pytest

from rules.combatants import AddCombatant, SetOption
from rules.encounter import Side, frozen_map
from rules.errors import OperationError, RulesError
from rules.history import History
from rules.systems.clovek import SYSTEM, SetTurnPlace
from rules.turns import NextTurn, RollInitiative
from tests.rules.test_clovek_scenes import ADRIANA, BEATRICE, left, roll, seed_fight


def _acting(history: History) -> str:
    slot = history.state.clock.current
    assert slot is not None
    return history.state.combatant(slot.ids[0]).name


def _round(history: History) -> list[str]:
    names = []
    while history.state.clock.current is not None:
        names.append(_acting(history))
        history.do(NextTurn())
    return names


def _two_sides() -> History:
    """Beatrice, Cesare and a third player, Dante; Adriana and a guard oppose them (in that list order)."""
    history = seed_fight()
    history.do(AddCombatant("d", "Dante", Side.PLAYER, frozen_map(BEATRICE)))
    history.do(AddCombatant("g", "Guard", Side.OPPONENT, frozen_map(ADRIANA)))
    return history


def test_initiative_is_the_default() -> None:
    history = _two_sides()
    assert SYSTEM.turn_order(history.state) == "initiative"
    assert SYSTEM.initiative_inputs(history.state.combatant("b"), history.state)  # mental dice may be risked
    from app.document import EncounterDocument
    from app.session import FightSession

    assert not FightSession(EncounterDocument(history)).nothing_to_roll()


def test_roll_initiative_from_the_app_starts_an_alternating_round() -> None:
    from app.document import EncounterDocument
    from app.session import FightSession
    from rules.dice import Roller

    history = _two_sides()
    history.do(SetOption("turn_order", "alternation"))
    session = FightSession(EncounterDocument(history), Roller.seeded(1))
    assert session.nothing_to_roll()  # the window starts the round at R, without the roll dialog
    session.roll_initiative()
    assert _acting(session.document.history) == "Beatrice"


def test_alternation_needs_no_roll_and_alternates_the_sides_in_list_order() -> None:
    history = _two_sides()
    history.do(SetOption("turn_order", "alternation"))
    beatrice = history.state.combatant("b")
    assert SYSTEM.initiative_inputs(beatrice, history.state) == ()
    assert SYSTEM.initiative_dice(beatrice, history.state).count == 0
    mental_before = left(history, "b")[2]
    roll(history, dict.fromkeys("bcadg", ()))  # Roll initiative only starts the round: no dice to roll
    assert _round(history) == ["Beatrice", "Adriana", "Cesare", "Guard", "Dante"]
    assert left(history, "b")[2] == mental_before  # no mental dice risked


def test_by_the_conflicts_logic_there_is_no_roll_and_the_gm_arranges_the_order() -> None:
    # "ordered by alternation, by the conflict's logic or … by initiative"; the GM picks per conflict.
    history = _two_sides()
    history.do(SetOption("turn_order", "logic"))
    beatrice = history.state.combatant("b")
    assert SYSTEM.initiative_inputs(beatrice, history.state) == ()
    assert SYSTEM.initiative_dice(beatrice, history.state).count == 0
    mental_before = left(history, "b")[2]
    entry = history.do(SetTurnPlace("g", 1))  # the guard bursts in first, by the scene's logic
    assert entry.text() == "The GM puts Guard at place 1 of 5 in the turn order."
    history.do(SetTurnPlace("b", 5))
    assert [SYSTEM.score_text(history.state.combatant(cid), history.state) for cid in "gcadb"] == list("12345")
    roll(history, dict.fromkeys("bcadg", ()))
    assert _round(history) == ["Guard", "Cesare", "Adriana", "Dante", "Beatrice"]
    assert left(history, "b")[2] == mental_before  # no mental dice risked
    roll(history, dict.fromkeys("bcadg", ()))  # the order holds for the whole conflict, round after round
    assert _acting(history) == "Guard"


def test_a_place_moved_mid_round_changes_who_comes_next_and_undo_restores_it() -> None:
    history = _two_sides()
    history.do(SetOption("turn_order", "logic"))
    roll(history, dict.fromkeys("bcadg", ()))
    assert _acting(history) == "Beatrice"
    history.do(NextTurn())
    assert _acting(history) == "Cesare"
    history.do(SetTurnPlace("g", 3))  # Cesare acts now; the guard comes right after him
    history.do(NextTurn())
    assert _acting(history) == "Guard"
    history.undo()
    history.undo()
    assert [s.ids[0] for s in SYSTEM.remaining_slots(history.state)] == ["c", "a", "d", "g"]


def test_alternation_alternates_the_sides_in_the_gms_order() -> None:
    history = _two_sides()
    history.do(SetOption("turn_order", "alternation"))
    history.do(SetTurnPlace("d", 1))
    history.do(SetTurnPlace("g", 2))
    roll(history, dict.fromkeys("bcadg", ()))
    assert _round(history) == ["Dante", "Guard", "Beatrice", "Adriana", "Cesare"]


def test_a_place_is_refused_by_initiative_and_outside_the_order() -> None:
    history = _two_sides()
    with pytest.raises(OperationError, match="Turns go by initiative"):
        history.do(SetTurnPlace("g", 1))
    assert SYSTEM.score_edit(history.state.combatant("g"), "1", history.state) is None  # the GM's score
    history.do(SetOption("turn_order", "logic"))
    with pytest.raises(OperationError, match="from 1 to 5, not 6"):
        history.do(SetTurnPlace("g", 6))
    with pytest.raises(RulesError, match="place in the turn order"):
        SYSTEM.score_edit(history.state.combatant("g"), "first", history.state)
    assert SYSTEM.score_edit(history.state.combatant("g"), " 2 ", history.state) == SetTurnPlace("g", 2)


def test_without_initiative_the_round_starts_without_anyone_rolling_in_the_log() -> None:
    history = _two_sides()
    history.do(SetOption("turn_order", "logic"))
    entry = history.do(RollInitiative(frozen_map(dict.fromkeys("bcadg", ())), frozen_map()))
    assert "for initiative" not in entry.text() and "Round 1 begins." in entry.text()
