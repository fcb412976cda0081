"""Souboj's vocabulary: attribute and track keys, action kinds, and what a combatant carries in ``extra``.

Per-round bookkeeping (the declared action, "act after", a held reaction, the dying countdown, the shadow
damage timer, initiative modifiers bound to effects) lives in :attr:`Combatant.extra` as plain JSON data,
so it serialises, undoes and replays like everything else. The readers here turn it back into typed values
and tolerate anything malformed (a hand-edited file) by treating it as absent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from rules.encounter import Combatant, Encounter, JsonValue, frozen_map, with_item, without_item
from rules.systems.souboj.round_one import order_bucket
from rules.text import N_

# --- attributes and tracks ----------------------------------------------------------------------------------
STRENGTH: Final = "strength"
DEXTERITY: Final = "dexterity"
INTELLIGENCE: Final = "intelligence"
ENDURANCE: Final = "endurance"
LEVEL: Final = "level"
HIT_POINTS: Final = "hit_points"
ARMOR: Final = "armor"
#: 1 when the armor also protects against thrown weapons (souboj.md Decision: "which armors count against thrown
#: weapons is a per-armor flag (default: not, unless marked, since only some do)").
ARMOR_VS_THROWN: Final = "armor_vs_thrown"
WEAPON_STRENGTH: Final = "weapon_strength"
WEAPON_DEFENCE: Final = "weapon_defence"
#: souboj.md Decision: "actions per round, major and minor, are per-creature data; default one major action".
ACTIONS_PER_ROUND: Final = "actions_per_round"
#: The minor actions of the same Decision (default none: the ordinary creature has one major action only).
MINOR_ACTIONS: Final = "minor_actions"

WOUNDS: Final = "wounds"  # ordinary damage taken
SHADOW: Final = "shadow"  # shadow (non-lethal) damage taken, tracked apart

# --- extra keys ---------------------------------------------------------------------------------------------
DECLARED: Final = "declared"
ACT_AFTER: Final = "act_after"
REACTION: Final = "reaction"
GAVE_UP: Final = "gave_up_initiative"
DYING_ROUNDS: Final = "dying_rounds"
#: souboj.md Decision: "the last action is allowed once (it is the last), its Endurance roll judged by the GM":
#: True once granted, False once the roll failed (absent: not judged yet in this dying).
LAST_ACTION: Final = "last_action"
#: True once the granted last action has been taken (absent: not yet, or none granted).
LAST_ACTION_TAKEN: Final = "last_action_taken"
#: When this dying began: the round, and the score of the simultaneous group acting then (absent between groups).
#: A blow struck in the group it fell in still lands; one dying since before may do nothing but its last action.
#: Kept only in fights that keep it (:data:`DYING_LAST_ACTION` stored): a fight saved before replays unchanged.
DYING_SINCE: Final = "dying_since"
DEAD: Final = "dead"
SHADOW_TIMER: Final = "shadow_timer"
INITIATIVE_EFFECTS: Final = "initiative_effects"
#: Actions the GM granted beyond the creature's number this round: ``{"round": r, "action": n, "minor": m}``.
GRANTED_ACTIONS: Final = "granted_actions"

# --- options read here ---------------------------------------------------------------------------------------
#: souboj.md, "Dying": "It can do nothing; but if it is dying at the start of its turn it may roll Endurance for
#: one last action": a dying creature's actions are refused but for that one (True, the default of a new fight).
DYING_LAST_ACTION: Final = "dying_last_action"


class Action(StrEnum):
    """What a combatant declared for this round; it orders a simultaneous group."""

    MAGIC = "magic"
    RANGED = "ranged"  # bows, thrown weapons and firearms
    MELEE = "melee"  # face to face, armed or not
    NONCOMBAT = "noncombat"  # moving, first aid, looking around: the GM places it


ACTION_LABELS: Final[Mapping[Action, str]] = MappingProxyType({
    Action.MAGIC: N_("magic"),
    Action.RANGED: N_("ranged or firearm attack"),
    Action.MELEE: N_("melee attack"),
    Action.NONCOMBAT: N_("non-combat action"),
})


#: The same, short, for the initiative column.
ACTION_SHORT_LABELS: Final[Mapping[Action, str]] = MappingProxyType({
    Action.MAGIC: N_("magic"),
    Action.RANGED: N_("ranged"),
    Action.MELEE: N_("melee"),
    Action.NONCOMBAT: N_("non-combat"),
})


class Placement(StrEnum):
    """Where the GM puts a non-combat action inside its simultaneous group."""

    FIRST = "first"
    AFTER_MAGIC = "after_magic"
    AFTER_RANGED = "after_ranged"
    LAST = "last"


PLACEMENT_LABELS: Final[Mapping[Placement, str]] = MappingProxyType({
    Placement.FIRST: N_("before magic"),
    Placement.AFTER_MAGIC: N_("after magic"),
    Placement.AFTER_RANGED: N_("after ranged attacks"),
    Placement.LAST: N_("after melee"),
})

#: Rank inside a group: magic, then ranged/firearm, then melee; non-combat actions slot in between.
ACTION_RANK: Final[Mapping[Action, int]] = MappingProxyType({Action.MAGIC: 1, Action.RANGED: 3, Action.MELEE: 5})
PLACEMENT_RANK: Final[Mapping[Placement, int]] = MappingProxyType({
    Placement.FIRST: 0, Placement.AFTER_MAGIC: 2, Placement.AFTER_RANGED: 4, Placement.LAST: 6})
UNDECLARED_RANK: Final = 7


class Kind(StrEnum):
    """How an attack is made (the digest's attack and defence table)."""

    MAGIC = "magic"
    RANGED = "ranged"
    THROWN = "thrown"
    FIREARM = "firearm"
    MELEE = "melee"
    UNARMED = "unarmed"


KIND_LABELS: Final[Mapping[Kind, str]] = MappingProxyType({
    Kind.MAGIC: N_("Magic (per spell)"),
    Kind.RANGED: N_("Ranged (bow, crossbow)"),
    Kind.THROWN: N_("Thrown weapon"),
    Kind.FIREARM: N_("Firearm"),
    Kind.MELEE: N_("Melee (face to face)"),
    Kind.UNARMED: N_("Unarmed"),
})


class Cause(StrEnum):
    """What makes a hit critical."""

    BEHIND = "behind"
    IMMOBILE = "immobile"
    NONCOMBAT = "noncombat"
    GM = "gm"  # a firearm may be critical without the usual circumstances, on the GM's call


CAUSE_LABELS: Final[Mapping[Cause, str]] = MappingProxyType({
    Cause.BEHIND: N_("attack from behind"),
    Cause.IMMOBILE: N_("immobile target"),
    Cause.NONCOMBAT: N_("target spent its last major action on a non-combat activity"),
    Cause.GM: N_("firearm: critical on the GM's call"),
})


# --- typed views of the extras ------------------------------------------------------------------------------
def _int(value: JsonValue) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _record(combatant: Combatant, key: str) -> Mapping[str, JsonValue]:
    value = combatant.extra.get(key)
    return value if isinstance(value, Mapping) else frozen_map()


@dataclass(frozen=True)
class Declaration:
    """The action a combatant declared in ``round``."""

    round: int
    action: Action
    placement: Placement = Placement.LAST

    def rank(self) -> int:
        """Position inside a simultaneous group (lower acts first)."""
        if self.action is Action.NONCOMBAT:
            return PLACEMENT_RANK[self.placement]
        return ACTION_RANK[self.action]

    def to_json(self) -> Mapping[str, JsonValue]:
        """As stored in ``extra``."""
        return frozen_map({"round": self.round, "action": self.action.value, "placement": self.placement.value})


def declaration(combatant: Combatant) -> Declaration | None:
    """The last declaration the combatant made (any round), if readable."""
    record = _record(combatant, DECLARED)
    round_no, action, placement = _int(record.get("round")), record.get("action"), record.get("placement")
    if round_no is None or action not in set(Action) or placement not in set(Placement):
        return None
    return Declaration(round_no, Action(str(action)), Placement(str(placement)))


def declared_now(combatant: Combatant, encounter: Encounter) -> Declaration | None:
    """The declaration for the round being played."""
    found = declaration(combatant)
    return found if found is not None and found.round == encounter.clock.round else None


def act_after(combatant: Combatant, encounter: Encounter) -> str | None:
    """Whom the combatant chose to act after in this round (same score), if anyone."""
    record = _record(combatant, ACT_AFTER)
    leader = record.get("leader")
    if _int(record.get("round")) != encounter.clock.round or not isinstance(leader, str):
        return None
    return leader


@dataclass(frozen=True)
class Reaction:
    """A reaction held in place of the initiative of ``round``; ``surprise``: granted by a surprise round."""

    round: int
    carries_over: bool = False
    note: str = ""
    surprise: bool = False

    def to_json(self) -> Mapping[str, JsonValue]:
        """As stored in ``extra``."""
        return frozen_map({"round": self.round, "carries_over": self.carries_over, "note": self.note,
                           "surprise": self.surprise})


def _read_reaction(record: object) -> Reaction | None:
    if not isinstance(record, Mapping):
        return None
    round_no, note = _int(record.get("round")), record.get("note", "")
    carries, surprise = record.get("carries_over", False), record.get("surprise", False)
    if round_no is None or not isinstance(note, str) or not isinstance(carries, bool) or not isinstance(
            surprise, bool):
        return None
    return Reaction(round_no, carries, note, surprise)


def reactions(combatant: Combatant) -> tuple[Reaction, ...]:
    """Every reaction the combatant holds, oldest first (souboj.md: "Reakcí si bytost může schovat kolik chce", as
    many as it wants; carried-over and new ones side by side)."""
    stored = combatant.extra.get(REACTION)
    records = stored if isinstance(stored, tuple) else (stored,)
    return tuple(held for held in map(_read_reaction, records) if held is not None)


def reaction(combatant: Combatant) -> Reaction | None:
    """The oldest reaction the combatant holds, if any."""
    held = reactions(combatant)
    return held[0] if held else None


def with_reactions(combatant: Combatant, held: Sequence[Reaction]) -> Combatant:
    """A copy holding ``held`` (one is stored as before, as one record, so fights saved earlier read the same)."""
    if not held:
        return with_extra(combatant, REACTION, None)
    if len(held) == 1:
        return with_extra(combatant, REACTION, held[0].to_json())
    return with_extra(combatant, REACTION, tuple(item.to_json() for item in held))


def gave_up_now(combatant: Combatant, encounter: Encounter) -> bool:
    """Gave up this round's initiative for a reaction: no place in this round's order, used or not."""
    return _int(combatant.extra.get(GAVE_UP)) == encounter.clock.round


def dying_rounds(combatant: Combatant) -> int | None:
    """Rounds the GM gave a dying combatant before it dies (None: not set)."""
    return _int(combatant.extra.get(DYING_ROUNDS))


def last_action(combatant: Combatant) -> bool | None:
    """The GM's word on a dying creature's Endurance roll for one last action (None: not judged)."""
    judged = combatant.extra.get(LAST_ACTION)
    return judged if isinstance(judged, bool) else None


def last_action_taken(combatant: Combatant) -> bool:
    """Whether the dying creature has taken the last action granted to it."""
    return combatant.extra.get(LAST_ACTION_TAKEN) is True


def has_last_action(combatant: Combatant) -> bool:
    """Granted one last action (its Endurance roll made) and not taken it yet."""
    return last_action(combatant) is True and not last_action_taken(combatant)


def dying_since(combatant: Combatant) -> Mapping[str, JsonValue] | None:
    """When the combatant's dying began (:func:`moment`), if the fight kept it."""
    record = combatant.extra.get(DYING_SINCE)
    return record if isinstance(record, Mapping) else None


def moment(encounter: Encounter) -> Mapping[str, JsonValue]:
    """Where the fight stands, as :data:`DYING_SINCE` keeps it: the round, and the score of the group acting now."""
    clock = encounter.clock
    current = clock.current
    if current is None or current.phase is None:
        return frozen_map({"round": clock.round})
    members = [encounter.combatants[i] for i in current.ids if i in encounter.combatants]
    if members and order_bucket(members[0], encounter):  # round 1's less ready side: its groups come second
        return frozen_map({"round": clock.round, "phase": current.phase, "after_readier": True})
    return frozen_map({"round": clock.round, "phase": current.phase})


def actions_per_round(combatant: Combatant) -> int:
    """The creature's major actions a round (one unless the GM says otherwise)."""
    return max(0, combatant.attribute(ACTIONS_PER_ROUND, 1))


def minor_actions(combatant: Combatant) -> int:
    """The creature's minor actions a round (none unless the GM says otherwise)."""
    return max(0, combatant.attribute(MINOR_ACTIONS, 0))


def granted(combatant: Combatant, encounter: Encounter, kind: str) -> int:
    """Actions of ``kind`` the GM granted the creature beyond its number in the round being played."""
    record = _record(combatant, GRANTED_ACTIONS)
    if _int(record.get("round")) != encounter.clock.round:
        return 0
    return max(0, _int(record.get(kind)) or 0)


def with_granted(combatant: Combatant, encounter: Encounter, kind: str) -> Combatant:
    """A copy with one more action of ``kind`` granted this round."""
    record = _record(combatant, GRANTED_ACTIONS)
    now = dict(record) if _int(record.get("round")) == encounter.clock.round else {"round": encounter.clock.round}
    now[kind] = granted(combatant, encounter, kind) + 1
    return with_extra(combatant, GRANTED_ACTIONS, frozen_map(now))


def shadow_timer(combatant: Combatant) -> int | None:
    """Rounds until three quarters of the shadow damage fade (None: no shadow damage waiting)."""
    return _int(combatant.extra.get(SHADOW_TIMER))


def marked_dead(combatant: Combatant) -> bool:
    """Dead by a rule the numbers alone cannot show (countdown, critical wound, finished off, the GM)."""
    return combatant.extra.get(DEAD) is True


def initiative_modifiers(combatant: Combatant) -> Mapping[str, int]:
    """Initiative modifiers by the id of the effect that grants them."""
    record = _record(combatant, INITIATIVE_EFFECTS)
    return frozen_map({key: number for key, value in record.items() if (number := _int(value)) is not None})


def with_extra(combatant: Combatant, key: str, value: JsonValue) -> Combatant:
    """A copy with ``extra[key]`` set (None removes it)."""
    extra = without_item(combatant.extra, key) if value is None else with_item(combatant.extra, key, value)
    if extra == combatant.extra and list(extra) == list(combatant.extra):
        return combatant
    return replace(combatant, extra=extra)
