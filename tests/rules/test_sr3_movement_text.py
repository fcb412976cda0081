"""What the details panel says about movement (sr3.md, Movement): "Walk rate = Quickness, run = Quickness × 3 (dwarf
× 2). Per-phase allowance = rate ÷ passes this turn, round up … Example (Twitch, elf, Quickness 6): run 18 m, walk
6 m per turn; 3 passes → 6 m run or 2 m walk per phase"."""

from __future__ import annotations

from rules.systems.sr3.movement import combatant_allowance, movement_text, moving_tn_text
from rules.systems.sr3.tables import load_tables


def test_twitch_walks_6_and_runs_18_metres_a_turn_and_2_and_6_a_phase_over_3_passes() -> None:
    turn, phase = combatant_allowance(6, 3, 3)
    assert (turn.walk, turn.run, phase.walk, phase.run) == (6, 18, 2, 6)
    assert movement_text(6, 3, 3) == "Walk 6 m, run 18 m a turn. In each of its 3 passes: walk 2 m, run 6 m a phase."


def test_a_dwarf_runs_twice_its_quickness_and_the_share_is_rounded_up() -> None:
    turn, phase = combatant_allowance(5, 2, 3)  # run 10 m over 3 passes: 4 m a phase (10 ÷ 3 rounded up)
    assert (turn.run, phase.walk, phase.run) == (10, 2, 4)
    assert movement_text(5, 2, 1) == "Walk 5 m, run 10 m a turn. In its 1 pass: walk 5 m, run 10 m a phase."


def test_without_a_pass_only_the_turns_rates_are_given() -> None:
    assert movement_text(4, 3, 0) == "Walk 4 m, run 12 m a turn."


def test_the_moving_modifiers_come_from_the_tables() -> None:
    assert moving_tn_text() == "Acting once moved: walking +1 TN (difficult terrain +2), running +4 (+6)."
    changed = load_tables({"ranged_modifiers": {"attacker_running": 3}})
    assert "running +3 (+6)" in moving_tn_text(changed)
