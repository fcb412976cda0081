"""The change summary names what an operation changed, from the delta alone."""

from __future__ import annotations

from rules.changes import Changes
from rules.combatants import AddCombatant, ApplyHarm, EditCombatant, EditEncounter, RemoveCombatant, SetOption
from rules.dice import Roller
from rules.encounter import Side, frozen_map
from rules.history import History, new_history
from rules.systems.sr3 import SurpriseTest
from rules.systems.walka import DecideGmTie, SetSeating
from rules.turns import NextTurn, roll_initiative
from tests.rules.test_walka_scenes import roll, table


def _history() -> History:
    history = new_history("sr3", "Shack")
    history.do(AddCombatant("a", "Ann", Side.PLAYER, {"reaction": 5, "initiative_dice": 1}))
    history.do(AddCombatant("b", "Bob", Side.OPPONENT, {"reaction": 4, "initiative_dice": 1}))
    return history


def test_adding_a_combatant_changes_the_roster_and_names_who() -> None:
    history = _history()
    entry = history.do(AddCombatant("c", "Cid", Side.OPPONENT))
    what = Changes.of(entry.delta)
    assert what.roster and what.added == {"c"} and what.combatants == {"c"} and not what.removed
    assert not what.clock and not what.options and not what.effects


def test_removing_names_the_removed_combatant() -> None:
    history = _history()
    what = Changes.of(history.do(RemoveCombatant("a")).delta)
    assert what.roster and what.removed == {"a"} and what.combatants == {"a"}


def test_damage_changes_one_combatant_and_not_the_roster() -> None:
    history = _history()
    what = Changes.of(history.do(ApplyHarm("b", "physical", 3)).delta)
    assert what.combatants == {"b"} and not what.roster and not what.clock


def test_a_rename_changes_one_combatant() -> None:
    history = _history()
    what = Changes.of(history.do(EditCombatant("a", "name", "Anna")).delta)
    assert what.combatants == {"a"} and not what.roster


def test_the_turn_names_who_it_left_and_who_it_came_to() -> None:
    history = _history()
    history.do(roll_initiative(history.state, history.system, Roller.seeded(3)))
    first = history.state.clock.current
    assert first is not None
    what = Changes.of(history.do(NextTurn()).delta)
    now = history.state.clock.current
    assert what.clock and set(first.ids) <= what.turn
    assert now is None or set(now.ids) <= what.turn


def test_an_option_change_names_its_key() -> None:
    history = _history()
    key = history.system.option_specs()[0].key
    what = Changes.of(history.do(SetOption(key, history.system.option_specs()[0].default)).delta)
    assert what.options == {key} or what.empty  # setting the default again changes nothing
    spec = next(s for s in history.system.option_specs() if isinstance(s.default, bool))
    what = Changes.of(history.do(SetOption(spec.key, not spec.default)).delta)
    assert what.options == {spec.key} and not what.combatants and not what.roster


def test_a_new_name_is_a_detail() -> None:
    history = _history()
    what = Changes.of(history.do(EditEncounter("name", "Stuffer Shack")).delta)
    assert what.details and not what.combatants



def test_the_games_own_state_is_game_state() -> None:
    """Walka's seating and tie decision, SR3's surprise test: items of ``Encounter.game``, never options."""
    walka, _ids = table()
    what = Changes.of(walka.do(SetSeating(("Celina", "Ania", "Bartek"))).delta)
    assert what.game_state and not what.options and not what.combatants and not what.clock
    roll(walka, Ania=8, Bartek=3, Celina=10, GM=3)
    what = Changes.of(walka.do(DecideGmTie(players_first=False)).delta)
    assert what.game_state and not what.options
    sr3 = _history()
    what = Changes.of(sr3.do(SurpriseTest(frozen_map({"a": 3, "b": 1}))).delta)
    assert what.game_state and not what.combatants and not what.options
    undone = sr3.undo()
    assert undone is not None and Changes.of(undone.delta).game_state
