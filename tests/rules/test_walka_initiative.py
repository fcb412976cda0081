"""Walka initiative by seat (walka.md, "Initiative — by seat, not by combatant"): every statement is a test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.combatants import AddCombatant, ApplyHarm, EditCombatant, RemoveCombatant, SetOption
from rules.dice import Roller
from rules.encounter import Side, frozen_map
from rules.errors import OperationError, RulesError
from rules.systems.walka import GM_SEAT, SYSTEM, DecideGmTie, SetSeating
from rules.systems.walka.seating import effective_seat, listed_seats, table_seats
from rules.turns import (
    DelayAction,
    NextTurn,
    RollInitiative,
    SetInitiative,
    YieldTurn,
    played_order,
    roll_initiative,
)
from tests.rules.test_walka_scenes import acting, roll, round_order, table

# Names per seat, as round_order reports them.
ANIA, BARTEK, CELINA, GM = ["Kira", "Drone"], ["Wedge"], ["Nova"], ["Ganger 1", "Ganger 2"]


def test_everyone_at_the_table_rolls_one_d12() -> None:
    history, ids = table()
    assert {SYSTEM.initiative_dice(c, history.state).describe() for c in history.state.combatants.values()} == {
        "1d12"}
    history.do(roll_initiative(history.state, SYSTEM, Roller.seeded(3)))
    state = history.state
    # The seat's members share its roll: the GM's two gangers and Ania's two characters.
    assert state.combatant(ids["Kira"]).initiative == state.combatant(ids["Drone"]).initiative
    assert state.combatant(ids["Ganger 1"]).initiative == state.combatant(ids["Ganger 2"]).initiative
    assert all(len(c.initiative.dice) == 1 and 1 <= c.initiative.dice[0] <= 12
               for c in state.combatants.values() if c.initiative is not None)


def test_the_lowest_roll_starts_and_play_goes_clockwise() -> None:
    history, _ids = table()
    roll(history, Ania=8, Bartek=5, Celina=2, GM=11)  # Celina lowest: Celina, the GM, then Ania, Bartek
    assert round_order(history) == [CELINA, GM, ANIA, BARTEK]


def test_the_gm_starting_goes_to_the_gms_left_next() -> None:
    history, _ids = table()
    roll(history, Ania=8, Bartek=5, Celina=6, GM=1)
    assert round_order(history) == [GM, ANIA, BARTEK, CELINA]


def test_a_tie_between_players_goes_to_the_seat_nearer_the_gms_left() -> None:
    history, _ids = table()
    roll(history, Ania=7, Bartek=3, Celina=3, GM=9)
    assert round_order(history) == [BARTEK, CELINA, GM, ANIA]
    history, _ids = table()
    history.do(SetSeating(("Celina", "Ania", "Bartek")))  # now Celina sits nearer the GM's left
    roll(history, Ania=7, Bartek=3, Celina=3, GM=9)
    assert round_order(history) == [CELINA, ANIA, BARTEK, GM]


def test_ties_above_the_lowest_roll_change_nothing() -> None:
    history, _ids = table()
    roll(history, Ania=2, Bartek=6, Celina=6, GM=6)
    assert round_order(history) == [ANIA, BARTEK, CELINA, GM]


def test_a_tie_with_the_gm_has_a_clear_default_until_the_gm_decides() -> None:
    history, _ids = table()
    roll(history, Ania=9, Bartek=4, Celina=8, GM=4)
    tie = SYSTEM.open_tie(history.state)
    assert tie is not None and tie.roll == 4 and tie.player_seats == ("Bartek",)
    reminders = history.entries[-1].reminders
    assert reminders and "The GM ties with Bartek on 4" in reminders[0].text
    assert acting(history) == BARTEK  # option gm_tie_default: the players' side first


def test_the_gms_decision_restarts_a_round_nobody_has_acted_in() -> None:
    history, _ids = table()
    roll(history, Ania=9, Bartek=4, Celina=8, GM=4)
    history.do(DecideGmTie(players_first=False))
    assert SYSTEM.open_tie(history.state) is None
    assert "The GM decides the tie: the GM's side goes first." in history.entries[-1].text()
    assert round_order(history) == [GM, ANIA, BARTEK, CELINA]


def test_the_decision_stands_for_the_combat_when_rolled_once() -> None:
    history, _ids = table()
    roll(history, Ania=9, Bartek=4, Celina=8, GM=4)
    history.do(DecideGmTie(players_first=False))
    round_order(history)
    assert history.state.clock.round == 2  # rolled once per combat: the next round began by itself
    assert round_order(history) == [GM, ANIA, BARTEK, CELINA]


def test_the_decision_is_refused_without_a_tie_or_when_nothing_changes() -> None:
    history, _ids = table()
    roll(history, Ania=9, Bartek=4, Celina=8, GM=5)
    with pytest.raises(OperationError, match="no tie"):
        history.do(DecideGmTie(players_first=True))
    history, _ids = table()
    roll(history, Ania=9, Bartek=4, Celina=8, GM=4)
    history.do(DecideGmTie(players_first=False))
    with pytest.raises(OperationError, match="already"):
        history.do(DecideGmTie(players_first=False))


def test_a_decision_after_someone_acted_reorders_only_who_is_left() -> None:
    history, _ids = table()
    roll(history, Ania=4, Bartek=9, Celina=8, GM=4)
    assert acting(history) == ANIA
    history.do(NextTurn())
    assert acting(history) == BARTEK
    history.do(DecideGmTie(players_first=False))  # GM first: GM, Ania, Bartek, Celina; Ania has acted
    assert acting(history) == BARTEK  # whoever acts now keeps the turn
    assert round_order(history) == [BARTEK, GM, CELINA]  # the GM has not acted yet: now, before Celina


def test_the_gm_tie_default_is_an_option() -> None:
    history, _ids = table({"gm_tie_default": "gm"})
    roll(history, Ania=9, Bartek=4, Celina=8, GM=4)
    assert acting(history) == GM
    assert "the GM's side goes first until then" in history.entries[-1].reminders[0].text


def test_rolled_once_per_combat_by_default_with_an_option_to_reroll() -> None:
    history, _ids = table()
    assert SYSTEM.option(history.state, "reroll_each_round") is False
    roll(history, Ania=3, Bartek=5, Celina=7, GM=9)
    round_order(history)
    assert history.state.clock.round == 2 and acting(history) == ANIA  # no new roll needed
    with pytest.raises(OperationError):
        roll(history, Ania=3, Bartek=5, Celina=7, GM=9)  # the round is running: nothing to roll

    history, _ids = table({"reroll_each_round": True})
    roll(history, Ania=3, Bartek=5, Celina=7, GM=9)
    round_order(history)
    state = history.state
    assert state.clock.current is None and state.clock.round == 1
    assert all(c.initiative is None for c in state.combatants.values())  # the old rolls no longer hold
    with pytest.raises(OperationError, match="Roll initiative"):
        history.do(NextTurn())
    roll(history, Ania=6, Bartek=5, Celina=7, GM=1)
    assert round_order(history) == [GM, ANIA, BARTEK, CELINA]


def test_a_decision_lasts_one_round_when_rerolling() -> None:
    history, _ids = table({"reroll_each_round": True})
    roll(history, Ania=9, Bartek=4, Celina=8, GM=4)
    history.do(DecideGmTie(players_first=False))
    round_order(history)
    roll(history, Ania=9, Bartek=4, Celina=8, GM=4)
    assert SYSTEM.open_tie(history.state) is not None  # a new roll, a new question
    assert acting(history) == BARTEK


def test_the_gm_seat_acts_for_all_npcs_and_each_seat_for_its_characters() -> None:
    history, _ids = table()
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    slots = SYSTEM.remaining_slots(history.state)
    names = [[history.state.combatant(i).name for i in slot.ids] for slot in slots]
    assert names == [ANIA, BARTEK, CELINA, GM]


def test_unseated_characters_get_default_seats() -> None:
    history, ids = table()
    history.do(AddCombatant("c7", "Rook", Side.PLAYER))
    history.do(AddCombatant("c8", "Ally NPC", Side.ALLY))
    state = history.state
    assert effective_seat(state.combatant("c7")) == "Rook"  # a player character without a seat: its own
    assert effective_seat(state.combatant("c8")) == GM_SEAT  # any other character: the GM's
    assert table_seats(state) == ["Ania", "Bartek", "Celina", "Rook", GM_SEAT]
    history.do(EditCombatant(ids["Ganger 1"], "seat", "Celina"))  # a player may run an NPC
    roll(history, Ania=5, Bartek=6, Celina=7, Rook=8, GM=1)
    assert round_order(history) == [["Ganger 2", "Ally NPC"], ANIA, BARTEK, ["Nova", "Ganger 1"], ["Rook"]]


def test_set_seating_reorders_and_reassigns_in_one_step() -> None:
    history, ids = table()
    history.do(SetSeating(("Celina", " Bartek ", "Dana"), frozen_map({ids["Drone"]: "Dana", ids["Ganger 2"]: "GM"})))
    state = history.state
    assert listed_seats(state) == ("Celina", "Bartek", "Dana")
    assert state.combatant(ids["Drone"]).seat == "Dana" and state.combatant(ids["Ganger 2"]).seat == GM_SEAT
    text = history.entries[-1].text()
    assert "clockwise from the GM's left: Celina, Bartek, Dana, then the GM." in text
    assert "Dana's seat now acts for Drone." in text and "The GM now acts for Ganger 2." in text
    assert table_seats(state) == ["Celina", "Bartek", "Dana", "Ania", GM_SEAT]  # Ania not placed yet: last


@pytest.mark.parametrize(("seats", "assignments", "message"), [
    (("Ania", "ania"), {}, "Two seats"),
    (("Ania", " "), {}, "needs a name"),
    (("gm",), {}, "the GM's own seat"),
    (("Ania",), {"c3": "Bartek"}, "no seat “Bartek”"),
    (("Ania",), {"c99": "Ania"}, "No combatant"),
    (("Ania", "Bartek", "Celina"), {}, "already like that"),
    (("x" * 61,), {}, "at most 60"),
])
def test_set_seating_refuses_what_cannot_be(seats: tuple[str, ...], assignments: dict[str, str],
                                            message: str) -> None:
    history, _ids = table()
    before = history.state
    with pytest.raises(OperationError, match=message):
        history.do(SetSeating(seats, frozen_map(assignments)))
    assert history.state is before


def test_a_combatant_falling_mid_round_does_not_shift_the_order() -> None:
    history, ids = table()
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    history.do(NextTurn())  # Ania done; Bartek acts
    history.do(ApplyHarm(ids["Kira"], "hp", 6))
    history.do(ApplyHarm(ids["Drone"], "hp", 6))  # Ania's whole seat is down, her seat still started the round
    assert round_order(history) == [BARTEK, CELINA, GM]
    assert round_order(history) == [BARTEK, CELINA, GM]  # round 2: Ania's seat skipped, Bartek still next


def test_an_unconscious_combatant_is_skipped_and_a_seat_with_nobody_able_disappears() -> None:
    history, ids = table()
    history.do(ApplyHarm(ids["Wedge"], "hp", 6))
    roll(history, Ania=3, Celina=7, GM=9)
    assert "Wedge" not in {c for slot in round_order(history) for c in slot}


def test_a_seat_without_a_roll_still_takes_its_place_at_the_table() -> None:
    history, _ids = table()
    roll(history, Ania=4, Bartek=5, Celina=7, GM=9)
    history.do(AddCombatant("c9", "Latecomer", Side.PLAYER, seat="Dana"))
    history.do(SetSeating(("Ania", "Dana", "Bartek", "Celina")))
    assert SYSTEM.score_text(history.state.combatant("c9"), history.state) == "–"
    assert round_order(history) == [ANIA, ["Latecomer"], BARTEK, CELINA, GM]


def test_the_gm_overrides_a_seats_roll_through_any_member() -> None:
    history, ids = table({"reroll_each_round": True})
    roll(history, Ania=4, Bartek=5, Celina=7, GM=9)
    round_order(history)
    roll(history, Ania=4, Bartek=5, Celina=7, GM=9)
    history.do(SetInitiative(ids["Drone"], 1))  # typed on the seat's second member: still the seat's roll
    assert SYSTEM.score_text(history.state.combatant(ids["Kira"]), history.state) == "1"


def test_yielding_moves_the_seat_to_the_end_of_the_round_and_delaying_to_after_everyone() -> None:
    history, ids = table()
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    history.do(YieldTurn(ids["Drone"]))
    assert acting(history) == ["Kira"]  # the rest of the seat keeps the turn
    history.do(DelayAction(ids["Kira"]))
    assert round_order(history) == [BARTEK, CELINA, GM, ["Drone"], ["Kira"]]


def test_nobody_able_to_act_ends_the_round_and_waits_for_a_roll() -> None:
    history, ids = table()
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    for name in ("Kira", "Drone", "Wedge", "Nova", "Ganger 1", "Ganger 2"):
        history.do(ApplyHarm(ids[name], "hp", 6))
    history.do(NextTurn())  # no endless loop of empty rounds
    assert history.state.clock.current is None
    assert SYSTEM.initiative_each_round(history.state)


def test_removing_and_renaming_keep_the_table_consistent() -> None:
    history, ids = table()
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    history.do(NextTurn())
    history.do(RemoveCombatant(ids["Nova"]))
    assert round_order(history) == [BARTEK, GM]
    with pytest.raises(RulesError):
        history.do(SetOption("reroll_each_round", "sometimes"))


def test_typed_rolls_are_checked() -> None:
    history, ids = table()
    with pytest.raises(OperationError, match="d12 cannot show 13"):
        history.do(RollInitiative(frozen_map({ids["Kira"]: (13,)}), frozen_map({})))


# --- who has acted, in the order of play ---------------------------------------------------------------


def test_those_who_have_acted_are_listed_in_the_order_they_acted_whatever_the_sets_order() -> None:
    history, ids = table()
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)  # the lowest d12 starts: Ania, then clockwise
    history.do(NextTurn())
    history.do(NextTurn())
    names = {cid: name for name, cid in ids.items()}
    state = history.state
    assert [names[cid] for cid in played_order(state, SYSTEM)] == ["Kira", "Drone", "Wedge"]
    reversed_set = _ReversedSet(state.clock.acted)
    assert list(reversed_set) != list(state.clock.acted)
    assert played_order(state.with_clock(acted=reversed_set), SYSTEM) == played_order(state, SYSTEM)
    history.do(ApplyHarm(ids["Kira"], "hp", 6))  # out after acting: no longer in the order, listed after
    assert [names[cid] for cid in played_order(history.state, SYSTEM)] == ["Drone", "Wedge", "Kira"]


class _ReversedSet(frozenset[str]):
    """Ids iterated in the reverse of a plain frozenset's order (as another process's string hashing may give)."""

    def __iter__(self) -> Iterator[str]:
        return reversed(list(super().__iter__()))
