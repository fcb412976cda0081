"""The seed's initiative examples, driven through the history API."""

from __future__ import annotations

import pytest

from rules.combatants import AddCombatant, ApplyHarm
from rules.effects import AddEffect
from rules.encounter import Effect, Encounter, SlotKind, frozen_map
from rules.errors import OperationError
from rules.history import History
from rules.systems import get_system
from rules.systems.sr3 import initiative_passes, wound_modifiers
from rules.turns import (
    DelayAction,
    NextTurn,
    RollInitiative,
    SetInitiative,
    TakeDelayedAction,
    YieldTurn,
    current_actor,
)
from tests.rules.sr3_scenes import EIGHT, current_name, eight_characters, play_round, roll_ones

SR3 = get_system("sr3")


def _next_until(history: History, name: str) -> None:
    while current_name(history) != name:
        history.do(NextTurn())


def test_longbone_rolls_13() -> None:
    """Reaction 3 (5 with wired reflexes) + 2d6 rolling 2 and 6 = 13."""
    history = History(Encounter("sr3"))
    history.do(AddCombatant("c1", "John Longbone", attributes=frozen_map(
        {"reaction": 5, "reaction_natural": 3, "initiative_dice": 2})))
    spec = SR3.initiative_dice(history.state.combatant("c1"), history.state)
    assert (spec.base, spec.count, spec.sides) == (5, 2, 6)
    history.do(RollInitiative(frozen_map({"c1": (2, 6)}), frozen_map()))
    assert SR3.score_text(history.state.combatant("c1"), history.state) == "13 → 3"


def test_eight_character_pass_table_pure() -> None:
    assert initiative_passes(EIGHT) == [
        list(EIGHT),
        ["Mike", "Ganger 1", "Dave", "Ganger 2", "Sharon", "Richie", "Ganger 3"],
        ["Mike", "Ganger 1", "Dave"],
        ["Mike"],
    ]


def test_eight_character_pass_table_through_the_engine() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    played = play_round(history)
    by_pass: dict[int, list[tuple[str, int | None]]] = {}
    for pass_no, name, phase in played:
        by_pass.setdefault(pass_no, []).append((name, phase))
    assert by_pass[1] == [(name, score) for name, score in EIGHT.items()]
    assert by_pass[2] == [("Mike", 27), ("Ganger 1", 16), ("Dave", 12), ("Ganger 2", 9), ("Sharon", 8),
                          ("Richie", 7), ("Ganger 3", 5)]
    assert by_pass[3] == [("Mike", 17), ("Ganger 1", 6), ("Dave", 2)]
    assert by_pass[4] == [("Mike", 7)]
    assert history.state.clock.pass_no == 0 and history.state.clock.round == 1


def test_nobody_acts_twice_in_a_pass() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    played = play_round(history)
    seen = [(pass_no, name) for pass_no, name, _phase in played]
    assert len(seen) == len(set(seen))


def test_dave_wounded_after_acting_loses_his_third_pass() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Ganger 2")
    history.do(ApplyHarm(ids["Dave"], "physical", 3))  # Moderate: −2 initiative
    assert SR3.score_text(history.state.combatant(ids["Dave"]), history.state) == "20 → 10"
    played = play_round(history)
    assert (2, "Dave", 10) in played
    assert not [entry for entry in played if entry[0] == 3 and entry[1] == "Dave"]
    assert ("Dave" not in [name for _p, name, _ph in played if _p == 1])  # already acted in pass 1


def test_sharon_wounded_before_acting_goes_after_richie() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Ganger 2")
    history.do(ApplyHarm(ids["Sharon"], "physical", 3))
    history.do(NextTurn())
    assert current_name(history) == "Richie"
    history.do(NextTurn())
    assert current_name(history) == "Sharon"
    assert history.state.clock.current is not None and history.state.clock.current.phase == 16


def test_richie_keeps_his_place_before_ganger_3_after_a_tie() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(ApplyHarm(ids["Richie"], "physical", 3))  # 17 → 15, the same phase as Ganger 3
    played = play_round(history)
    first = [name for pass_no, name, _phase in played if pass_no == 1]
    second = [name for pass_no, name, _phase in played if pass_no == 2]
    assert first.index("Richie") == first.index("Ganger 3") - 1
    assert second.index("Richie") == second.index("Ganger 3") - 1


