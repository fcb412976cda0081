"""Long actions: several rolls that pile up power toward a target (clovek.md, "Long actions").

A long action lives in the character's ``extra`` (under ``long_actions``, by id) so that it is saved, undone
and replayed with everything else. Each roll burns one stun wound of its type and is made with
:class:`~rules.systems.clovek.check.ClovekCheck` (``long_action=`` its id): a success adds the roll's power, a
failure is wasted, a critical failure wipes the power. While the action runs (or is paused without being
deferred), stun wounds of its type do not heal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

from rules.encounter import Combatant, Encounter, JsonValue, frozen_map, with_item, without_item
from rules.errors import OperationError
from rules.history import Applied, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.systems.clovek.banks import BANK_WORDS, check_bank, extra_map, with_extra
from rules.text import N_, _

LONG_ACTIONS: Final[str] = "long_actions"
MAX_TARGET: Final[int] = 10_000
MAX_NAME: Final[int] = 200


class LongKind(StrEnum):
    """How a long action copes with a break."""

    UNINTERRUPTIBLE = "uninterruptible"  # a break loses all the power
    INTERRUPTIBLE = "interruptible"  # may pause; stun of its type still does not heal
    DEFERRABLE = "deferrable"  # may pause; stun heals, the power is kept


class LongState(StrEnum):
    """Where a long action stands."""

    RUNNING = "running"
    PAUSED = "paused"  # an interruptible action set aside: power kept, stun does not heal
    DEFERRED = "deferred"  # a deferrable action set aside: power kept, stun heals
    COMPLETE = "complete"  # the target was reached


KIND_LABELS: Final[dict[LongKind, str]] = {
    LongKind.UNINTERRUPTIBLE: N_("Uninterruptible"),
    LongKind.INTERRUPTIBLE: N_("Interruptible"),
    LongKind.DEFERRABLE: N_("Deferrable"),
}
#: Lower-case kind names for sentences.
KIND_WORDS: Final[dict[LongKind, str]] = {
    LongKind.UNINTERRUPTIBLE: N_("uninterruptible"),
    LongKind.INTERRUPTIBLE: N_("interruptible"),
    LongKind.DEFERRABLE: N_("deferrable"),
}
STATE_LABELS: Final[dict[LongState, str]] = {
    LongState.RUNNING: N_("running"),
    LongState.PAUSED: N_("paused"),
    LongState.DEFERRED: N_("deferred"),
    LongState.COMPLETE: N_("complete"),
}


@dataclass(frozen=True)
class LongAction:
    """One long action of a character."""

    id: str
    name: str
    bank: str
    kind: LongKind
    target: int
    power: int = 0
    rolls: int = 0
    state: LongState = LongState.RUNNING

    @property
    def blocks_healing(self) -> bool:
        """Whether stun wounds of its type cannot heal now."""
        return self.state in (LongState.RUNNING, LongState.PAUSED)

    def to_json(self) -> Mapping[str, JsonValue]:
        """As kept in ``extra``."""
        return frozen_map({"name": self.name, "bank": self.bank, "kind": self.kind.value, "target": self.target,
                           "power": self.power, "rolls": self.rolls, "state": self.state.value})

    @classmethod
    def from_json(cls, action_id: str, data: Mapping[str, JsonValue]) -> LongAction:
        """Read one back (a damaged entry raises OperationError naming it)."""
        name, bank = data.get("name"), data.get("bank")
        numbers = [_whole(data.get(key, 0)) for key in ("target", "power", "rolls")]
        try:
            if not isinstance(name, str) or bank not in BANK_WORDS or None in numbers:
                raise ValueError(action_id)
            target, power, rolls = (number or 0 for number in numbers)
            return cls(action_id, name, str(bank), LongKind(str(data.get("kind"))), target, power, rolls,
                       LongState(str(data.get("state", "running"))))
        except ValueError:
            raise OperationError(_("The long action {id!r} is damaged.").format(id=action_id)) from None


def _whole(value: JsonValue) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def long_actions(combatant: Combatant) -> list[LongAction]:
    """The character's long actions, oldest first."""
    return [LongAction.from_json(key, value) for key, value in extra_map(combatant, LONG_ACTIONS).items()
            if isinstance(value, Mapping)]


def find_long_action(combatant: Combatant, action_id: str) -> LongAction:
    """The long action with that id, or an OperationError."""
    data = extra_map(combatant, LONG_ACTIONS).get(action_id)
    if not isinstance(data, Mapping):
        raise OperationError(_("{name} has no long action {id!r}.").format(name=combatant.name, id=action_id))
    return LongAction.from_json(action_id, data)


def with_long_action(combatant: Combatant, action: LongAction) -> Combatant:
    """A copy with the long action stored (added or replaced)."""
    return with_extra(combatant, LONG_ACTIONS, with_item(extra_map(combatant, LONG_ACTIONS), action.id,
                                                        action.to_json()))


def without_long_action(combatant: Combatant, action_id: str) -> Combatant:
    """A copy without the long action."""
    return with_extra(combatant, LONG_ACTIONS, without_item(extra_map(combatant, LONG_ACTIONS), action_id))


