"""What the every-game harness shares: each game's sample fight played on with operations every game has, the
checks (undo and redo, save and reopen, the live timeline), and a recorder of the options the rules look up.

No game is named here: the games come from the registry (:func:`rules.systems.all_systems`), so a sixth game
is checked the day it is registered.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Final, Protocol

from app.storage import load_encounter, save_encounter
from rules.combatants import AddCombatant, ApplyHarm, EditEncounter, RemoveCombatant, SpendAction, next_combatant_id
from rules.dice import Roller
from rules.documents import fight_data, same_state
from rules.effects import AddEffect
from rules.encounter import Effect, Encounter, JsonValue, Side, Timing
from rules.errors import RulesError
from rules.history import Batch, History, Operation
from rules.serialize import history_to_document, to_data
from rules.systems.base import Hook, OptionKind, OptionSpec, RuleSystem
from rules.timeline import Timeline, TurnTimeline
from rules.turns import (
    DelayAction,
    NextTurn,
    SetInitiative,
    TakeDelayedAction,
    YieldTurn,
    current_actor,
    roll_initiative,
)
from rules.weapons import Reload, weapon_to_reload

SEED: Final[int] = 7
#: Next presses at most while a round is played to its end (a guard against a round that never ends).
MAX_NEXTS: Final[int] = 60


class Player(Protocol):
    """Something operations are done to: a History, or a :class:`RecordingPlayer`."""

    state: Encounter

    def do(self, operation: Operation) -> object:
        """Apply ``operation``; RulesError (and nothing changes) if the rules refuse it now."""


def attempt(player: Player, operation: Operation | None) -> bool:
    """Do ``operation`` if the rules allow it now; a refusal is part of the game and changes nothing."""
    if operation is None:
        return False
    try:
        player.do(operation)
    except RulesError:
        return False
    return True


# --- playing on from where a sample stops, with operations every game has ---------------------------------


def _harm(state: Encounter, system: RuleSystem, amount: int, index: int) -> Operation | None:
    people = list(state.combatants.values())
    if not people:
        return None
    combatant = people[index % len(people)]
    tracks = system.tracks(combatant, state)
    return ApplyHarm(combatant.id, tracks[0].key, amount) if tracks else None


def _fell(state: Encounter, system: RuleSystem, index: int) -> Operation | None:
    """As much harm as the first track holds: the combatant falls (and the order goes on without them)."""
    people = list(state.combatants.values())
    if not people:
        return None
    combatant = people[index % len(people)]
    tracks = system.tracks(combatant, state)
    return ApplyHarm(combatant.id, tracks[0].key, tracks[0].size) if tracks else None


def _effect(state: Encounter, system: RuleSystem) -> Operation | None:
    target = next(iter(state.combatants), None)
    if Hook.ROUND_END not in system.hooks():
        return None
    return AddEffect(Effect("harness-effect", "Harness reminder", target, expires=Timing(Hook.ROUND_END),
                            remaining=1, reminds=Timing(Hook.TURN_START, target)))


def _spend(state: Encounter, system: RuleSystem) -> Operation | None:
    actor = current_actor(state)
    if actor is None:
        return None
    budget = system.action_budget(state.combatant(actor), state)
    return SpendAction(actor, budget[0].key) if budget else None


def _reload(state: Encounter) -> Operation | None:
    """A reload of a weapon that is not full: the current actor's, else the first combatant's with one (the game
    says what it costs, and may refuse it out of turn)."""
    actor = current_actor(state)
    people = sorted(state.combatants.values(), key=lambda combatant: combatant.id != actor)
    for combatant in people:
        weapon = weapon_to_reload(combatant, None)
        if weapon is not None:
            return Reload(combatant.id, weapon.name)
    return None


def _actor_op(state: Encounter, make: type[DelayAction] | type[YieldTurn]) -> Operation | None:
    actor = current_actor(state)
    return None if actor is None else make(actor)


def finish_round(player: Player) -> None:
    """Press Next until the round ends (or the game refuses Next)."""
    start = player.state.clock.round
    for _press in range(MAX_NEXTS):
        clock = player.state.clock
        if clock.round != start or clock.pass_no == 0 or not attempt(player, NextTurn()):
            return


def roll_round(player: Player, system: RuleSystem) -> None:
    """Roll the next round's initiative with fixed dice, where the game rolls every round."""
    if player.state.clock.pass_no == 0:
        try:
            operation = roll_initiative(player.state, system, Roller.seeded(SEED))
        except RulesError:
            return
        attempt(player, operation)


