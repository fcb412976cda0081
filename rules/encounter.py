"""The encounter's state: plain, immutable dataclasses.

State is never mutated in place: an operation builds a new ``Encounter`` that shares every unchanged
part with the old one. That makes undo exact (the history keeps the old objects), cheap (only what
changed is new) and safe to hand to the UI (nobody can change a state behind the history's back).
Mapping fields are treated as read-only; build new ones with :func:`with_item` / :func:`without_item`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Final, TypeAlias, TypeVar

from rules.frozen import evolve
from rules.text import N_

#: A value that can live in a JSON document (options, system-specific extras).
JsonValue: TypeAlias = "bool | int | float | str | tuple[JsonValue, ...] | Mapping[str, JsonValue] | None"

_V = TypeVar("_V")
EMPTY: Mapping[str, object] = MappingProxyType({})

#: Field metadata: leave the field out of a saved document while it holds its default, so files written
#: before the field existed and files that do not use it stay byte-for-byte what they were.
OMIT_DEFAULT: Final[str] = "omit_default"
ADDED_LATER: Final[Mapping[str, bool]] = MappingProxyType({OMIT_DEFAULT: True})


def frozen_map(items: Mapping[str, _V] | None = None) -> Mapping[str, _V]:
    """Return a read-only copy of ``items`` (insertion order kept)."""
    return MappingProxyType(dict(items or {}))


def with_item(mapping: Mapping[str, _V], key: str, value: _V) -> Mapping[str, _V]:
    """Return a read-only copy of ``mapping`` with ``key`` set (kept in place if present, else appended)."""
    copy = dict(mapping)
    copy[key] = value
    return MappingProxyType(copy)


def without_item(mapping: Mapping[str, _V], key: str) -> Mapping[str, _V]:
    """Return a read-only copy of ``mapping`` without ``key``."""
    copy = dict(mapping)
    copy.pop(key, None)
    return MappingProxyType(copy)


class Side(StrEnum):
    """Which side of the fight a combatant is on."""

    PLAYER = "player"
    ALLY = "ally"
    OPPONENT = "opponent"


SIDE_LABELS: Mapping[Side, str] = MappingProxyType(
    {Side.PLAYER: N_("Player character"), Side.ALLY: N_("Ally"), Side.OPPONENT: N_("Opponent")}
)


class Status(StrEnum):
    """Whether a combatant can still take part; the RuleSystem decides from its condition tracks."""

    ACTIVE = "active"
    UNCONSCIOUS = "unconscious"
    DYING = "dying"
    DEAD = "dead"


STATUS_LABELS: Mapping[Status, str] = MappingProxyType(
    {
        Status.ACTIVE: N_("Active"),
        Status.UNCONSCIOUS: N_("Unconscious"),
        Status.DYING: N_("Dying"),
        Status.DEAD: N_("Dead"),
    }
)


@dataclass(frozen=True)
class Pool:
    """A dice pool that refreshes on the game's timing (SR3 combat pool, Člověk banks)."""

    size: int
    spent: int = 0

    @property
    def remaining(self) -> int:
        """Dice still available."""
        return max(0, self.size - self.spent)


@dataclass(frozen=True)
class Weapon:
    """A named weapon or attack a combatant carries, in its game's own terms.

    ``values`` holds what the game's weapon fields (:meth:`RuleSystem.weapon_fields`) name: SR3's damage code and
    firing modes, Walka's weapon dice, Člověk's value and skill. Two keys mean the same in every game that uses
    them: ``magazine`` (rounds a full load holds) and ``rounds`` (rounds loaded now), which attacks count down
    and a reload fills (:mod:`rules.weapons`).
    """

    name: str
    values: Mapping[str, JsonValue] = field(default_factory=frozen_map)

    def value(self, key: str, default: JsonValue = None) -> JsonValue:
        """The weapon's value for ``key``, or ``default`` when it has none."""
        return self.values.get(key, default)

    def number(self, key: str, default: int = 0) -> int:
        """A whole-number value (``default`` when missing or not a number)."""
        value = self.values.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else default

    def with_value(self, key: str, value: JsonValue) -> Weapon:
        """A copy with one value changed."""
        return evolve(self, values=with_item(self.values, key, value))


