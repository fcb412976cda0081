"""The initiative timeline read from the history: the seed's pass table, wounds, delays, ties, seats, undo."""

from __future__ import annotations

from dataclasses import fields

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules.combatants import ApplyHarm, RemoveCombatant, SpendAction
from rules.encounter import Clock, Encounter
from rules.history import Batch, History
from rules.systems.souboj import Declare
from rules.systems.souboj.model import Action
from rules.systems.walka import SetSeating
from rules.timeline import DelayLink, Mark, MarkKind, ScoreStep, Timeline, TurnTimeline
from rules.timeline_fold import projection_key
from rules.turns import DelayAction, NextTurn, TakeDelayedAction, YieldTurn
from tests.rules.sr3_scenes import EIGHT, current_name, eight_characters, play_round, roll_ones
from tests.rules.test_souboj_scene import SOUBOJ, fight
from tests.rules.test_souboj_scene import roll as souboj_roll
from tests.rules.test_walka_scenes import roll as walka_roll
from tests.rules.test_walka_scenes import table

#: The seed's table, pass by pass: 37 → 27 → 17 → 7, …, Camilla only in pass 1.
SEED_PASSES: dict[str, list[int]] = {name: [score - 10 * n for n in range(4) if score - 10 * n > 0]
                                     for name, score in EIGHT.items()}


def _timeline(history: History) -> TurnTimeline:
    timeline = Timeline(history)
    timeline.sync()
    turn = timeline.latest()
    assert turn is not None
    return turn


def _by_name(turn: TurnTimeline, ids: dict[str, str], *kinds: MarkKind) -> dict[str, list[tuple[int, int | None]]]:
    return {name: turn.phases(ids[name], *kinds) for name in ids}


def _next_until(history: History, name: str) -> None:
    while current_name(history) != name:
        history.do(NextTurn())


def _mark(turn: TurnTimeline, combatant: str, pass_no: int, kind: MarkKind) -> Mark:
    return next(m for m in turn.marks if (m.combatant, m.pass_no, m.kind) == (combatant, pass_no, kind))


# --- the seed's eight characters ----------------------------------------------------------------------


def test_before_anyone_rolls_there_is_no_turn() -> None:
    history, _ids = eight_characters()
    timeline = Timeline(history)
    timeline.sync()
    assert timeline.rounds == ()
    assert timeline.latest() is None


def test_at_the_roll_the_whole_pass_table_is_scheduled() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    turn = _timeline(history)
    expected = {name: [(n + 1, phase) for n, phase in enumerate(phases)] for name, phases in SEED_PASSES.items()}
    assert _by_name(turn, ids) == expected
    assert turn.phases(ids["Mike"], MarkKind.ACTED) == [(1, 37)]  # Mike acts now
    assert _by_name(turn, ids, MarkKind.SCHEDULED)["Mike"] == [(2, 27), (3, 17), (4, 7)]
    assert [turn.names[i] for i in turn.lanes] == list(EIGHT)
    assert turn.passes == 4
    assert turn.now is not None and (turn.now.pass_no, turn.now.phase, turn.now.ids) == (1, 37, (ids["Mike"],))


def test_after_the_turn_every_scheduled_phase_was_acted() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    play_round(history)
    turn = _timeline(history)
    acted = _by_name(turn, ids, MarkKind.ACTED)
    assert acted == {name: [(n + 1, phase) for n, phase in enumerate(phases)] for name, phases in
                     SEED_PASSES.items()}
    assert not [m for m in turn.marks if m.kind is not MarkKind.ACTED]
    assert turn.now is None
    assert turn.slots == {1: 8, 2: 7, 3: 3, 4: 1}
    pass_two = sorted((m.slot, turn.names[m.combatant]) for m in turn.marks if m.pass_no == 2)
    assert [name for _slot, name in pass_two] == ["Mike", "Ganger 1", "Dave", "Ganger 2", "Sharon", "Richie",
                                                  "Ganger 3"]


def test_dave_wounded_after_acting_drops_a_step_and_loses_pass_3() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Ganger 2")
    history.do(ApplyHarm(ids["Dave"], "physical", 3))
    play_round(history)
    turn = _timeline(history)
    dave = ids["Dave"]
    assert turn.phases(dave, MarkKind.ACTED) == [(1, 22), (2, 10)]
    assert turn.phases(dave, MarkKind.PLANNED) == [(2, 12), (3, 2)]  # where the roll had put him
    assert turn.steps == (ScoreStep(dave, 1, 19, 3, 22, 20),)
    assert turn.phases(ids["Mike"], MarkKind.PLANNED) == []


