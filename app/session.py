"""What the GM's commands do, as application services (the window's slots only call these).

Each method builds the operation(s) for one GM action and applies them to the document, so every
action is one undo step, journaled, logged and announced. Dice come from the injected roller unless the
GM typed the faces rolled at the table.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass

from app.document import Change, EncounterDocument
from app.i18n import _
from rules.combatants import (
    SHARED_MONITOR,
    AddCombatant,
    ApplyHarm,
    RemoveCombatant,
    SetHidden,
    next_combatant_id,
)
from rules.dice import Chains, Roller
from rules.encounter import frozen_map
from rules.errors import OperationError
from rules.harm import Harm, OwnRoll
from rules.history import Batch, Operation, require_combatant
from rules.rolls import RecordRoll, parse_for
from rules.turns import (
    DelayAction,
    NextTurn,
    TakeDelayedAction,
    YieldTurn,
    actor_for,
    current_actor,
    roll_initiative,
)
from rules.weapons import Reload, fully_loaded, last_attack, weapon_to_reload

#: A name's number at its end ("Ganger 3"): a copy continues the numbering of the name before it.
_NUMBERED = re.compile(r"\s+[0-9]{1,9}$")


@dataclass(frozen=True)
class RolledHarm:
    """A target's own roll against a typed hit, with the faces rolled or typed and the pool dice added."""

    roll: OwnRoll
    faces: Chains
    pool_dice: int = 0

    def operation(self) -> Operation:
        """What the game records for it."""
        return self.roll.operation(self.faces, self.pool_dice)


