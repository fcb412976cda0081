"""The one table of limits (rules.limits): every whole number a state holds has one, a document past any of them is
refused naming the place and the limit, the operations keep a fight within them, and references between a state's
parts are checked when it is read (issue 19)."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import typing
from collections.abc import Iterator
from typing import Any

import pytest

from rules import limits
from rules.combatants import AddCombatant, SetAttribute, SetDamage, SetPool
from rules.dice import Roller
from rules.effects import AddEffect
from rules.encounter import Effect, Encounter, Side, frozen_map
from rules.errors import OperationError
from rules.history import History, HistoryDamaged
from rules.serialize import (
    FORMAT,
    SCHEMA_VERSION,
    SchemaError,
    history_from_document,
    history_to_document,
    to_data,
    type_hints,
)
from rules.state_checks import COUNT_LIMITS, FIELD_LIMITS, GAME_DATA, check_state
from rules.systems.institut.sample import sample as institut_sample
from rules.systems.sr3.sample import sample
from rules.turns import NextTurn, RollInitiative, SetInitiative, roll_initiative, start_round
from tests.rules.test_documents import long_fight

# --- every whole number has a limit ----------------------------------------------------------------------------


def whole_number_places(kind: Any, pattern: str = "") -> Iterator[str]:
    """Where a value of ``kind`` holds whole numbers, as FIELD_LIMITS names places (free-form game data apart)."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if pattern in GAME_DATA:
        return
    if kind is int:
        yield pattern
    elif isinstance(kind, type) and dataclasses.is_dataclass(kind):
        for name, hint in type_hints(kind).items():
            yield from whole_number_places(hint, f"{pattern}.{name}".lstrip("."))
    elif origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        for index, arg in enumerate(args):
            yield from whole_number_places(arg, f"{pattern}.{index}")
    elif origin is not None and isinstance(origin, type) and issubclass(origin, typing.Mapping):
        yield from whole_number_places(args[1], f"{pattern}.*")
    else:
        for arg in args:
            if arg is not Ellipsis:
                yield from whole_number_places(arg, f"{pattern}.*" if origin in (tuple, frozenset) else pattern)


def test_every_whole_number_of_a_state_has_exactly_one_limit() -> None:
    places = set(whole_number_places(Encounter))
    assert "clock.round" in places and "combatants.*.initiative.dice.*" in places  # the walk reaches them
    assert places == set(FIELD_LIMITS), (places ^ set(FIELD_LIMITS))
    for limit in (*FIELD_LIMITS.values(), *COUNT_LIMITS.values()):
        assert limit.low <= limit.high <= limits.CODEC_HIGH and limit.low >= -limits.CODEC_HIGH


# --- a document past a limit is refused, naming the place and the limit -----------------------------------------


def full_state() -> dict[str, Any]:
    """The SR3 sample's state with every part a whole number can live in: a held action, a timer, a typed score,
    actions used (so each place of FIELD_LIMITS exists in it)."""
    state: dict[str, Any] = json.loads(json.dumps(to_data(sample().state)))
    first = state["combatants"]["c1"]
    first["initiative"]["override"] = 12
    first["actions_used"] = {"simple": 1}
    state["delays"] = {"c2": {"combatant": "c2", "round": 1, "pass_no": 1}}
    state["effects"]["e9"] = {"id": "e9", "name": "Grenade", "target": "c1", "remaining": 2, "due": [1, 1, 5]}
    return state


def document_of(state: dict[str, Any]) -> dict[str, Any]:
    """A document of no operations that starts (and ends) at ``state``."""
    return {"format": FORMAT, "schema_version": SCHEMA_VERSION, "initial": state, "operations": []}


def places_of(state: Any, pattern: str, place: str = "") -> Iterator[tuple[Any, Any, str]]:
    """(container, key, place) of every value matching ``pattern`` (``*``: any key or item)."""
    head, _dot, rest = pattern.partition(".")
    keys = (range(len(state)) if isinstance(state, list) else list(state)) if head == "*" else [
        int(head) if isinstance(state, list) else head]
    for key in keys:
        if isinstance(state, dict) and key not in state:
            continue
        here = f"{place}[{key}]" if isinstance(state, list) else f"{place}.{key}".lstrip(".")
        if rest:
            yield from places_of(state[key], rest, here)
        else:
            yield state, key, here


def test_the_full_state_opens() -> None:
    history = history_from_document(document_of(full_state()))
    assert history.state.delays and "e9" in history.state.effects


