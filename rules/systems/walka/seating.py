"""Initiative by seat: the seating order, each seat's d12, who starts, and the order clockwise from there.

The seating order lists the players' seats clockwise from the GM's left; the GM sits after the last one
(at the GM's own place, between their right and their left). A combatant's ``seat`` names who controls it:
a player's seat, or :data:`GM_SEAT`. Without one, non-player characters sit with the GM and a player
character has a seat of its own, named after it, at the end of the players' seats.

Each seat rolls one d12 (its members share the roll). The lowest roll starts and play goes clockwise.
Between players a tie goes to the seat nearer the GM's left; a tie between the GM and players is the GM's
call, recorded by :class:`~rules.systems.walka.ops.DecideGmTie` (the option ``gm_tie_default`` rules
until then). With "re-roll every round" off the rolls stand for the whole combat.

The seating order and the GM's decision are Walka's own state of the encounter (``Encounter.game``): only the
functions here read and write those items.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from rules.encounter import Combatant, Encounter, JsonValue, Side, frozen_map
from rules.text import N_, _

GM_SEAT: Final[str] = "GM"
GM_SEAT_LABEL: Final[str] = N_("GM")
#: Walka's items of ``Encounter.game``: the seating order (set by SetSeating), the GM's answer to a tie
#: (set by DecideGmTie). Saved files name them, so they keep these names.
SEATS: Final[str] = "seats"
TIE_DECISION: Final[str] = "gm_tie_decision"
PLAYERS, GM = "players", "gm"


def listed_seats(encounter: Encounter) -> tuple[str, ...]:
    """The players' seats the GM has placed, clockwise from the GM's left (empty: none placed yet)."""
    value = encounter.game.get(SEATS)
    return tuple(seat for seat in value if isinstance(seat, str)) if isinstance(value, tuple) else ()


def with_listed_seats(encounter: Encounter, seats: tuple[str, ...]) -> Encounter:
    """A copy with the seating order replaced (no seats: the item goes, as in a new encounter)."""
    if seats == listed_seats(encounter):
        return encounter
    return encounter.with_game_item(SEATS, seats or None)


def effective_seat(combatant: Combatant) -> str:
    """The seat that acts for ``combatant``."""
    if combatant.seat:
        return combatant.seat
    return combatant.name if combatant.side is Side.PLAYER else GM_SEAT


def seat_label(seat: str) -> str:
    """A seat as shown: the player's name, or "GM" translated."""
    return _(GM_SEAT_LABEL) if seat == GM_SEAT else seat


def table_seats(encounter: Encounter) -> list[str]:
    """Every seat in clockwise order from the GM's left, the GM last (if anyone sits there).

    Seats in the seating order come first, in their order; seats only a combatant names follow in roster
    order (they have not been placed at the table yet). Empty listed seats stay: the table keeps its shape.
    """
    seats = [seat for seat in listed_seats(encounter) if seat != GM_SEAT]
    named = [effective_seat(c) for c in encounter.combatants.values()]
    for seat in named:
        if seat != GM_SEAT and seat not in seats:
            seats.append(seat)
    if GM_SEAT in named:
        seats.append(GM_SEAT)
    return seats


def members(encounter: Encounter, seat: str) -> list[Combatant]:
    """The combatants a seat acts for, in roster order."""
    return [c for c in encounter.combatants.values() if effective_seat(c) == seat]


def seat_roll(encounter: Encounter, seat: str, able: Iterable[str] = ()) -> int | None:
    """The seat's d12: a GM's override on a member first, else the members' shared roll (None: not rolled).

    Members who can act (``able``) are asked first, so that a roll kept by someone knocked out earlier never
    outranks the seat's current one.
    """
    present = [c for c in members(encounter, seat) if c.initiative is not None]
    able_ids = set(able)
    ordered = [c for c in present if c.id in able_ids] + [c for c in present if c.id not in able_ids]
    for combatant in ordered:
        if combatant.initiative is not None and combatant.initiative.override is not None:
            return combatant.initiative.override
    return ordered[0].initiative.rolled if ordered and ordered[0].initiative is not None else None


