"""Operations on the roster and on one combatant: add, remove, edit, harm, pools, actions."""

from __future__ import annotations

from collections.abc import Container, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from rules.encounter import (
    ADDED_LATER,
    STATUS_LABELS,
    Combatant,
    Encounter,
    JsonValue,
    Pool,
    Side,
    Weapon,
    frozen_map,
    with_item,
    without_item,
)
from rules.errors import OperationError, RulesError
from rules.history import Applied, LogArg, LogLine, Operation, require_combatant
from rules.limits import ATTRIBUTE, HARM, POOL_SIZE
from rules.log_formats import attribute_format, register_log_format
from rules.systems.base import BudgetItem, RuleSystem
from rules.text import N_, _
from rules.weapons import checked_weapons

MAX_NAME = 200
MAX_NOTES = 100_000


def _check_text(value: str, limit: int, what: str) -> None:
    if len(value) > limit:
        raise OperationError(_("{what} is too long ({length} characters; at most {limit}).").format(
            what=what, length=len(value), limit=limit))


def _check_attributes(attributes: Mapping[str, int]) -> None:
    for key, value in attributes.items():
        if isinstance(value, bool) or not isinstance(value, int) or not ATTRIBUTE.allows(value):
            raise OperationError(_("Attribute {key} must be a whole number between −{limit} and {limit}.")
                                 .format(key=key, limit=ATTRIBUTE.high))


@dataclass(frozen=True)
class AddCombatant(Operation):
    """Bring a combatant into the encounter; the game fills in its pools and tracks."""

    kind = "add_combatant"
    combatant_id: str
    name: str
    side: Side = Side.OPPONENT
    attributes: Mapping[str, int] = field(default_factory=frozen_map)
    group: str | None = None
    seat: str | None = None
    notes: str = ""
    extra: Mapping[str, JsonValue] = field(default_factory=frozen_map)
    weapons: tuple[Weapon, ...] = field(default=(), metadata=ADDED_LATER)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        if self.combatant_id in encounter.combatants:
            raise OperationError(_("A combatant with id {id!r} already exists.").format(id=self.combatant_id))
        if not self.name.strip():
            raise OperationError(_("A combatant needs a name."))
        _check_text(self.name, MAX_NAME, _("The name"))
        _check_text(self.notes, MAX_NOTES, _("The notes"))
        _check_attributes(self.attributes)
        defaults = {spec.key: spec.default for spec in system.attribute_specs() if spec.filled_when_added}
        combatant = Combatant(self.combatant_id, self.name.strip(), self.side,
                              frozen_map({**defaults, **self.attributes}), group=self.group, seat=self.seat,
                              notes=self.notes, extra=frozen_map(self.extra), weapons=self._weapons(system))
        combatant = system.prepare(combatant, encounter)
        state = replace(encounter.with_combatant(combatant), serial=encounter.serial + 1)
        return Applied(state, (LogLine("{name} joins the fight.", {"name": combatant.name}),))


    def _weapons(self, system: RuleSystem) -> tuple[Weapon, ...]:
        try:
            return checked_weapons(self.weapons, system)
        except RulesError as problem:
            raise OperationError(str(problem)) from None


def next_combatant_id(encounter: Encounter, serial: int | None = None, also_taken: Container[str] = ()) -> str:
    """An id no combatant has yet (ids are never reused, so the log stays unambiguous). ``serial`` and
    ``also_taken``: the id a later add would get, after others already planned (default: the encounter's)."""
    number = (encounter.serial if serial is None else serial) + 1
    while f"c{number}" in encounter.combatants or f"c{number}" in also_taken:
        number += 1
    return f"c{number}"