def test_sharon_wounded_before_acting_acts_after_richie() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Ganger 2")
    history.do(ApplyHarm(ids["Sharon"], "physical", 3))
    live = _timeline(history)
    assert live.phases(ids["Sharon"], MarkKind.SCHEDULED) == [(1, 16), (2, 6)]
    play_round(history)
    turn = _timeline(history)
    sharon, richie = (_mark(turn, ids[name], 1, MarkKind.ACTED) for name in ("Sharon", "Richie"))
    assert (sharon.phase, richie.phase) == (16, 17)
    assert sharon.slot == richie.slot + 1
    assert turn.phases(ids["Sharon"], MarkKind.PLANNED) == [(1, 18), (2, 8)]
    assert [(s.before, s.after, s.at_phase) for s in turn.steps] == [(18, 16, 19)]


def test_a_wound_that_ends_the_turn_steps_to_none() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(ApplyHarm(ids["Camilla"], "physical", 10))  # Deadly: unconscious
    turn = _timeline(history)
    camilla = ids["Camilla"]
    assert turn.phases(camilla) == []
    assert turn.phases(camilla, MarkKind.PLANNED) == [(1, 9)]
    assert turn.steps[-1].combatant == camilla and turn.steps[-1].after is None


def test_actions_spent_and_reset_at_a_new_pass_are_no_score_change() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Camilla")
    history.do(SpendAction(ids["Camilla"], "simple"))
    history.do(SpendAction(ids["Mike"], "free"))
    history.do(NextTurn())  # pass 2 begins: everyone's actions are counted afresh
    assert _timeline(history).steps == ()


def test_mike_delays_and_interrupts_ganger_1() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(DelayAction(ids["Mike"]))
    history.do(TakeDelayedAction(ids["Mike"]))
    turn = _timeline(history)
    held, taken = _mark(turn, ids["Mike"], 1, MarkKind.DELAYED), _mark(turn, ids["Mike"], 1, MarkKind.TAKEN)
    assert (held.phase, taken.phase) == (37, 26)
    assert turn.links == (DelayLink(held, taken),)
    assert turn.now is not None and turn.now.ids == (ids["Mike"],) and turn.now.slot == taken.slot
    history.do(NextTurn())  # back to Ganger 1, whose phase it is
    play_round(history)
    turn = _timeline(history)
    ganger = _mark(turn, ids["Ganger 1"], 1, MarkKind.ACTED)
    assert ganger.phase == 26 and ganger.slot == _mark(turn, ids["Mike"], 1, MarkKind.TAKEN).slot + 1
    assert turn.phases(ids["Mike"], MarkKind.ACTED) == [(2, 27), (3, 17), (4, 7)]


def test_a_delay_to_the_end_of_the_pass_is_taken_at_phase_0() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(DelayAction(ids["Mike"]))
    play_round(history)
    turn = _timeline(history)
    assert turn.phases(ids["Mike"], MarkKind.TAKEN) == [(1, 0)]
    assert _mark(turn, ids["Mike"], 1, MarkKind.TAKEN).slot == 8  # after Camilla


def test_a_delay_into_the_next_pass_links_across_passes() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Ganger 3")
    history.do(DelayAction(ids["Ganger 3"], into_next_pass=True))
    history.do(NextTurn())
    history.do(TakeDelayedAction(ids["Ganger 3"]))
    turn = _timeline(history)
    (link,) = turn.links
    assert (link.held.pass_no, link.held.phase) == (1, 15)
    assert (link.taken.pass_no, link.taken.phase) == (2, 27)
    # sr3.md: a delay into the next pass "replaces the normal action of that pass": no phase 5 to come.
    assert turn.phases(ids["Ganger 3"], MarkKind.SCHEDULED) == []


def test_a_yield_moves_the_turn_after_the_tie() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(ApplyHarm(ids["Richie"], "physical", 3))  # 17 → 15, tied with Ganger 3
    _next_until(history, "Richie")
    history.do(YieldTurn(ids["Richie"]))
    play_round(history)
    turn = _timeline(history)
    richie, ganger = (_mark(turn, ids[name], 1, MarkKind.ACTED) for name in ("Richie", "Ganger 3"))
    assert richie.phase == ganger.phase == 15
    assert richie.slot == ganger.slot + 1


def test_earlier_turns_stay_as_they_were_played() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    play_round(history)
    first = _timeline(history)
    history.do(ApplyHarm(ids["Mike"], "physical", 6))
    roll_ones(history, ids)
    timeline = Timeline(history)
    timeline.sync()
    assert timeline.rounds == (1, 2)
    assert timeline.turn(1) == first
    assert timeline.turn(2).phases(ids["Mike"]) == [(1, 34), (2, 24), (3, 14), (4, 4)]  # Serious: −3