@dataclass(frozen=True)
class Initiative:
    """One combatant's initiative for the current round, as rolled or typed in.

    ``base`` is the fixed part (e.g. modified Reaction), ``dice`` the faces rolled (a total the player announced
    over several dice is kept as ``base`` with no faces: :meth:`RuleSystem.initiative_from_total`); ``tiebreak`` holds
    d6 rolls used only to settle ties that every other rule leaves open (rolled once, so replays agree).
    ``override`` is a score the GM typed, which wins over the rolled one.
    """

    base: int
    dice: tuple[int, ...] = ()
    tiebreak: tuple[int, ...] = ()
    override: int | None = None

    @property
    def rolled(self) -> int:
        """Base plus dice, or the GM's override."""
        return self.override if self.override is not None else self.base + sum(self.dice)


@dataclass(frozen=True)
class Combatant:
    """A character or creature in the fight; the RuleSystem gives meaning to attributes and tracks."""

    id: str
    name: str
    side: Side = Side.OPPONENT
    attributes: Mapping[str, int] = field(default_factory=frozen_map)
    damage: Mapping[str, int] = field(default_factory=frozen_map)
    pools: Mapping[str, Pool] = field(default_factory=frozen_map)
    initiative: Initiative | None = None
    actions_used: Mapping[str, int] = field(default_factory=frozen_map)
    seat: str | None = None
    group: str | None = None
    notes: str = ""
    extra: Mapping[str, JsonValue] = field(default_factory=frozen_map)
    weapons: tuple[Weapon, ...] = field(default=(), metadata=ADDED_LATER)

    def attribute(self, name: str, default: int = 0) -> int:
        """The attribute's value, or ``default`` when the combatant has none."""
        return self.attributes.get(name, default)

    def boxes(self, track: str) -> int:
        """Damage marked on ``track``."""
        return self.damage.get(track, 0)

    def with_attribute(self, name: str, value: int) -> Combatant:
        """A copy with one attribute changed."""
        return evolve(self, attributes=with_item(self.attributes, name, value))

    def with_damage(self, track: str, value: int) -> Combatant:
        """A copy with the damage on one track changed."""
        return evolve(self, damage=with_item(self.damage, track, value))

    def weapon(self, name: str) -> Weapon | None:
        """The weapon called ``name`` (None: the combatant carries none by that name)."""
        return next((weapon for weapon in self.weapons if weapon.name == name), None)

    def with_weapon(self, weapon: Weapon) -> Combatant:
        """A copy with the weapon of the same name replaced by ``weapon``."""
        return evolve(self, weapons=tuple(weapon if w.name == weapon.name else w for w in self.weapons))

    def with_pool(self, name: str, pool: Pool) -> Combatant:
        """A copy with one pool replaced."""
        return evolve(self, pools=with_item(self.pools, name, pool))


class SlotKind(StrEnum):
    """What the current slot of the turn order is."""

    ACTORS = "actors"  # one combatant, or a group acting simultaneously (Souboj ties, Walka seats)
    DELAYED = "delayed"  # a combatant taking an action it delayed earlier
    TIMER = "timer"  # a timed event (SR3 grenade) whose moment has come


@dataclass(frozen=True)
class Slot:
    """One step of the turn order: who acts (or what happens) now, and at which phase score."""

    kind: SlotKind
    ids: tuple[str, ...]
    phase: int | None = None


@dataclass(frozen=True)
class Delay:
    """An action a combatant held back; ``into_next_pass``: held into the next pass (the game says when it lapses)."""

    combatant: str
    round: int
    pass_no: int
    into_next_pass: bool = False