@dataclass(frozen=True)
class RemoveCombatant(Operation):
    """Take a combatant out of the encounter (Delete)."""

    kind = "remove_combatant"
    combatant_id: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        name = require_combatant(encounter, self.combatant_id).name
        clock = encounter.clock
        current = clock.current
        if current is not None and self.combatant_id in current.ids:
            raise OperationError(_("{name} is acting now: end the turn before removing them.").format(name=name))
        state = replace(encounter, combatants=without_item(encounter.combatants, self.combatant_id),
                        delays=without_item(encounter.delays, self.combatant_id),
                        effects=frozen_map({k: e for k, e in encounter.effects.items()
                                            if e.target != self.combatant_id}))
        return Applied(state, (LogLine("{name} leaves the fight.", {"name": name}),))


EditableField = Literal["name", "side", "group", "seat", "notes"]
#: The fields' names in the log ("Ganger 1: změněno pole „Poznámky“"); the log keeps the key, shown in the GM's
#: language when read, so fights saved before replay to the same lines.
FIELD_LABELS: dict[str, str] = {"name": N_("Name"), "side": N_("Side"), "group": N_("Group name"),
                                "seat": N_("Seat"), "notes": N_("Notes")}
FIELD_FORMAT = "combatant field"


def _shown_field(key: str) -> str:
    return _(FIELD_LABELS[key]) if key in FIELD_LABELS else key


register_log_format(FIELD_FORMAT, _shown_field)


@dataclass(frozen=True)
class EditCombatant(Operation):
    """Change a descriptive field (name, side, group, seat, notes)."""

    kind = "edit_combatant"
    combatant_id: str
    field: EditableField
    value: str | None

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        updated = self._edited(combatant)
        line = LogLine("{name}: {field} changed.", {"name": updated.name, "field": self.field},
                       shown_as={"field": FIELD_FORMAT})
        return Applied(encounter.with_combatant(updated), (line,))

    def _edited(self, combatant: Combatant) -> Combatant:
        text = self.value or ""
        _check_text(text, MAX_NOTES if self.field == "notes" else MAX_NAME, self.field)
        if self.field == "side":
            try:
                side = Side(text)
                shown = with_hidden(combatant, False) if side is Side.PLAYER else combatant  # PCs are always shown
                return replace(shown, side=side)
            except ValueError:
                raise OperationError(_("Unknown side {side!r}.").format(side=self.value)) from None
        if self.field == "name":
            if not text.strip():
                raise OperationError(_("A combatant needs a name."))
            return replace(combatant, name=text.strip())
        if self.field == "notes":
            return replace(combatant, notes=text)
        if self.field == "group":
            return replace(combatant, group=self.value)  # None clears it
        return replace(combatant, seat=self.value)


#: Key in ``Combatant.extra``: left out of the player view (an ambush the players have not seen yet). Kept in
#: ``extra`` (absent when shown) so that files of fights without hidden combatants stay as they were.
HIDDEN = "hidden_from_players"


def is_hidden(combatant: Combatant) -> bool:
    """Whether the players' screen leaves ``combatant`` out."""
    return combatant.extra.get(HIDDEN) is True


def with_hidden(combatant: Combatant, hidden: bool) -> Combatant:
    """A copy hidden from the players' screen, or shown on it."""
    if is_hidden(combatant) == hidden:
        return combatant
    extra = with_item(combatant.extra, HIDDEN, True) if hidden else without_item(combatant.extra, HIDDEN)
    return replace(combatant, extra=extra)


@dataclass(frozen=True)
class SetHidden(Operation):
    """Hide a non-player combatant from the player view, or reveal it (player characters are always shown)."""

    kind = "set_hidden"
    combatant_id: str
    hidden: bool

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if self.hidden and combatant.side is Side.PLAYER:
            raise OperationError(_("{name} is a player character: the players always see them.").format(
                name=combatant.name))
        if is_hidden(combatant) == self.hidden:
            return Applied(encounter)
        args: dict[str, LogArg] = {"name": combatant.name}
        line = (LogLine("{name} is hidden from the players.", args) if self.hidden
                else LogLine("{name} is revealed to the players.", args))
        return Applied(encounter.with_combatant(with_hidden(combatant, self.hidden)), (line,))