def healing_blocked(combatant: Combatant, bank: str) -> LongAction | None:
    """The long action that keeps stun wounds of the bank's type from healing, if any."""
    return next((action for action in long_actions(combatant) if action.bank == bank and action.blocks_healing),
                None)


def add_roll(action: LongAction, succeeded: bool, critical: bool, power: int) -> LongAction:
    """The action after one roll: success adds the power (never below 0), critical failure resets it."""
    if action.state is not LongState.RUNNING:
        raise OperationError(_("The long action “{action}” is not running: resume it first.").format(
            action=action.name))
    total = 0 if critical else action.power + (max(0, power) if succeeded else 0)
    state = LongState.COMPLETE if total >= action.target else LongState.RUNNING
    return replace(action, power=total, rolls=action.rolls + 1, state=state)


def _line(text: str, combatant: Combatant, action: LongAction, **more: int | str) -> LogLine:
    return LogLine(text, {"name": combatant.name, "action": action.name, "power": action.power,
                          "target": action.target, **more})


# --- operations -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StartLongAction(Operation):
    """Begin a long action toward a target power (set by the GM or chosen by the player)."""

    kind = "clovek_start_long_action"
    combatant_id: str
    action_id: str
    name: str
    bank: str
    long_kind: LongKind
    target: int

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        check_bank(self.bank)
        if not self.name.strip() or len(self.name) > MAX_NAME:
            raise OperationError(_("A long action needs a name of at most {limit} characters.").format(
                limit=MAX_NAME))
        if not 1 <= self.target <= MAX_TARGET:
            raise OperationError(_("The target power must be between 1 and {limit}.").format(limit=MAX_TARGET))
        if not self.action_id or self.action_id in extra_map(combatant, LONG_ACTIONS):
            raise OperationError(_("A long action with id {id!r} already exists.").format(id=self.action_id))
        try:
            kind = LongKind(self.long_kind)
        except ValueError:
            raise OperationError(_("A long action is uninterruptible, interruptible or deferrable.")) from None
        action = LongAction(self.action_id, self.name.strip(), self.bank, kind, self.target)
        line = _line(N_("{name} starts the {kind} {bank} long action “{action}” (target power {target})."), combatant,
                     action, kind=KIND_WORDS[kind], bank=BANK_WORDS[self.bank])
        line = replace(line, translate=("kind", "bank"))
        return Applied(encounter.with_combatant(with_long_action(combatant, action)), (line,))


@dataclass(frozen=True)
class PauseLongAction(Operation):
    """Break off a long action: uninterruptible loses everything, interruptible pauses, deferrable defers."""

    kind = "clovek_pause_long_action"
    combatant_id: str
    action_id: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        action = find_long_action(combatant, self.action_id)
        if action.state is not LongState.RUNNING:
            raise OperationError(_("The long action “{action}” is not running.").format(action=action.name))
        if action.kind is LongKind.UNINTERRUPTIBLE:
            line = _line(N_("{name} breaks off the uninterruptible long action “{action}”: {power} power lost."),
                         combatant, action)
            return Applied(encounter.with_combatant(without_long_action(combatant, action.id)), (line,))
        deferred = action.kind is LongKind.DEFERRABLE
        paused = replace(action, state=LongState.DEFERRED if deferred else LongState.PAUSED)
        text = (N_("{name} defers “{action}” at {power} of {target} power; stun wounds may heal meanwhile.")
                if deferred else N_("{name} pauses “{action}” at {power} of {target} power; stun wounds of its type "
                                 "do not heal until it ends."))
        return Applied(encounter.with_combatant(with_long_action(combatant, paused)),
                       (_line(text, combatant, paused),))


@dataclass(frozen=True)
class ResumeLongAction(Operation):
    """Take up a paused or deferred long action where it was left."""

    kind = "clovek_resume_long_action"
    combatant_id: str
    action_id: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        action = find_long_action(combatant, self.action_id)
        if action.state not in (LongState.PAUSED, LongState.DEFERRED):
            raise OperationError(_("The long action “{action}” is not paused.").format(action=action.name))
        resumed = replace(action, state=LongState.RUNNING)
        line = _line(N_("{name} resumes “{action}” at {power} of {target} power."), combatant, resumed)
        return Applied(encounter.with_combatant(with_long_action(combatant, resumed)), (line,))


@dataclass(frozen=True)
class EndLongAction(Operation):
    """Give a long action up (its power is lost) or clear a completed one; stun of its type may heal again."""

    kind = "clovek_end_long_action"
    combatant_id: str
    action_id: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        action = find_long_action(combatant, self.action_id)
        if action.state is LongState.COMPLETE:
            line = _line(N_("{name} finishes “{action}” with {power} power."), combatant, action)
        else:
            line = _line(N_("{name} gives up “{action}”: {power} power lost."), combatant, action)
        return Applied(encounter.with_combatant(without_long_action(combatant, action.id)), (line,))