def test_tie_chain_reaction_then_natural_reaction_then_dice() -> None:
    history = History(Encounter("sr3"))
    for cid, reaction, natural in (("a", 10, 4), ("b", 10, 6), ("c", 11, 1)):
        history.do(AddCombatant(cid, cid.upper(), attributes=frozen_map(
            {"reaction": reaction, "reaction_natural": natural, "initiative_dice": 1})))
    history.do(AddCombatant("d", "D", attributes=frozen_map({"reaction": 11, "reaction_natural": 1})))
    # All score 12: c and d tie on everything but the d6 tie-break, then b beats a on natural Reaction.
    rolls = {"a": (2,), "b": (2,), "c": (1,), "d": (1,)}
    history.do(RollInitiative(frozen_map(rolls), frozen_map({"c": (3, 3), "d": (3, 5)})))
    assert [name for _p, name, _ph in play_round(history)] == ["D", "C", "B", "A", "D", "C", "B", "A"]


def test_yield_lets_the_tied_one_go_first() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(ApplyHarm(ids["Richie"], "physical", 3))
    _next_until(history, "Richie")
    history.do(YieldTurn(ids["Richie"]))
    assert current_name(history) == "Ganger 3"


def test_of_several_who_try_to_act_after_their_ties_only_the_first_may() -> None:
    """"One may choose to act after those one ties with; of several who try, only the one who would go first may"."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(ApplyHarm(ids["Richie"], "physical", 3))  # 17 − 2 = 15, tied with Ganger 3
    _next_until(history, "Richie")
    history.do(YieldTurn(ids["Richie"]))
    with pytest.raises(OperationError, match="Richie, with the same score, already did"):
        history.do(YieldTurn(ids["Ganger 3"]))
    history.do(NextTurn())
    assert current_name(history) == "Richie"


def test_wounds_at_roll_time_can_remove_a_combatant_from_the_turn() -> None:
    history, ids = eight_characters()
    history.do(ApplyHarm(ids["Camilla"], "physical", 6))
    history.do(ApplyHarm(ids["Camilla"], "stun", 6))  # Serious + Serious = −6: 9 → 3
    roll_ones(history, ids)
    assert SR3.score_text(history.state.combatant(ids["Camilla"]), history.state) == "3"
    history.do(ApplyHarm(ids["Camilla"], "stun", 3))  # stun 9: still Serious, no change
    history.do(ApplyHarm(ids["Camilla"], "physical", 3))  # physical 9, Serious: no change either
    assert SR3.score_text(history.state.combatant(ids["Camilla"]), history.state) == "3"


def test_wound_modifier_examples() -> None:
    assert wound_modifiers(6, 1) == (4, -4)  # Serious physical + Light stun = −4 initiative
    assert wound_modifiers(3, 0) == (2, -2)  # Moderate = −2
    assert wound_modifiers(0, 0) == (0, 0)


def test_mike_delays_and_interrupts_ganger_1() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(DelayAction(ids["Mike"]))
    assert current_name(history) == "Ganger 1"
    history.do(TakeDelayedAction(ids["Mike"]))
    slot = history.state.clock.current
    assert slot is not None and slot.kind is SlotKind.DELAYED and slot.phase == 26
    history.do(NextTurn())
    assert current_name(history) == "Ganger 1"
    played = play_round(history)
    assert next(name for p, name, _ph in played if p == 2) == "Mike"  # the score was not lost


def test_delayed_action_waits_for_the_end_of_the_pass() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(DelayAction(ids["Mike"]))
    played = play_round(history)
    first_pass = [(name, kind) for p, name, kind in played if p == 1]
    assert first_pass[-1] == ("Mike", None)  # after Camilla, before pass 2
    assert [name for p, name, _ph in played if p == 1].count("Mike") == 1


def test_delay_into_the_next_pass_is_lost_at_own_phase() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Ganger 3")
    history.do(DelayAction(ids["Ganger 3"], into_next_pass=True))
    assert current_name(history) == "Camilla"
    with pytest.raises(OperationError):
        history.do(TakeDelayedAction(ids["Ganger 3"]))  # not in the same pass
    history.do(NextTurn())  # pass 2 begins with Mike
    assert history.state.clock.pass_no == 2
    played = play_round(history)
    second = [name for p, name, _ph in played if p == 2]
    assert second.count("Ganger 3") == 1  # the normal action remains, the delayed one was lost
    assert any("delayed action in time" in entry.text() for entry in history.entries)


def test_delay_into_the_next_pass_taken_before_own_phase() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Ganger 3")
    history.do(DelayAction(ids["Ganger 3"], into_next_pass=True))
    history.do(NextTurn())
    assert current_name(history) == "Mike"
    history.do(TakeDelayedAction(ids["Ganger 3"]))  # interrupts at the highest phase of pass 2
    history.do(NextTurn())
    played = play_round(history)
    # The delayed action was his action of pass 2 ("cannot delay to act twice in the same pass"): no phase 5.
    assert [name for p, name, _ph in played if p == 2].count("Ganger 3") == 0


def test_camilla_delays_into_a_pass_with_no_phase_of_her_own() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Camilla")
    history.do(DelayAction(ids["Camilla"], into_next_pass=True))
    played = play_round(history)
    assert [name for p, name, _ph in played if p == 2][-1] == "Camilla"  # at the end of pass 2


def test_sharons_grenade_goes_off_in_phase_8_of_pass_2() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Sharon")
    history.do(AddEffect(Effect("grenade", "Sharon's grenade", source=ids["Sharon"], due=(1, 2, 8))))
    played = play_round(history)
    second = [name for p, name, _ph in played if p == 2]
    assert second.index("Sharon's grenade") == second.index("Sharon") - 1
    assert "grenade" not in history.state.effects


def test_current_actor_is_the_combatant_acting_now_never_a_timer() -> None:
    history, ids = eight_characters()
    assert current_actor(history.state) is None  # initiative not rolled yet
    roll_ones(history, ids)
    assert current_actor(history.state) == ids["Mike"]
    _next_until(history, "Sharon")
    history.do(AddEffect(Effect("grenade", "Sharon's grenade", source=ids["Sharon"], due=(1, 2, 8))))
    while current_name(history) != "Sharon's grenade":
        history.do(NextTurn())
    assert current_actor(history.state) is None
    history.do(NextTurn())
    assert current_actor(history.state) == ids["Sharon"]


def test_the_penalty_table_reads_as_the_wound_levels() -> None:
    """track_penalty reads a table worked out once from the thresholds (the order asks it for every combatant on
    every change): the same penalty as the level the boxes reach, a full track capped, none below one box."""
    from rules.systems.sr3.monitor import _PENALTY_BY_BOXES, BOXES, LEVEL_PENALTY, track_penalty, wound_level

    assert len(_PENALTY_BY_BOXES) == BOXES + 1
    for boxes in range(-3, 2 * BOXES + 5):
        level = wound_level(min(boxes, BOXES))
        assert track_penalty(boxes) == (LEVEL_PENALTY[level] if level else 0), boxes
    assert [track_penalty(boxes) for boxes in (0, 1, 3, 6, 10, 14)] == [0, 1, 2, 3, 3, 3]


@pytest.mark.parametrize("seed", range(20))
def test_the_scored_order_is_the_tie_chain_order(seed: int) -> None:
    """scored_pass_order works each key out once: the same order as sorting by tie_key (ties, wounds, those who
    let their ties go first, those with no initiative or none left in this pass), each with its score."""
    import random

    from rules.encounter import Combatant, Initiative
    from rules.systems.sr3.initiative import pass_order, score, scored_pass_order, tie_key

    rng = random.Random(seed)
    combatants = [Combatant(f"c{number}", f"C{number}", attributes=frozen_map(
        {"reaction": rng.randint(2, 4), **({"reaction_natural": rng.randint(2, 4)} if rng.random() < 0.3 else {})}),
        damage=frozen_map({"physical": rng.choice((0, 0, 1, 3, 6)), "stun": rng.choice((0, 2, 10))}),
        initiative=None if rng.random() < 0.1 else Initiative(rng.randint(1, 25), tiebreak=(rng.randint(1, 2),)))
        for number in range(30)]
    yielded = frozenset(c.id for c in combatants if rng.random() < 0.2)
    for pass_no in (1, 2, 3):
        expected = sorted([c for c in combatants if (score(c, pass_no) or 0) > 0],
                          key=lambda c: tie_key(c, pass_no, yielded), reverse=True)
        scored = scored_pass_order(combatants, pass_no, yielded)
        assert [c.id for c, _value in scored] == [c.id for c in expected]
        assert [value for _c, value in scored] == [score(c, pass_no) for c in expected]
        assert pass_order(combatants, pass_no, yielded) == expected


def test_a_combatants_standing_is_worked_out_once_per_combatant_object() -> None:
    """The order of a pass reads every combatant's status and wound penalty on each change: each combatant object
    is read once (a memo by identity), and a wounded combatant, a new object, is read afresh."""
    from rules.systems.sr3 import initiative, monitor

    history, ids = eight_characters()
    roll_ones(history, ids)
    dave = history.state.combatant(ids["Dave"])
    first = initiative.standing(dave)
    assert initiative.standing(dave) is first
    assert first == (monitor.status(0, 0, dave.attribute("body")), 0, dave.attribute("reaction"),
                     dave.attribute("reaction_natural", dave.attribute("reaction")))
    history.do(ApplyHarm(ids["Dave"], "physical", 10))
    hurt = history.state.combatant(ids["Dave"])
    assert initiative.standing(hurt).status is monitor.status(10, 0, hurt.attribute("body"))
    assert initiative.standing(hurt).penalty == initiative.wound_initiative_penalty(hurt)
    assert get_system("sr3").status(hurt, history.state) is initiative.standing(hurt).status
    assert ids["Dave"] not in {cid for slot in get_system("sr3").remaining_slots(history.state) for cid in slot.ids}


@pytest.mark.parametrize("seed", range(12))
def test_the_remaining_order_leaves_out_exactly_who_cannot_act(seed: int) -> None:
    """remaining_slots reads the surprise test once for everyone: those it keeps are exactly those can_act allows
    (knocked out, completely surprised in the first pass, partly surprised, acted), in the pass order."""
    import random

    from rules.systems.sr3.initiative import pass_order
    from rules.systems.sr3.surprise import with_surprise

    rng = random.Random(seed)
    history = History(Encounter("sr3"))
    for number in range(24):
        history.do(AddCombatant(f"c{number}", f"C{number}", attributes=frozen_map({"reaction": rng.randint(2, 6)})))
        history.do(SetInitiative(f"c{number}", rng.randint(1, 30)))
        if rng.random() < 0.2:
            history.do(ApplyHarm(f"c{number}", rng.choice(("physical", "stun")), rng.choice((3, 10))))
    ids = list(history.state.combatants)
    restricted = {cid: tuple(rng.sample(ids, rng.choice((0, 0, 2)))) for cid in ids if rng.random() < 0.4}
    surprised_state = with_surprise(history.state, restricted)
    for pass_no, acting in ((1, 5), (1, 9), (2, 5), (2, 0)):  # the same pass with others acted: the kept order
        state = surprised_state.with_clock(round=1, pass_no=pass_no, acted=frozenset(rng.sample(ids, acting)))
        expected = [c.id for c in pass_order(state.combatants.values(), pass_no, state.clock.yielded)
                    if c.id not in state.clock.acted and SR3.can_act(c, state)]
        slots = SR3.remaining_slots(state)
        assert [cid for slot in slots if slot.kind is SlotKind.ACTORS for cid in slot.ids] == expected
        surprised = [cid for cid, others in restricted.items() if not others]
        if pass_no == 1 and surprised:
            assert not set(surprised) & set(expected)


@pytest.mark.parametrize("seed", range(20))
def test_the_order_kept_between_changes_equals_the_order_worked_out_afresh(seed: int) -> None:
    """PassOrder re-keys only the combatants a change touched: after each of a run of wounds, heals, yields,
    new passes and roster changes, its order is the one scored_pass_order gives for the state from scratch
    (full ties in roster order included: every third combatant shares its whole key with another)."""
    import random

    from rules.encounter import Combatant, Initiative
    from rules.systems.sr3.initiative import PassOrder, scored_pass_order

    rng = random.Random(seed)

    def fighter(number: int) -> Combatant:
        return Combatant(f"c{number}", f"C{number}", attributes=frozen_map({"reaction": 3 if number % 3 else 4}),
                         initiative=Initiative(rng.choice((8, 12, 12, 19, 25)), tiebreak=(number % 3 == 0,)))

    combatants = {c.id: c for c in map(fighter, range(40))}
    kept, pass_no, yielded, left_out = PassOrder(), 1, frozenset[str](), frozenset[str]()
    for _step in range(60):
        move = rng.random()
        if move < 0.6:  # a wound or a heal on one or two combatants: the kept order is re-keyed for them
            for cid in rng.sample(sorted(combatants), rng.choice((1, 1, 2))):
                track = rng.choice(("physical", "stun"))
                combatants[cid] = combatants[cid].with_damage(track, rng.choice((0, 1, 3, 6, 10)))
        elif move < 0.7:
            yielded = frozenset(rng.sample(sorted(combatants), 3))
        elif move < 0.8:
            pass_no = rng.choice((1, 2, 3))
        elif move < 0.9:
            left_out = frozenset(rng.sample(sorted(combatants), rng.choice((0, 2))))
        else:  # someone joins (at the end) or leaves: the kept order follows the roster
            number = rng.randint(0, 60)
            if f"c{number}" in combatants and len(combatants) > 10:
                del combatants[f"c{number}"]
            else:
                combatants[f"c{number}"] = fighter(number)
        roster = dict(combatants)
        expected = [(c.id, value) for c, value in scored_pass_order(
            (c for c in roster.values() if c.id not in left_out), pass_no, yielded, active_only=True)]
        shown = [(slot.ids[0], slot.phase) for slot in kept.slots(roster, pass_no, yielded, left_out)]
        assert shown == expected