@pytest.mark.parametrize("pattern", sorted(FIELD_LIMITS))
def test_a_number_past_its_limit_is_refused_naming_the_place_and_the_limit(pattern: str) -> None:
    limit = FIELD_LIMITS[pattern]
    outside = [value for value in (limit.high + 1, limit.low - 1) if abs(value) <= limits.CODEC_HIGH]
    if not outside:
        pytest.skip("only the codec's own bound applies here")
    for value in outside:
        state = full_state()
        container, key, place = next(places_of(state, pattern))
        container[key] = value
        with pytest.raises(SchemaError) as refused:
            history_from_document(document_of(state))
        message = str(refused.value)
        assert message.startswith(f"initial.{place}: "), message
        assert f"between {limit.low} and {limit.high}, not {value}." in message


@pytest.mark.parametrize("pattern", sorted(COUNT_LIMITS))
def test_too_many_initiative_faces_are_refused(pattern: str) -> None:
    limit = COUNT_LIMITS[pattern]
    state = full_state()
    container, key, place = next(places_of(state, pattern))
    container[key] = [3] * (limit.high + 1)
    with pytest.raises(SchemaError, match=f"initial.{place}: .*at most {limit.high}, not {limit.high + 1}"):
        history_from_document(document_of(state))


def test_a_rolled_total_past_the_score_limit_is_refused() -> None:
    state = full_state()
    state["combatants"]["c2"]["initiative"] = {"base": limits.SCORE.high, "dice": [6]}
    with pytest.raises(SchemaError, match=r"^initial\.combatants\.c2\.initiative: .*not 100005"):
        history_from_document(document_of(state))


def test_the_saved_state_is_checked_too() -> None:
    document = json.loads(json.dumps(history_to_document(sample())))
    document["state"]["clock"]["pass_no"] = 10**9
    with pytest.raises(SchemaError, match=r"^state\.clock\.pass_no: "):
        history_from_document(copy.deepcopy(document), trusted=True)


def test_a_checkpoint_past_a_limit_stops_undo_there_and_is_never_shown() -> None:
    document = json.loads(json.dumps(history_to_document(long_fight(600))))
    first = document["checkpoints"][0]
    first["patch"]["fields"].setdefault("clock", copy.deepcopy(document["state"]["clock"]))["pass_no"] = 10**9
    history = history_from_document(document, trusted=True)
    with pytest.raises(HistoryDamaged, match=f"checkpoints\\[at={first['at']}\\].clock.pass_no"):
        while history.undo() is not None:
            assert history.state.clock.pass_no <= limits.PASS.high


# --- references ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("change", "expected"), [
    (lambda s: s["combatants"].__setitem__("c1", {**s["combatants"]["c1"], "id": "zz"}),
     "initial.combatants.c1: it is filed under “c1” but its id is “zz”."),
    (lambda s: s["effects"]["e9"].__setitem__("id", "e1"), "initial.effects.e9: it is filed under “e9”"),
    (lambda s: s["effects"]["e9"].__setitem__("target", "c99"), "initial.effects.e9.target: there is no combatant"),
    (lambda s: s["delays"]["c2"].__setitem__("combatant", "c3"), "initial.delays.c2: it is filed under"),
    (lambda s: s.__setitem__("delays", {"c99": {"combatant": "c99", "round": 1, "pass_no": 1}}),
     "initial.delays.c99: there is no combatant “c99”"),
    (lambda s: s["clock"]["current"].__setitem__("ids", ["c99"]), "initial.clock.current.ids: there is no combatant"),
    (lambda s: s["clock"]["current"].__setitem__("ids", []), "initial.clock.current.ids: nobody acts"),
    (lambda s: s["clock"].__setitem__("current", {"kind": "timer", "ids": []}),
     "initial.clock.current.ids: a timer names exactly one effect, not 0."),
])
def test_a_broken_reference_is_refused_naming_it(change: Any, expected: str) -> None:
    state = full_state()
    change(state)
    with pytest.raises(SchemaError) as refused:
        history_from_document(document_of(state))
    assert expected in str(refused.value)


def test_a_timer_whose_effect_the_gm_removed_still_opens() -> None:
    """The GM may remove a grenade's effect while its timer goes off (the order view shows "Timer"): a file saved
    then is the app's own, and opens."""
    state = full_state()
    state["clock"]["current"] = {"kind": "timer", "ids": ["e-gone"], "phase": 5}
    assert history_from_document(document_of(state)).state.clock.current is not None


# --- the operations keep a fight within the limits --------------------------------------------------------------