class FightSession:
    """The GM's commands on one open encounter."""

    def __init__(self, document: EncounterDocument, roller: Roller | None = None) -> None:
        self.document = document
        self.roller = roller or Roller(random.Random())

    def current_actor(self) -> str | None:
        """The id of whoever acts now (first of a simultaneous group), or None."""
        return current_actor(self.document.state)

    def actor_for(self, selected: str | None) -> str | None:
        """The combatant the GM selected when it is one of those acting now, else the current actor."""
        return actor_for(self.document.state, selected)

    def roll_initiative(self, typed: Mapping[str, tuple[int, ...]] | None = None,
                        chosen: Mapping[str, Mapping[str, int]] | None = None,
                        totals: Mapping[str, int] | None = None) -> Change:
        """Start the round: typed faces or announced totals for those the GM gives, rolled dice for everyone else,
        after the choices the game asks for (``chosen``: combatant id → initiative input → value), all in one undo
        step."""
        state = self.document.state
        return self.document.apply(roll_initiative(state, self.document.system, self.roller, typed, chosen, totals))

    def nothing_to_roll(self) -> bool:
        """Whether starting the round asks nothing of anyone: no initiative dice and no choices (Člověk's turns by
        alternation), so the window starts it without a dialog."""
        state, system = self.document.state, self.document.system
        return bool(state.combatants) and all(
            system.initiative_dice(combatant, state).count == 0 and not system.initiative_inputs(combatant, state)
            for combatant in state.combatants.values())

    def next_turn(self) -> Change:
        """The current actor is done (Space)."""
        return self.document.apply(NextTurn())

    def back(self) -> None:
        """Undo the last change (Shift+Space)."""
        self.document.undo_stack.undo()

    def delay(self, combatant_id: str, into_next_pass: bool = False) -> Change:
        """Hold the current actor's action."""
        return self.document.apply(DelayAction(combatant_id, into_next_pass))

    def act_now(self, combatant_id: str) -> Change:
        """A combatant who delayed interrupts now."""
        return self.document.apply(TakeDelayedAction(combatant_id))

    def yield_turn(self, combatant_id: str) -> Change:
        """Let those with the same score go first."""
        return self.document.apply(YieldTurn(combatant_id))

    def harm(self, combatant_id: str, track: str, amount: int, source: str = "") -> Change:
        """Damage (positive) or heal (negative) on a track."""
        if amount == 0:
            raise OperationError(_("Enter an amount other than zero."))
        return self.document.apply(ApplyHarm(combatant_id, track, amount, source))

    def read_harm(self, text: str, combatant_id: str, track: str, heal: bool = False) -> Harm:
        """What ``text`` typed in the Damage (Heal) dialog means for that combatant, read by the game."""
        state = self.document.state
        return self.document.system.parse_harm(text, require_combatant(state, combatant_id), track, state, heal)

    def own_roll(self, text: str, combatant_id: str, track: str) -> OwnRoll | None:
        """What that combatant rolls on its own against the hit typed (SR3: Body against ``10S``), or None."""
        state = self.document.state
        return self.document.system.own_roll(text, require_combatant(state, combatant_id), track, state)

    def harm_each(self, harms: Mapping[str, Harm], heal: bool = False,
                  rolled: Mapping[str, RolledHarm] | None = None) -> Change:
        """Mark (``heal``: take off) each combatant's read amount: several targets of one hit are one undo step.

        A target in ``rolled`` rolled on its own (its resistance): its faces decide what is marked instead.
        """
        rolled = rolled or {}
        operations = tuple(rolled[combatant_id].operation() if combatant_id in rolled
                           else ApplyHarm(combatant_id, harm.track, -harm.amount if heal else harm.amount)
                           for combatant_id, harm in harms.items())
        if not operations:
            raise OperationError(_("Choose whom it hits."))
        if len(operations) == 1:
            return self.document.apply(operations[0])
        names = ", ".join(self.document.state.combatant(combatant_id).name for combatant_id in harms)
        label = _("Healing: {names}") if heal else _("Damage: {names}")
        return self.document.apply(Batch(operations, label.format(names=names)))

    def remove(self, combatant_id: str) -> Change:
        """Take a combatant out of the fight."""
        return self.document.apply(RemoveCombatant(combatant_id))

    def duplicate(self, combatant_id: str) -> Change:
        """Add a fresh copy of a combatant: its side, numbers, notes and game data, numbered on ("Ganger 4").

        The copy starts unhurt, without initiative, seat or group (as if added from the bestiary); it is hidden
        from the players if the original is (its game data says so).
        """
        from app.library import numbered_names  # the library (SQLite) is not imported at start-up

        state = self.document.state
        original = state.combatant(combatant_id)
        base = _NUMBERED.sub("", original.name.strip()) or original.name
        name = numbered_names(base, 1, [*(c.name for c in state.combatants.values()), base])[0]
        extra = frozen_map({key: value for key, value in original.extra.items() if key != SHARED_MONITOR})
        return self.document.apply(AddCombatant(next_combatant_id(state), name, original.side, original.attributes,
                                                notes=original.notes, extra=extra,
                                                weapons=fully_loaded(original.weapons)))

    def reload(self, combatant_id: str) -> Change:
        """Reload the combatant's weapon: the one it used last if that is not full, else the first one that is not."""
        combatant = require_combatant(self.document.state, combatant_id)
        weapon = weapon_to_reload(combatant, last_attack(self.document.history.entries, combatant_id))
        if weapon is None:
            raise OperationError(_("{name} has no weapon to reload: every magazine is full.").format(
                name=combatant.name))
        return self.document.apply(Reload(combatant_id, weapon.name))

    def set_hidden(self, combatant_id: str, hidden: bool) -> Change:
        """Hide a combatant from the player view, or reveal it."""
        return self.document.apply(SetHidden(combatant_id, hidden))

    def roll_dice(self, expression: str, typed_faces: str = "", who: str = "") -> Change:
        """Roll (or record typed faces of) a dice-line expression, read as the open fight's game reads it; the
        result goes into the log."""
        parsed = parse_for(self.document.system, expression)
        typed = typed_faces.strip()
        result = parsed.from_faces(typed) if typed else parsed.roll(self.roller)
        return self.document.apply(RecordRoll(parsed.text, result.faces, who))
