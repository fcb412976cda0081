"""Člověk's turn order without an initiative roll (clovek.md, Actions, reactions, turns):

"in a round the characters take turns, ordered by alternation, by the conflict's logic or, in some kinds of conflict,
by initiative. Decision: the GM picks the ordering per conflict (default: initiative in fights, as in the seed's chase
example)."
"""

from __future__ import annotations

from rules.combatants import AddCombatant, SetOption
from rules.encounter import Side, frozen_map
from rules.history import History
from rules.systems.clovek import SYSTEM
from rules.turns import NextTurn
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
