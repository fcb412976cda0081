"""An entry keeps how the clock moved, not both whole clocks: a long fight's memory was mostly ``acted`` sets."""

from __future__ import annotations

from rules.combatants import AddCombatant
from rules.dice import Roller
from rules.encounter import Encounter, frozen_map
from rules.errors import RulesError
from rules.history import ClockChange, History
from rules.systems import get_system
from rules.turns import NextTurn, YieldTurn, current_actor, roll_initiative


def _fight(size: int = 40) -> History:
    history = History(Encounter("sr3"))
    for number in range(size):
        history.do(AddCombatant(f"c{number}", f"C{number}", attributes=frozen_map(
            {"reaction": 2 + number % 5, "initiative_dice": 1 + number % 3})))
    history.do(roll_initiative(history.state, get_system("sr3"), Roller.seeded(3)))
    return history


def test_each_next_keeps_only_who_joined_the_acted_set_and_undo_redo_are_exact() -> None:
    history = _fight()
    states = [history.state]
    for step in range(120):
        if history.state.clock.current is None:
            history.do(roll_initiative(history.state, get_system("sr3"), Roller.seeded(step)))
        elif step % 17 == 0:
            try:
                history.do(YieldTurn(str(current_actor(history.state))))
            except RulesError:  # nobody tied to yield to: a Next instead
                history.do(NextTurn())
        else:
            history.do(NextTurn())
        states.append(history.state)
    changes = [entry.delta.fields["clock"] for entry in history.entries if "clock" in entry.delta.fields]
    assert changes and all(isinstance(change, ClockChange) for change in changes)
    assert all(not change.before.acted and not change.after.acted for change in changes)
    within_a_pass = [change for change in changes if (change.before.round, change.before.pass_no)
                     == (change.after.round, change.after.pass_no)]
    assert any(change.yielded_in for change in changes)  # a yield was recorded as who joined the set
    assert within_a_pass and all(len(change.acted_in) <= 1 and not change.acted_out for change in within_a_pass)
    for expected in reversed(states[:-1]):
        history.undo()
        assert history.state == expected
    for expected in states[1:]:
        history.redo()
        assert history.state == expected