@dataclass(frozen=True)
class SetAttribute(Operation):
    """Edit a number in place; pools and tracks that follow from it are recomputed by the game."""

    kind = "set_attribute"
    combatant_id: str
    key: str
    value: int

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        require_combatant(encounter, self.combatant_id)
        _check_attributes({self.key: self.value})
        combatant = encounter.combatant(self.combatant_id)
        updated = system.prepare(combatant.with_attribute(self.key, self.value), encounter)
        line = LogLine("{name}: {attribute} set to {value}.",
                       {"name": combatant.name, "attribute": self.key, "value": self.value},
                       shown_as={"attribute": attribute_format(system.id)})
        return Applied(encounter.with_combatant(updated), (line,))


def track_label(system: RuleSystem, combatant: Combatant, encounter: Encounter, track: str) -> str:
    """The label of ``combatant``'s condition track ``track`` (English source, translated when shown)."""
    for spec in system.tracks(combatant, encounter):
        if spec.key == track:
            return spec.label
    raise OperationError(_("{name} has no condition track {track!r}.").format(name=combatant.name, track=track))


@dataclass(frozen=True)
class ApplyHarm(Operation):
    """Mark damage (or healing, when negative) on a condition track, with the game's overflow rules."""

    kind = "apply_harm"
    combatant_id: str
    track: str
    amount: int
    source: str = ""

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        label = track_label(system, combatant, encounter, self.track)
        if abs(self.amount) > HARM.high:
            raise OperationError(_("That is more damage than any track holds."))
        updated = system.apply_harm(combatant, self.track, self.amount, encounter)
        state = share_monitor(encounter.with_combatant(updated), updated)
        return Applied(state, harm_lines(system, combatant, updated, label, self.amount, state))


SHARED_MONITOR = "shared_monitor"


def share_monitor(encounter: Encounter, combatant: Combatant) -> Encounter:
    """A grunt group with one shared monitor: copy ``combatant``'s damage to every member of its group."""
    if not combatant.group or not combatant.extra.get(SHARED_MONITOR):
        return encounter
    state = encounter
    for mate in encounter.combatants.values():
        if mate.id != combatant.id and mate.group == combatant.group and mate.extra.get(SHARED_MONITOR):
            state = state.with_combatant(replace(mate, damage=combatant.damage))
    return state


def harm_lines(system: RuleSystem, before: Combatant, after: Combatant, track_label: str, amount: int,
               encounter: Encounter) -> tuple[LogLine, ...]:
    """Log lines for damage or healing, plus a line when the combatant's status changes."""
    args: dict[str, LogArg] = {"name": before.name, "track": track_label, "count": abs(amount)}
    if amount >= 0:
        line = LogLine("{name} takes {count} on the {track} track.", args, translate=("track",))
    else:
        line = LogLine("{name} heals {count} on the {track} track.", args, translate=("track",))
    old, new = system.status(before, encounter), system.status(after, encounter)
    if old is new:
        return (line,)
    status = LogLine("{name} is now {status}.", {"name": before.name, "status": STATUS_LABELS[new]},
                     translate=("status",))
    return line, status


@dataclass(frozen=True)
class SetDamage(Operation):
    """Set a track to an exact number of boxes or points (clicking a box on the monitor)."""

    kind = "set_damage"
    combatant_id: str
    track: str
    value: int

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        track_label(system, combatant, encounter, self.track)
        if not HARM.allows(self.value):
            raise OperationError(_("Damage must be between 0 and {limit}.").format(limit=HARM.high))
        updated = system.set_damage(combatant, self.track, self.value, encounter)
        line = LogLine("{name}: {track} set to {value}.",
                       {"name": combatant.name, "track": self.track, "value": self.value})
        return Applied(share_monitor(encounter.with_combatant(updated), updated), (line,))