def play_on(player: Player, system: RuleSystem) -> None:
    """From where the sample stops: an effect, wounds, a fall, a reload, an action spent, a delay taken, a yield, the
    round to its end, a latecomer, the next round rolled, a score set, a batch, a heal, a removal, a renamed
    encounter."""
    attempt(player, _effect(player.state, system))
    attempt(player, _harm(player.state, system, 1, 0))
    attempt(player, _harm(player.state, system, 2, -1))
    attempt(player, _fell(player.state, system, 1))
    attempt(player, _reload(player.state))  # with the action still to spend (a reload may cost it)
    attempt(player, _spend(player.state, system))
    attempt(player, _reload(player.state))  # and once it is spent (one a game refuses then)
    attempt(player, _actor_op(player.state, DelayAction))
    attempt(player, NextTurn())
    attempt(player, TakeDelayedAction(next(iter(player.state.delays))) if player.state.delays else None)
    attempt(player, _actor_op(player.state, YieldTurn))
    finish_round(player)
    attempt(player, AddCombatant(next_combatant_id(player.state), "Latecomer", Side.OPPONENT))
    roll_round(player, system)
    first = next(iter(player.state.combatants), None)
    attempt(player, SetInitiative(first, 1) if first else None)
    attempt(player, Batch((NextTurn(), NextTurn()), "Two turns"))
    attempt(player, _harm(player.state, system, -1, 0))
    last = next(reversed(list(player.state.combatants)), None)
    attempt(player, RemoveCombatant(last) if last else None)
    attempt(player, EditEncounter("name", "Played on"))
    attempt(player, NextTurn())
    finish_round(player)


def played(system: RuleSystem) -> History:
    """The game's sample fight, played on (:func:`play_on`): a new history every call."""
    history = system.sample()
    play_on(history, system)
    return history


# --- what a history passes through -----------------------------------------------------------------------


def replayed_states(history: History) -> list[Encounter]:
    """The state before the first operation and after each one, replayed afresh (the oracle undo must meet)."""
    fresh = History(history.initial)
    states = [fresh.state]
    for entry in history.entries:
        fresh.do(entry.operation)
        states.append(fresh.state)
    return states


def same(a: Encounter, b: Encounter) -> bool:
    """Equal states: the same data, and every mapping in the same order (the order is what the GM sees)."""
    return to_data(a) == to_data(b) and same_state(a, b)


def log_texts(history: History) -> list[tuple[int, int, str]]:
    """The combat log as the window renders it: round, pass and the lines of each entry."""
    return [(entry.round, entry.pass_no, entry.text()) for entry in history.entries]


def every_turn(timeline: Timeline) -> tuple[tuple[int, ...], list[TurnTimeline]]:
    """Every round of a timeline's chart (reading them also exercises its cached folds)."""
    return timeline.rounds, [timeline.turn(round_no) for round_no in timeline.rounds]


def fresh_turns(history: History) -> tuple[tuple[int, ...], list[TurnTimeline]]:
    """The chart read once from the whole history."""
    timeline = Timeline(history)
    timeline.sync()
    return every_turn(timeline)


# --- the checks ------------------------------------------------------------------------------------------


def check_undo_and_redo(history: History) -> None:
    """Every undo meets the replayed state before it, every redo the one after it."""
    states = replayed_states(history)
    assert same(history.state, states[-1]), "the fight replayed from its operations ends elsewhere"
    for position in range(len(states) - 1, 0, -1):
        history.undo()
        assert same(history.state, states[position - 1]), f"undo to {position - 1}"
        history.redo()
        assert same(history.state, states[position]), f"undo then redo at {position}"
        history.undo()
    assert not history.can_undo and same(history.state, history.initial)
    for position in range(1, len(states)):
        history.redo()
        assert same(history.state, states[position]), f"redo to {position}"
    assert not history.can_redo


def saved_and_reopened(history: History, path: Path, sealed: bool) -> History:
    """Save ``history`` to ``path`` and open it again as the app does: ``sealed``, as File → Save writes it
    (opened from its last state, replayed lazily); else as a file edited since (no valid checksum: replayed in
    full on opening)."""
    if sealed:
        save_encounter(history, path)
    else:
        path.write_text(json.dumps(history_to_document(history), indent=1), encoding="utf-8")
    return load_encounter(path)


def check_reopened(history: History, reopened: History) -> None:
    """A reopened fight is the fight: its states, its log, and every state undo reaches."""
    assert same(reopened.initial, history.initial) and same(reopened.state, history.state)
    assert log_texts(reopened) == log_texts(history)
    assert fight_data(reopened) == fight_data(history)
    assert fresh_turns(reopened) == fresh_turns(history)
    states = replayed_states(history)
    for position in range(len(states) - 1, 0, -1):
        assert reopened.undo() is not None
        assert same(reopened.state, states[position - 1]), f"undo after reopening, to {position - 1}"
    assert not reopened.can_undo
    while reopened.can_redo:
        reopened.redo()
    assert same(reopened.state, history.state) and log_texts(reopened) == log_texts(history)