def test_a_removed_combatant_keeps_its_name_in_old_turns() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    play_round(history)
    history.do(RemoveCombatant(ids["Camilla"]))
    timeline = Timeline(history)
    timeline.sync()
    assert timeline.turn(1).names[ids["Camilla"]] == "Camilla"


def test_a_batch_is_read_operation_by_operation() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(Batch((NextTurn(), NextTurn(), NextTurn()), "Three turns"))
    turn = _timeline(history)
    acted = sorted(turn.names[m.combatant] for m in turn.marks if m.kind is MarkKind.ACTED)
    assert acted == sorted(["Mike", "Ganger 1", "Dave", "Ganger 2"])


# --- round-based games ------------------------------------------------------------------------------------


def test_souboj_ties_share_one_slot_captioned_with_the_score() -> None:
    history, ids = fight()
    souboj_roll(history, ids, Aleš=6, Bora=4, Cyril=4, Bandit=4, Chief=1)
    live = _timeline(history)
    assert not live.has_passes and live.passes == 1
    by_name = {live.names[m.combatant]: (m.slot, m.kind, m.caption) for m in live.marks}
    assert by_name == {"Aleš": (0, MarkKind.ACTED, "6"), "Bora": (1, MarkKind.SCHEDULED, "4"),
                       "Cyril": (1, MarkKind.SCHEDULED, "4"), "Bandit": (1, MarkKind.SCHEDULED, "4"),
                       "Chief": (2, MarkKind.SCHEDULED, "1")}
    history.do(Declare(ids["Bandit"], Action.MAGIC))
    while history.state.clock.current is not None:
        history.do(NextTurn())
    turn = _timeline(history)
    assert {turn.names[m.combatant]: (m.slot, m.kind) for m in turn.marks} == {
        "Aleš": (0, MarkKind.ACTED), "Bora": (1, MarkKind.ACTED), "Cyril": (1, MarkKind.ACTED),
        "Bandit": (1, MarkKind.ACTED), "Chief": (2, MarkKind.ACTED)}
    assert turn.steps == () and turn.links == ()
    assert [turn.names[i] for i in turn.lanes] == ["Aleš", "Bora", "Cyril", "Bandit", "Chief"]  # as rolled


def test_walka_slots_are_captioned_with_the_seat() -> None:
    history, ids = table()
    walka_roll(history, Ania=8, Bartek=5, Celina=2, GM=11)
    turn = _timeline(history)
    captions = {turn.names[m.combatant]: (m.slot, m.caption) for m in turn.marks}
    assert captions == {"Nova": (0, "Celina"), "Ganger 1": (1, "GM"), "Ganger 2": (1, "GM"),
                        "Kira": (2, "Ania"), "Drone": (2, "Ania"), "Wedge": (3, "Bartek")}
    assert turn.now is not None and turn.now.slot == 0 and turn.now.ids == (ids["Nova"],)


def test_a_walka_seat_reorder_reaches_a_timeline_already_drawn() -> None:
    """The remembered order still to come depends on the game's own state too (it once missed the seats)."""
    history, _ids = table()
    walka_roll(history, Ania=8, Bartek=5, Celina=2, GM=11)  # Celina, the GM, Ania, Bartek
    timeline = Timeline(history)
    timeline.sync()
    before = timeline.latest()
    history.do(SetSeating(("Celina", "Bartek", "Ania")))  # now Celina, Bartek, Ania, the GM
    timeline.sync()
    after = timeline.latest()
    assert after == _timeline(history) != before
    assert after is not None and [after.names[m.combatant] for m in after.marks if m.slot == 1] == ["Wedge"]


def test_the_projection_follows_every_field_of_the_encounter() -> None:
    """Every field but the clock (whose acted and current the projection follows by itself) is in its key."""
    key = projection_key(Encounter("walka"))
    assert len(key) == len(fields(Encounter)) - 1 + len(fields(Clock)) - 2
    assert Encounter("walka").game in key


# --- keeping up with the history --------------------------------------------------------------------------

_ACTIONS = st.lists(st.sampled_from(["next", "next", "next", "harm", "delay", "take", "yield", "undo", "redo",
                                     "roll"]), min_size=1, max_size=60)


def _perform(history: History, ids: dict[str, str], action: str, step: int) -> None:
    state = history.state
    current = state.clock.current
    names = list(ids.values())
    try:
        if action == "undo":
            history.undo()
        elif action == "redo":
            history.redo()
        elif action == "roll":
            roll_ones(history, ids)
        elif action == "harm":
            history.do(ApplyHarm(names[step % len(names)], "physical", 1 + step % 3))
        elif action == "delay" and current is not None:
            history.do(DelayAction(current.ids[0], into_next_pass=step % 2 == 1))
        elif action == "take":
            history.do(TakeDelayedAction(next(iter(state.delays))))
        elif action == "yield" and current is not None:
            history.do(YieldTurn(current.ids[-1]))
        else:
            history.do(NextTurn())
    except (ValueError, StopIteration):
        pass  # refused (not possible now): nothing happened