@dataclass(frozen=True)
class SpendPool(Operation):
    """Spend dice from a pool (negative gives them back); the record shows on the combatant."""

    kind = "spend_pool"
    combatant_id: str
    pool: str
    dice: int
    purpose: str = ""

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        pool = combatant.pools.get(self.pool)
        if pool is None:
            raise OperationError(_("{name} has no pool {pool!r}.").format(name=combatant.name, pool=self.pool))
        spent = pool.spent + self.dice
        if not 0 <= spent <= pool.size:
            raise OperationError(_("{name} has only {left} dice left in that pool.").format(
                name=combatant.name, left=pool.remaining))
        updated = combatant.with_pool(self.pool, replace(pool, spent=spent))
        line = LogLine("{name} spends {count} die from {pool}.", {"name": combatant.name, "pool": self.pool,
                                                                   "count": self.dice},
                       plural="{name} spends {count} dice from {pool}.", count=self.dice)
        return Applied(encounter.with_combatant(updated), (line,))


@dataclass(frozen=True)
class SetPool(Operation):
    """The GM sets a pool's size by hand (the game's formula is only a default)."""

    kind = "set_pool"
    combatant_id: str
    pool: str
    size: int

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        require_combatant(encounter, self.combatant_id)
        if not POOL_SIZE.allows(self.size):
            raise OperationError(_("A pool holds between 0 and {limit} dice.").format(limit=POOL_SIZE.high))
        combatant = encounter.combatant(self.combatant_id)
        old = combatant.pools.get(self.pool, Pool(0))
        updated = combatant.with_pool(self.pool, Pool(self.size, min(old.spent, self.size)))
        line = LogLine("{name}: {pool} set to {size}.", {"name": combatant.name, "pool": self.pool,
                                                          "size": self.size})
        return Applied(encounter.with_combatant(updated), (line,))


@dataclass(frozen=True)
class SpendAction(Operation):
    """Use one action of a kind from the actor's budget (the game names the kinds, e.g. free, simple, complex)."""

    kind = "spend_action"
    combatant_id: str
    action: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        item = next((i for i in system.action_budget(combatant, encounter) if i.key == self.action), None)
        updated = system.spend_action(combatant, self.action, encounter)
        return Applied(encounter.with_combatant(updated), (_spent_line(combatant, self.action, item),))


def _spent_line(combatant: Combatant, action: str, item: BudgetItem | None) -> LogLine:
    """The game's sentence for the action used, else one naming the budget's label for it (or its key).

    The arguments stay those of the line fights were saved with ("action": the key), so an older saved fight
    still undoes past it (a replay must write the facts it saved; the wording may change).
    """
    args: dict[str, LogArg] = {"name": combatant.name, "action": action}
    if item is not None and item.spent:
        return LogLine(item.spent, args, translate=("action",))
    label = item.label if item is not None else action
    return LogLine("{name} takes an action: {label}.", {**args, "label": label}, translate=("action", "label"))


@dataclass(frozen=True)
class SetOption(Operation):
    """Change a GM option of this encounter (validated against the game's option list)."""

    kind = "set_option"
    key: str
    value: JsonValue

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        specs = {spec.key: spec for spec in system.option_specs()}
        if self.key not in specs:
            raise OperationError(_("This game has no option {key!r}.").format(key=self.key))
        value = system.validate_option(specs[self.key], self.value)
        state = replace(encounter, options=with_item(encounter.options, self.key, value))
        line = LogLine("Option “{option}” changed.", {"option": specs[self.key].label}, translate=("option",))
        return Applied(state, (line,))


@dataclass(frozen=True)
class EditEncounter(Operation):
    """Rename the encounter or change the GM's notes on it."""

    kind = "edit_encounter"
    field: Literal["name", "notes"]
    value: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        _check_text(self.value, MAX_NOTES if self.field == "notes" else MAX_NAME, self.field)
        if self.field == "name":
            state = replace(encounter, name=self.value.strip())
            return Applied(state, (LogLine("The encounter is now called “{name}”.", {"name": state.name}),))
        return Applied(replace(encounter, notes=self.value), (LogLine("The GM's notes changed."),))