def check_timeline_follows(history: History) -> None:
    """Replays ``history``'s operations into a new one, comparing the followed timelines with fresh ones."""
    replay = History(history.initial)
    live, hidden = Timeline(replay), Timeline(replay)  # hidden: a closed chart that catches up every few steps

    def compare(step: int) -> None:
        live.sync()
        if step % 3 == 0:
            hidden.sync()
            every_turn(hidden)
        assert every_turn(live) == fresh_turns(replay), f"after step {step}"

    steps = 0
    for entry in history.entries:
        replay.do(entry.operation)
        compare(steps := steps + 1)
    while replay.can_undo:
        replay.undo()
        compare(steps := steps + 1)
    while replay.can_redo:
        replay.redo()
        compare(steps := steps + 1)
    for _step in range(3):  # an undo and a new step read together refold the round
        replay.undo()
    replay.do(NextTurn())
    compare(steps + 1)
    hidden.sync()
    assert every_turn(hidden) == fresh_turns(replay)


# --- which options the rules read ------------------------------------------------------------------------


class RecordedOptions(dict[str, JsonValue]):
    """A fight's options that note every key a rule looks up (``[]``, ``get``, ``in``).

    Copying, comparing, iterating and saving them read no rule, and a dict subclass that keeps dict's own
    iteration is copied and compared by dict's fast paths, so only lookups by key are noted.
    """

    def __init__(self, options: Mapping[str, JsonValue], seen: set[str]) -> None:
        super().__init__(options)
        self.seen = seen

    def __getitem__(self, key: str) -> JsonValue:
        self.seen.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.seen.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.seen.add(key)
        return super().__contains__(key)


def recording(state: Encounter, seen: set[str]) -> Encounter:
    """``state`` with options that note what is read into ``seen`` (an option change makes plain ones again)."""
    if isinstance(state.options, RecordedOptions):
        return state
    return replace(state, options=RecordedOptions(state.options, seen))


def look(state: Encounter, system: RuleSystem) -> None:
    """Ask the game what the window asks after every change: order, scores, tracks, notes, budgets, phases."""
    for slot in system.remaining_slots(state):
        system.slot_caption(slot, state)
    system.has_next_pass(state)
    system.initiative_each_round(state)
    for combatant in state.combatants.values():
        system.status(combatant, state)
        system.can_act(combatant, state)
        system.condition_notes(combatant, state)
        system.action_budget(combatant, state)
        system.initiative_dice(combatant, state)
        system.initiative_group(combatant, state)
        system.score_text(combatant, state)
        for pass_no in (1, 2, 3):
            system.pass_phase(combatant, state, pass_no)
        for track in system.tracks(combatant, state):
            system.harm_presets(track.key)


class RecordingPlayer:
    """Applies operations straight to a state whose options record their readers, and asks the game what the
    window would ask after each one (and how unlikely each roll was, as the summary does)."""

    def __init__(self, initial: Encounter, system: RuleSystem, seen: set[str]) -> None:
        self.system, self.seen = system, seen
        self.state = recording(initial, seen)
        look(self.state, system)

    def do(self, operation: Operation) -> object:
        before = self.state
        self.state = recording(operation.apply(before, self.system).encounter, self.seen)
        self.system.outcome_probability(operation, before)
        look(self.state, self.system)
        return self.state


def option_variants(spec: OptionSpec) -> list[JsonValue]:
    """Values other than the default worth a replay: the other truth value, every other choice, a step each way.

    A data table has no generic variant (its keys are the game's); its default is played like every default.
    """
    if spec.kind is OptionKind.BOOL:
        return [not spec.default]
    if spec.kind is OptionKind.CHOICE:
        return [value for value, _label in spec.choices if value != spec.default]
    if spec.kind is OptionKind.INT and isinstance(spec.default, int):
        steps = (spec.default - 1, spec.default + 1)
        return [v for v in steps if (spec.minimum is None or v >= spec.minimum)
                and (spec.maximum is None or v <= spec.maximum)]
    return []


def _play_recorded(system: RuleSystem, operations: Iterable[Operation], initial: Encounter, seen: set[str]) -> None:
    player = RecordingPlayer(initial, system, seen)
    for operation in operations:
        attempt(player, operation)
    play_on(player, system)


def options_read_by_rules(system: RuleSystem) -> frozenset[str]:
    """The option keys some rule of the game looks up while its sample plays and plays on (:func:`play_on`):
    with the defaults, then again with each option set to each of its other values in turn (a rule may read
    one option only when another is on)."""
    sample = system.sample()
    operations = [entry.operation for entry in sample.entries]
    seen: set[str] = set()
    _play_recorded(system, operations, sample.initial, seen)
    for spec in system.option_specs():
        for value in option_variants(spec):
            options = {**sample.initial.options, spec.key: value}
            _play_recorded(system, operations, replace(sample.initial, options=options), seen)
    return frozenset(seen)
