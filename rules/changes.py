"""What an operation changed, as named flags and ids (in the spirit of Anki's ``OpChanges``).

Views ask a :class:`Changes` which parts of the fight moved — who, the roster, the clock, effects, options, the
game's own state — instead of reading a :class:`~rules.history.Delta`'s fields by name. It is computed once per
change, here, the only place that knows how the encounter's fields map to what a view shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from rules.encounter import Encounter
from rules.history import ClockChange, Delta

_FIELDS = frozenset(spec.name for spec in fields(Encounter))


@dataclass(frozen=True)
class Changes:
    """The parts of the encounter one operation (or its undo) changed."""

    #: Combatants whose state changed, including those added or removed.
    combatants: frozenset[str] = frozenset()
    added: frozenset[str] = frozenset()
    removed: frozenset[str] = frozenset()
    #: Combatants were added, removed or reordered (a table must insert, remove or move rows).
    roster: bool = False
    #: The round, pass, current slot or who has acted moved.
    clock: bool = False
    #: Whoever's turn it was before or is now, when the clock moved.
    turn: frozenset[str] = frozenset()
    #: Effects that changed, appeared or went away.
    effects: frozenset[str] = frozenset()
    #: Effects were added or removed (not only changed).
    effect_list: bool = False
    delays: bool = False
    #: Keys of the GM options that changed.
    options: frozenset[str] = frozenset()
    #: The game's own encounter-level state (``Encounter.game``; what is in it is the game's business).
    game_state: bool = False
    #: The encounter's name or notes.
    details: bool = False

    @property
    def empty(self) -> bool:
        """Nothing changed."""
        return self == Changes()

    @classmethod
    def of(cls, delta: Delta) -> Changes:
        """Summarise ``delta`` (undoing it changes the same parts, so one summary serves both ways)."""
        summary: dict[str, Any] = {}
        for name in _FIELDS & (set(delta.fields) | set(delta.items)):
            summary.update(_SUMMARIES.get(name, _game_state)(delta, name))
        return cls(**summary)


def _keys(delta: Delta, name: str) -> tuple[frozenset[str], frozenset[str], frozenset[str], bool]:
    """(changed, added, removed, listing changed) for a mapping field of the encounter."""
    if name in delta.fields:
        old, new = delta.fields[name]
        old_keys = frozenset(old) if isinstance(old, Mapping) else frozenset()
        new_keys = frozenset(new) if isinstance(new, Mapping) else frozenset()
        return old_keys | new_keys, new_keys - old_keys, old_keys - new_keys, True
    return frozenset(delta.items.get(name, {})), frozenset(), frozenset(), False


def _combatants(delta: Delta, name: str) -> dict[str, Any]:
    changed, added, removed, listing = _keys(delta, name)
    if listing:  # keys added, removed or reordered: the whole mapping was recorded, so compare values
        old, new = delta.fields[name]
        changed = added | removed | frozenset(key for key in old if key in new and old[key] is not new[key])
    return {"combatants": changed, "added": added, "removed": removed, "roster": listing}


def _effects(delta: Delta, name: str) -> dict[str, Any]:
    changed, _added, _removed, listing = _keys(delta, name)
    return {"effects": changed, "effect_list": listing}


def _options(delta: Delta, name: str) -> dict[str, Any]:
    return {"options": _keys(delta, name)[0]}


def _clock(delta: Delta, name: str) -> dict[str, Any]:
    change = delta.fields[name]
    clocks = (change.before, change.after) if isinstance(change, ClockChange) else change
    slots = (clock.current for clock in clocks)
    return {"clock": True, "turn": frozenset(i for slot in slots if slot is not None for i in slot.ids)}


def _flag(flag: str) -> Any:
    return lambda _delta, _name: {flag: True}


def _game_state(_delta: Delta, _name: str) -> dict[str, Any]:
    return {"game_state": True}


#: How each field of the encounter is summarised; any other field is the game's own state.
_SUMMARIES = {
    "combatants": _combatants,
    "effects": _effects,
    "options": _options,
    "clock": _clock,
    "delays": _flag("delays"),
    "name": _flag("details"),
    "notes": _flag("details"),
    "serial": lambda _delta, _name: {},
    "system_id": _flag("details"),
}