def _all_turns(timeline: Timeline) -> list[TurnTimeline]:
    return [timeline.turn(r) for r in timeline.rounds]


@settings(max_examples=40, deadline=None)
@given(_ACTIONS)
# Found by this test: Ganger 3 takes in pass 2 a delay carried from pass 1 (that pass's action); the chart followed
# step by step still showed his own pass-2 turn as to come.
@example(["next"] * 7 + ["undo", "harm", "delay"] + ["next"] * 6 + ["harm", "harm", "harm", "take"])
def test_following_the_history_step_by_step_gives_what_reading_it_once_gives(actions: list[str]) -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    followed = Timeline(history)
    followed.sync()
    for step, action in enumerate(actions):
        _perform(history, ids, action, step)
        if step % 3 == 0:  # a hidden chart reads several changes (an undo and a new step) at once
            followed.sync()
            _all_turns(followed)  # folds cached then must not go stale
    followed.sync()
    fresh = Timeline(history)
    fresh.sync()
    assert _all_turns(followed) == _all_turns(fresh)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["next", "next", "harm", "yield", "undo", "roll"]),
                          st.integers(1, 6)), min_size=1, max_size=40))
def test_a_souboj_fight_followed_step_by_step_reads_as_a_fresh_one(steps: list[tuple[str, int]]) -> None:
    history, ids = fight()
    setup = len(history.entries)
    followed = Timeline(history)
    for action, face in steps:
        state = history.state
        try:
            if action == "undo":
                if len(history.entries) > setup:  # the combatants stay
                    history.undo()
            elif action == "roll":
                souboj_roll(history, ids, **{name: (face + n) % 6 + 1 for n, name in enumerate(ids)
                                            if SOUBOJ.can_act(state.combatant(ids[name]), state)})
            elif action == "harm":
                history.do(ApplyHarm(ids["Bandit"], "wounds", face))
            elif action == "yield" and state.clock.current is not None:
                history.do(YieldTurn(state.clock.current.ids[0]))
            else:
                history.do(NextTurn())
        except ValueError:
            pass  # refused: nothing happened
        followed.sync()
        _all_turns(followed)
    fresh = Timeline(history)
    fresh.sync()
    assert _all_turns(followed) == _all_turns(fresh)


def test_an_undo_and_a_new_step_read_together_refold_the_round() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    timeline = Timeline(history)
    timeline.sync()
    history.do(NextTurn())
    timeline.sync()
    timeline.turn(1)  # cached with as many events as the round will have after the next two steps
    history.undo()
    history.do(ApplyHarm(ids["Dave"], "physical", 3))
    timeline.sync()
    fresh = Timeline(history)
    fresh.sync()
    assert timeline.turn(1) == fresh.turn(1)
    assert timeline.turn(1).phases(ids["Ganger 1"], MarkKind.ACTED) == []


def test_undoing_nexts_gives_the_turns_back_to_the_order_still_to_come() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    timeline = Timeline(history)
    history.do(NextTurn())
    history.do(NextTurn())
    timeline.sync()
    timeline.latest()  # the order still to come is remembered with Mike's and Ganger 1's turns played
    history.undo()
    history.undo()
    timeline.sync()
    turn = timeline.latest()
    assert turn is not None and turn == _timeline(history)
    assert turn.phases(ids["Ganger 1"], MarkKind.SCHEDULED) == [(1, 26), (2, 16), (3, 6)]


def test_undoing_the_roll_forgets_the_round() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    timeline = Timeline(history)
    timeline.sync()
    rounds = [timeline.rounds]
    history.undo()
    timeline.sync()
    rounds.append(timeline.rounds)
    history.redo()
    timeline.sync()
    rounds.append(timeline.rounds)
    assert rounds == [(1,), (), (1,)]


def test_a_history_that_starts_mid_round_shows_that_round() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(NextTurn())
    later = History(history.state)
    later.do(NextTurn())
    turn = _timeline(later)
    assert turn.round == 1
    assert turn.phases(ids["Dave"], MarkKind.ACTED) == [(1, 22)]
    assert turn.phases(ids["Ganger 1"], MarkKind.ACTED) == [(1, 26)]  # current when the history began
    assert turn.phases(ids["Mike"], MarkKind.SCHEDULED) == [(2, 27), (3, 17), (4, 7)]


def test_a_loaded_history_is_read_from_its_initial_state() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(NextTurn())
    replayed = History.replay(Encounter("sr3", "Seed example"), [e.operation for e in history.entries])
    assert _timeline(replayed) == _timeline(history)
