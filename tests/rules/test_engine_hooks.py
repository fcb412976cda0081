"""The turn engine knows no game: where games differ it asks the RuleSystem, and does what the game says.

Parametrised over the registry (:func:`rules.systems.all_systems`); no game is named here.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rules.combatants import AddCombatant, SpendAction
from rules.encounter import Combatant, Delay, Encounter, Side, Slot, SlotKind
from rules.history import History
from rules.systems import all_systems
from rules.systems.base import BudgetItem, RuleSystem
from rules.time_units import ROUNDS
from rules.turns import DelayAction, NextTurn, current_actor

SYSTEMS = list(all_systems().values())
IDS = [system.id for system in SYSTEMS]


def _lapses_at_once(self: RuleSystem, encounter: Encounter, slot: Slot) -> Sequence[Delay]:
    return tuple(encounter.delays.values()) if slot.kind is SlotKind.ACTORS else ()


def forgetful(system: RuleSystem) -> RuleSystem:
    """The game, except that its held actions lapse as soon as anyone's turn comes."""
    game: RuleSystem = type(f"Forgetful{type(system).__name__}", (type(system),), {"lost_delays": _lapses_at_once})()
    return game


def _delayed(system: RuleSystem) -> tuple[History, str] | None:
    """The game's sample with its current actor's action held (None when the sample has no actor now)."""
    history = system.sample()
    actor = current_actor(history.state)
    if actor is None:
        return None
    history.do(DelayAction(actor))
    return history, actor


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_a_held_action_waits_unless_the_game_says_it_lapses(system: RuleSystem) -> None:
    delayed = _delayed(system)
    if delayed is None:
        pytest.skip("the sample ends with nobody acting")
    history, actor = delayed
    state = history.state
    kept = NextTurn().apply(state, system)
    entered = kept.encounter.clock.current
    if entered is None or entered.kind is not SlotKind.ACTORS:
        pytest.skip("no one else's turn comes next")
    assert actor in kept.encounter.delays  # the game's own rule: a delay to later in the pass is kept
    lost = NextTurn().apply(state, forgetful(system))
    assert actor not in lost.encounter.delays
    assert any("did not use the delayed action in time; it is lost." in line.render() for line in lost.log)
    assert any(reminder.combatant == actor for reminder in lost.reminders)


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_only_a_game_with_passes_loses_delays_by_default(system: RuleSystem) -> None:
    """Without passes nothing is ever held into a next pass, so the base rule (nothing is lost) holds."""
    delayed = _delayed(system)
    if delayed is None or system.time_units().has_passes:
        pytest.skip("a game with passes has its own rule, tested with it")
    history, _actor = delayed
    for slot in system.remaining_slots(history.state):
        assert system.lost_delays(history.state, slot) == ()


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_every_game_describes_its_time_units(system: RuleSystem) -> None:
    units = system.time_units()
    assert units.rounds.text(3)
    if not units.has_passes:
        assert units.passes is None and "pass" not in units.delayed.lower()
    if units is not ROUNDS:
        assert units.position and units.budget and units.delayed_tip


def _dances(self: RuleSystem, combatant: Combatant, encounter: Encounter) -> Sequence[BudgetItem]:
    return (BudgetItem("dance", "dancing", 0, 1),)  # no sentence of its own


def _spends_nothing(self: RuleSystem, combatant: Combatant, kind: str, encounter: Encounter) -> Combatant:
    return combatant


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_an_action_the_game_gives_no_sentence_for_is_logged_by_its_label(system: RuleSystem) -> None:
    game: RuleSystem = type(f"Dancing{type(system).__name__}", (type(system),),
                            {"action_budget": _dances, "spend_action": _spends_nothing})()
    history = History(Encounter(system.id, "Ball"))
    history.do(AddCombatant("c1", "Ann", Side.PLAYER))
    applied = SpendAction("c1", "dance").apply(history.state, game)
    assert [line.render() for line in applied.log] == ["Ann takes an action: dancing."]