@dataclass(frozen=True)
class GmTie:
    """The GM's seat ties with players' seats for the lowest roll: the GM decides which side starts."""

    roll: int
    player_seats: tuple[str, ...]


@dataclass(frozen=True)
class TableOrder:
    """The seats in acting order for this round, the starting seat, and an open GM tie (if any)."""

    seats: tuple[str, ...]
    rolls: Mapping[str, int]
    start: str | None
    tie: GmTie | None
    players_first: bool  # how the tie (if any) is settled now


def rolls_by_seat(encounter: Encounter, seats: Iterable[str], able: Iterable[str]) -> dict[str, int]:
    """Each seat's d12, for the seats that have one."""
    able_ids = frozenset(able)
    rolls = {seat: seat_roll(encounter, seat, able_ids) for seat in seats}
    return {seat: roll for seat, roll in rolls.items() if roll is not None}


def find_tie(rolls: Mapping[str, int]) -> GmTie | None:
    """The GM's seat and players' seats sharing the lowest roll, or None."""
    if GM_SEAT not in rolls:
        return None
    lowest = min(rolls.values())
    players = tuple(seat for seat, roll in rolls.items() if roll == lowest and seat != GM_SEAT)
    return GmTie(lowest, players) if rolls[GM_SEAT] == lowest and players else None


def decision(encounter: Encounter, reroll_each_round: bool) -> bool | None:
    """The GM's answer to a tie (True: players first), if it still holds; None when not answered.

    With rolls once per combat the answer stands for the combat; with re-rolls, only in its own round.
    """
    value = encounter.game.get(TIE_DECISION)
    if not isinstance(value, Mapping):
        return None
    first, round_no = value.get("first"), value.get("round")
    if first not in (PLAYERS, GM) or (reroll_each_round and round_no != encounter.clock.round):
        return None
    return first == PLAYERS


def with_decision(encounter: Encounter, players_first: bool) -> Encounter:
    """A copy with the GM's answer to a tie, given in the encounter's current round."""
    value: Mapping[str, JsonValue] = frozen_map({"first": PLAYERS if players_first else GM,
                                                 "round": encounter.clock.round})
    return encounter.with_game_item(TIE_DECISION, value)


def start_seat(rolls: Mapping[str, int], order: list[str], players_first: bool) -> str | None:
    """Lowest roll starts; players tied: nearer the GM's left; GM tied with players: as decided."""
    if not rolls:
        return None
    lowest = min(rolls.values())
    tied = [seat for seat in order if rolls.get(seat) == lowest]
    players = [seat for seat in tied if seat != GM_SEAT]
    if GM_SEAT in tied and (not players or not players_first):
        return GM_SEAT
    return players[0]


def table_order(encounter: Encounter, able: Iterable[str], reroll_each_round: bool,
                default_players_first: bool) -> TableOrder:
    """The round's order: clockwise around the table from the starting seat (seats nobody sits at skipped).

    Every seat with a roll takes part in finding the start, even one whose members are all down, so that
    the order of a round never shifts when someone falls.
    """
    seats = [seat for seat in table_seats(encounter) if members(encounter, seat)]
    able_ids = frozenset(able)
    rolls = rolls_by_seat(encounter, seats, able_ids)
    tie = find_tie(rolls)
    decided = decision(encounter, reroll_each_round)
    players_first = default_players_first if decided is None else decided
    start = start_seat(rolls, seats, players_first)
    if start is None:
        return TableOrder((), rolls, None, tie, players_first)
    index = seats.index(start)
    return TableOrder(tuple(seats[index:] + seats[:index]), rolls, start, tie, players_first)


def open_tie(encounter: Encounter, able: Iterable[str], reroll_each_round: bool) -> GmTie | None:
    """A tie with the GM the GM has not decided yet (the window asks; the default applies meanwhile)."""
    seats = [seat for seat in table_seats(encounter) if members(encounter, seat)]
    tie = find_tie(rolls_by_seat(encounter, seats, able))
    if tie is None or decision(encounter, reroll_each_round) is not None:
        return None
    return tie