@dataclass(frozen=True)
class Clock:
    """Where the fight is: round (combat turn), initiative pass, who has acted, who acts now.

    ``round == 0`` means the fight has not started; ``pass_no == 0`` means the round's initiative has not
    been rolled yet. ``yielded`` holds combatants who chose to act after those they tie with.
    """

    round: int = 0
    pass_no: int = 0
    acted: frozenset[str] = frozenset()
    yielded: frozenset[str] = frozenset()
    current: Slot | None = None

    @property
    def started(self) -> bool:
        """True once the first initiative has been rolled."""
        return self.round > 0


@dataclass(frozen=True)
class Timing:
    """When an effect ends or reminds: a hook, optionally tied to one combatant's turns."""

    hook: str
    combatant: str | None = None


@dataclass(frozen=True)
class Effect:
    """A condition or reminder with a duration counted on the game's timing hooks.

    ``remaining`` counts how many more times ``expires`` fires before the effect ends (None: until removed).
    ``reminds`` is a hook at which the GM is reminded of it each time (bleeding, a spell's upkeep).
    ``due`` pins a one-off event to a moment (round, pass, phase), e.g. a grenade's timer.
    ``meaning`` is the key of one of the game's :meth:`~rules.systems.base.RuleSystem.effect_meanings` ("" = a
    reminder only): what the attack dialog reads from it (smoke → visibility).
    """

    id: str
    name: str
    target: str | None = None
    source: str | None = None
    expires: Timing | None = None
    remaining: int | None = None
    reminds: Timing | None = None
    due: tuple[int, int, int] | None = None
    note: str = ""
    meaning: str = field(default="", metadata=ADDED_LATER)


@dataclass(frozen=True)
class Encounter:
    """The whole fight: who takes part, where the turn order stands, effects, delays and GM options.

    ``game`` is the game's own encounter-level state (Walka's seating order, SR3's surprise test…): items
    only the game's package reads and writes, through its own small helpers over :meth:`with_game_item`.
    Generic code saves, diffs and restores it item by item like any other mapping, never looking inside.
    """

    system_id: str
    name: str = ""
    options: Mapping[str, JsonValue] = field(default_factory=frozen_map)
    combatants: Mapping[str, Combatant] = field(default_factory=frozen_map)
    effects: Mapping[str, Effect] = field(default_factory=frozen_map)
    delays: Mapping[str, Delay] = field(default_factory=frozen_map)
    clock: Clock = field(default_factory=Clock)
    game: Mapping[str, JsonValue] = field(default_factory=frozen_map)
    notes: str = ""
    serial: int = 0

    def combatant(self, combatant_id: str) -> Combatant:
        """The combatant with that id (KeyError if none: callers validate ids in operations)."""
        return self.combatants[combatant_id]

    def with_combatant(self, combatant: Combatant) -> Encounter:
        """A copy with ``combatant`` added or replaced."""
        return evolve(self, combatants=with_item(self.combatants, combatant.id, combatant))

    def with_clock(self, **changes: object) -> Encounter:
        """A copy with the clock's fields changed."""
        return evolve(self, clock=evolve(self.clock, **changes))

    def new_id(self, prefix: str) -> tuple[Encounter, str]:
        """Allocate a fresh id; ids come from a counter in the state so replays allocate the same ones."""
        serial = self.serial + 1
        return evolve(self, serial=serial), f"{prefix}{serial}"

    def option(self, name: str, default: JsonValue = None) -> JsonValue:
        """A GM option of this encounter (the RuleSystem supplies defaults)."""
        return self.options.get(name, default)

    def with_game_item(self, key: str, value: JsonValue) -> Encounter:
        """A copy with one item of the game's own state set; ``None`` removes it (absent and None are one).

        Items are kept in key order, so every way to the same state (an operation, undo, a file's migration)
        builds the very same mapping; the other items stay the same objects (the history's delta stays small).
        """
        if (self.game[key] is value) if key in self.game else value is None:
            return self
        items = {name: item for name, item in self.game.items() if name != key}
        if value is not None:
            items[key] = value
        return evolve(self, game=frozen_map(dict(sorted(items.items()))))