class CountingRoller(Roller):
    """Counts the dice it rolls."""

    def __init__(self) -> None:
        super().__init__(random.Random(1))
        self.rolled = 0

    def die(self, sides: int) -> int:
        self.rolled += 1
        return super().die(sides)


def test_an_initiative_roll_of_more_dice_than_the_limit_is_refused_before_rolling() -> None:
    """A character with initiative dice of 9,999 (the attribute limit) froze Roll initiative: the dice are counted
    before any is rolled."""
    history = History(Encounter("sr3"))
    history.do(AddCombatant("c1", "Twitch", Side.PLAYER, frozen_map({"reaction": 5, "initiative_dice": 1})))
    history.do(SetAttribute("c1", "initiative_dice", limits.ATTRIBUTE.high))
    roller = CountingRoller()
    with pytest.raises(OperationError, match=f"Twitch would roll 9999 dice for initiative; Bojovka rolls at most "
                                             f"{limits.INITIATIVE_DICE.high}."):
        roll_initiative(history.state, history.system, roller)
    assert roller.rolled == 0
    with pytest.raises(OperationError, match="rolls at most"):  # nor may a file's operation bring them
        history.do(RollInitiative(frozen_map({"c1": (6,) * 9_999}), frozen_map({"c1": (1,)})))


def test_tie_break_dice_from_a_file_must_be_d6_faces() -> None:
    history = History(Encounter("sr3"))
    history.do(AddCombatant("c1", "Twitch", Side.PLAYER, frozen_map({"reaction": 5})))
    for tiebreak in ((0,), (7,), (3,) * 100):
        with pytest.raises(OperationError, match="tie-break"):
            history.do(RollInitiative(frozen_map({"c1": (4,)}), frozen_map({"c1": tiebreak})))


def test_no_round_past_the_limit_begins() -> None:
    history = History(Encounter("sr3"))
    history.do(AddCombatant("c1", "Twitch", Side.PLAYER, frozen_map({"reaction": 5})))
    last = history.state.with_clock(round=limits.ROUND.high)
    with pytest.raises(OperationError, match="round 99999"):
        start_round(last, history.system)
    assert start_round(history.state.with_clock(round=limits.ROUND.high - 1), history.system).encounter.clock.round \
        == limits.ROUND.high


def test_the_operations_take_their_bounds_from_the_table() -> None:
    history = History(Encounter("sr3"))
    history.do(AddCombatant("c1", "Twitch", Side.PLAYER, frozen_map({"reaction": 5})))
    history.do(SetAttribute("c1", "body", limits.ATTRIBUTE.high))
    history.do(SetPool("c1", "combat", limits.POOL_SIZE.high))
    history.do(SetInitiative("c1", limits.TYPED_SCORE.high))
    history.do(SetDamage("c1", "stun", 1))
    history.do(AddEffect(Effect("e1", "Smoke", remaining=limits.EFFECT_COUNT.high)))
    for refused in (SetAttribute("c1", "body", limits.ATTRIBUTE.high + 1),
                    SetPool("c1", "combat", limits.POOL_SIZE.high + 1),
                    SetInitiative("c1", limits.TYPED_SCORE.high + 1),
                    SetDamage("c1", "stun", limits.HARM.high + 1),
                    AddEffect(Effect("e2", "Smoke", remaining=limits.EFFECT_COUNT.high + 1)),
                    AddEffect(Effect("e3", "Grenade", due=(limits.ROUND.high + 1, 1, 0)))):
        with pytest.raises(OperationError):
            history.do(refused)
    check_state(history.state, "state")


def test_a_played_fight_stays_within_every_limit() -> None:
    history = sample()
    for _step in range(30):
        try:
            history.do(NextTurn())
        except OperationError:
            history.do(roll_initiative(history.state, history.system, Roller.seeded(3)))
        check_state(history.state, "state")


def test_an_option_its_settings_would_refuse_is_refused_naming_it() -> None:
    """An Institute weapons table with a burst of "c-gone" opened, then raised unhandled when the window read it."""
    state = json.loads(json.dumps(to_data(institut_sample().state)))
    weapon = next(iter(state["options"]["weapons"]))
    state["options"]["weapons"][weapon]["burst"] = "c-gone"
    with pytest.raises(SchemaError, match=r"^initial\.options\.weapons: .*burst"):
        history_from_document(document_of(state))
    state["options"] = {"an option of an older Bojovka": 5}  # not the game's: no rule reads it, it is kept
    assert history_from_document(document_of(state)).state.options == {"an option of an older Bojovka": 5}
