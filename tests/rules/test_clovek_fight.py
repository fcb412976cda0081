"""A Člověk fight through the rules layer: initiative dice, the order, round ends, undo to the start and back."""

from __future__ import annotations

import pytest

from rules.combatants import AddCombatant, SetOption
from rules.encounter import Side, SlotKind, Status, frozen_map
from rules.errors import OperationError, RulesError
from rules.history import History
from rules.serialize import to_data
from rules.systems.base import Hook
from rules.systems.clovek import ClovekBurn, ClovekCheck, ClovekSpend, PowerRoll, SetInitiativeDice, SkillRoll
from rules.systems.clovek.economy import REACTION
from rules.systems.clovek.rolls import PowerSource
from rules.turns import NextTurn, YieldTurn
from tests.rules.test_clovek_scenes import left, roll, seed_fight


def order(history: History) -> list[str]:
    """Who acts now and who follows in this round."""
    state = history.state
    current = list(state.clock.current.ids) if state.clock.current else []
    return current + [cid for slot in history.system.remaining_slots(state) if slot.kind is SlotKind.ACTORS
                      for cid in slot.ids if cid not in current]


def test_two_rounds_of_a_duel() -> None:
    history = seed_fight()
    start, steps = to_data(history.state), len(history.entries)
    history.do(SetInitiativeDice("b", 3))
    history.do(SetInitiativeDice("a", 2))
    roll(history, {"b": (4, 9, 2), "a": (5, 3), "c": ()})  # Beatrice 2 + 9, Adriana 4 + 5, Cesare 3
    assert order(history) == ["b", "a", "c"]
    assert [history.system.score_text(history.state.combatant(c), history.state) for c in "bac"] == ["11", "9", "3"]
    assert left(history, "b") == (4, 6, 5) and left(history, "a") == (6, 8, 4)

    # Beatrice talks (social action), Adriana shoots her with a heavy pistol, Cesare parries nothing.
    history.do(ClovekSpend("b", "social", 3, "action", purpose="plead"))
    history.do(NextTurn())
    shot = ClovekCheck("a", SkillRoll("physical", ((8,), (10, 4), (7,)), 3, skill_name="Pistols"), target="b",
                       defence=SkillRoll("physical", ((9,),), 1, skill_name="Dodge"),
                       power=PowerRoll(PowerSource.EQUIPMENT, 3, ((5,), (8,)), name="heavy pistol"),
                       track="physical_wounds")
    history.do(shot)  # 3 successes − 1 dodged = 2; power 6 + 1 = 7 wounds
    assert history.state.combatant("b").boxes("physical_wounds") == 7
    assert left(history, "b") == (3, 3, 5)
    history.do(NextTurn())
    with pytest.raises(OperationError, match="own turn"):
        history.do(ClovekSpend("b", "physical", 1, "action"))
    history.do(NextTurn())  # the round ends

    state = history.state
    assert state.clock.pass_no == 0 and state.clock.current is None
    assert all(c.initiative is None and not c.actions_used for c in state.combatants.values())
    assert left(history, "b") == (4, 6, 8) and left(history, "a") == (6, 8, 6)

    # Round 2: both risk one die this time; a tie at 7 that the tie-break dice give Adriana; she yields.
    history.do(SetInitiativeDice("b", 1))
    history.do(SetInitiativeDice("a", 1))
    roll(history, {"b": (5,), "a": (3,), "c": ()}, {"b": (1,), "a": (6,)})
    assert order(history) == ["a", "b", "c"]
    history.do(YieldTurn("a"))
    assert order(history) == ["b", "a", "c"]
    history.do(ClovekSpend("b", "physical", 3, REACTION))
    history.do(ClovekBurn("b", "physical", 2))
    end = to_data(history.state)

    while len(history.entries) > steps:
        history.undo()
    assert to_data(history.state) == start
    while history.redo():
        pass
    assert to_data(history.state) == end


def test_a_newcomer_waits_for_the_next_round() -> None:
    history = seed_fight()
    roll(history, {"b": (), "c": (), "a": ()})
    history.do(AddCombatant("g", "Guard", Side.OPPONENT, frozen_map({"agility": 2, "composure": 9})))
    assert "g" not in order(history)
    while history.state.clock.current is not None:
        history.do(NextTurn())
    roll(history, {"b": (), "c": (), "a": (), "g": ()})
    assert order(history)[0] == "g"


def test_hooks_and_a_full_wound_track_option() -> None:
    history = seed_fight()
    system = history.system
    assert {Hook.ROUND_START, Hook.ROUND_END} <= system.hooks()
    beatrice = history.state.combatant("b").with_damage("physical_wounds", 10)
    assert system.status(beatrice, history.state) is Status.ACTIVE
    assert "Physical wounds track is full" in system.condition_notes(beatrice, history.state)
    history.do(SetOption("full_physical_wounds", "unconscious"))
    assert system.status(beatrice, history.state) is Status.UNCONSCIOUS
    with pytest.raises(RulesError):
        history.do(SetOption("full_physical_wounds", {"x": 1}))
