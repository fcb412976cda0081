"""What a GM can observe of an opened fight, as JSON: recorded by the release that wrote the files in this
folder (see ``make.py``) and compared, exactly, by ``tests/app/test_release_files.py`` after every change.

Only public, game-facing readings are used (a combatant's tracks, status and notes, the clock, the order
still to come, the log as rendered in English, Walka's table and SR3's surprise as the rules read them), never
the saved layout of the state, so the same observation holds across a change of the file format.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from rules.encounter import Encounter, Slot
from rules.errors import RulesError
from rules.history import History
from rules.systems.base import RuleSystem

#: Options a game added after these files were written (game id → keys). The files hold none of them, so they open
#: with the options' defaults (``test_release_files`` checks that); the rest of what they show is compared as ever.
OPTIONS_ADDED_SINCE: dict[str, frozenset[str]] = {"souboj": frozenset({"reload_costs_action", "dying_last_action",
                                                                         "shadow_clock", "settled_declarations"}),
                                                   "walka": frozenset({"reload_action", "down_forbids", "aim_doubles",
                                                                       "test_success", "move_exactly", "parry_with",
                                                                       "aim_twice"}),
                                                   "clovek": frozenset({"reload_cost", "banks_refill",
                                                                        "off_hand_burns", "turn_order", "success_floor",
                                                                        "supernatural_reroll", "d10_faces"}),
                                                   "institut": frozenset({"die", "declared_count_lowered_after_roll",
                                                                        "movement_limit",
                                                                        "modifier_unit"}),
                                                   "sr3": frozenset({"melee_staging", "free_actions_need_a_phase",
                                                                     "tie_first_step",
                                                                     "called_shots_throws_and_melee",
                                                                     "pool_at_most_skill"})}


def _slot(slot: Slot | None) -> Any:
    return None if slot is None else [slot.kind.value, list(slot.ids), slot.phase]


def _combatant(state: Encounter, system: RuleSystem, combatant_id: str) -> dict[str, Any]:
    combatant = state.combatants[combatant_id]
    return {
        "id": combatant.id,
        "name": combatant.name,
        "side": combatant.side.value,
        "status": system.status(combatant, state).value,
        "can_act": system.can_act(combatant, state),
        "tracks": {track.key: [combatant.boxes(track.key), track.size] for track in system.tracks(combatant, state)},
        "notes": list(system.condition_notes(combatant, state)),
        "pools": {key: [pool.size, pool.spent] for key, pool in combatant.pools.items()},
        "score": system.score_text(combatant, state),
        "seat": combatant.seat,
    }


def _walka(state: Encounter, system: RuleSystem) -> dict[str, Any]:
    from rules.systems.walka.seating import table_seats

    order = system.order(state)  # type: ignore[attr-defined]
    tie = system.open_tie(state)  # type: ignore[attr-defined]
    return {"table": table_seats(state), "order": list(order.seats), "start": order.start,
            "players_first": order.players_first,
            "open_tie": None if tie is None else [tie.roll, list(tie.player_seats)]}


def _sr3(state: Encounter) -> dict[str, Any]:
    from rules.systems.sr3.ops import may_act_against

    ids = list(state.combatants)
    return {"surprised": [[actor, other] for actor in ids for other in ids
                          if actor != other and not may_act_against(state, actor, other)]}


#: (game, option) added after these files were recorded: an old fight reads it at its default (left out of the
#: observation then; what the default does shows in the rest of it).
def observe_state(state: Encounter, system: RuleSystem) -> dict[str, Any]:
    """Combatants, clock, the order still to come, and the game's own readings of one state."""
    clock = state.clock
    try:
        remaining: Any = [_slot(slot) for slot in system.remaining_slots(state)]
    except RulesError as error:
        remaining = f"error: {error}"
    observed: dict[str, Any] = {
        "name": state.name,
        "combatants": [_combatant(state, system, combatant_id) for combatant_id in state.combatants],
        "clock": {"round": clock.round, "pass": clock.pass_no, "acted": sorted(clock.acted),
                  "yielded": sorted(clock.yielded), "current": _slot(clock.current)},
        "remaining": remaining,
        "effects": [[e.id, e.name, e.target, e.remaining] for e in state.effects.values()],
        "delays": [[d.combatant, d.round, d.pass_no, d.into_next_pass] for d in state.delays.values()],
        "options": {spec.key: _plain(system.option(state, spec.key)) for spec in system.option_specs()
                    if spec.key not in OPTIONS_ADDED_SINCE.get(system.id, frozenset())},
    }
    if system.id == "walka":
        observed["walka"] = _walka(state, system)
    if system.id == "sr3":
        observed["sr3"] = _sr3(state)
    return observed


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if hasattr(value, "items"):
        return {str(key): _plain(item) for key, item in value.items()}
    return value


def log_lines(history: History) -> list[list[Any]]:
    """Every entry's round, pass and log text (English: nothing is installed in the tests' rules layer)."""
    return [[entry.round, entry.pass_no, entry.text()] for entry in history.entries]


def observe(history: History, *, steps: bool = True) -> dict[str, Any]:
    """The fight as opened, its log, every state undo passes through (``steps``) and the state at the start.

    Undoes the whole history (``history`` is left at its start).
    """
    system = history.system
    opened = observe_state(history.state, system)
    log = log_lines(history)
    undo_steps = []
    while history.can_undo:
        history.undo()
        undo_steps.append(observe_state(history.state, system))
    observed: dict[str, Any] = {"opened": opened, "log": log, "entries": len(log),
                                "undone": observe_state(history.state, system)}
    if steps:
        observed["undo_steps"] = undo_steps
    else:  # a long fight: each state undo passes through, as a digest of its observation
        observed["undo_digests"] = [digest(step) for step in undo_steps]
    return observed


def digest(observed: Any) -> str:
    """A short fingerprint of an observation (SHA-256 of its canonical JSON)."""
    text = json.dumps(observed, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]
