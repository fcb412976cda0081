"""Whether a creature may act now: souboj.md, "Dying".

"Postava, která upadne na 0 nebo méně životů efektivně umírá … It can do nothing; but if it is dying at the start of
its turn it may roll Endurance for one last action, regardless of how many actions it should have had." Decision:
"the last action is allowed once (it is the *last*), its Endurance roll judged by the GM".

Everyone with the same score acts at the same time, so a creature that falls in the group acting now still strikes
its blow in that group: it was not dying when the group began. To tell that from a creature dying since before,
the fight dates each dying (:data:`~rules.systems.souboj.model.DYING_SINCE`). A fight saved before that date was
kept (the option :data:`~rules.systems.souboj.model.DYING_LAST_ACTION` is not stored in it) cannot tell, and acts
as it was played then: nothing is refused there, so it replays unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Final

from rules.encounter import Combatant, Encounter, Status
from rules.systems.base import OptionKind, OptionSpec
from rules.systems.souboj.model import (
    DYING_LAST_ACTION,
    LAST_ACTION_TAKEN,
    dying_since,
    has_last_action,
    last_action,
    last_action_taken,
    moment,
    with_extra,
)
from rules.text import N_, _

#: extra: the moment (:func:`~rules.systems.souboj.model.moment`) of the creature's last attack resolved.
STRUCK: Final = "struck"
#: Option: a group's declarations are settled once one of it has struck. Stored in fights made since (they mark who
#: struck); a fight saved before does not store it, marks nothing and replays unchanged.
SETTLED_DECLARATIONS: Final = "settled_declarations"
SETTLED_OPTION: Final = OptionSpec(
    SETTLED_DECLARATIONS, N_("A group's declarations are settled once one of it has struck"), OptionKind.BOOL, True,
    help=N_("Within one score the group acts in the order of its first actions: magic, then firearm and missile, "
            "then face to face. Once an attack of the group acting now is resolved, its declarations can no longer "
            "change. Off: they can, as in fights saved before this option."))


class Verdict(Enum):
    """What the dying rule says of a creature acting now."""

    FREE = "free"  # not dying (or it fell in the group acting now): it acts as any other
    LAST_ACTION = "last_action"  # dying since before: this is its one last action
    REFUSED = "refused"  # dying since before, with no last action left: it can do nothing


def enforced(encounter: Encounter) -> bool:
    """Whether a dying creature's actions are refused but for its last one (the GM's option, on by default)."""
    return encounter.options.get(DYING_LAST_ACTION, True) is not False


def dates_dying(encounter: Encounter) -> bool:
    """Whether the fight dates each dying: it stores the option (a new fight does; one saved before, not)."""
    return encounter.options.get(DYING_LAST_ACTION) is True


def dying_before_now(combatant: Combatant, encounter: Encounter, status: Status) -> bool:
    """Dying (or dead after dying) since before the group acting now began, as far as the fight can tell.

    In that group and dated to it, it fell there: its blow lands with theirs. Undated, it is dying since before
    in a fight that dates its dyings (made dying by hand), and taken as falling now in one that does not.
    """
    if status not in (Status.DYING, Status.DEAD):
        return False
    since = dying_since(combatant)
    if since is None:
        return status is Status.DYING and dates_dying(encounter)
    current = encounter.clock.current
    return current is None or combatant.id not in current.ids or dict(since) != dict(moment(encounter))


def verdict(combatant: Combatant, encounter: Encounter, status: Status) -> Verdict:
    """What the dying rule lets ``combatant`` (of ``status``) do now."""
    if not enforced(encounter) or not dying_before_now(combatant, encounter, status):
        return Verdict.FREE
    if status is Status.DYING and has_last_action(combatant):
        return Verdict.LAST_ACTION
    return Verdict.REFUSED


def refusal(combatant: Combatant, status: Status) -> str:
    """Why a creature the rule refuses can do nothing, quoting the rule."""
    if status is not Status.DYING:
        return _("{name} cannot act now.").format(name=combatant.name)
    if last_action_taken(combatant):
        return _("{name} is dying and has taken its one last action: “It can do nothing” more.").format(
            name=combatant.name)
    if last_action(combatant) is False:
        return _("{name} is dying and failed its Endurance roll for one last action: “It can do nothing.”").format(
            name=combatant.name)
    return _("{name} is dying: “It can do nothing; but if it is dying at the start of its turn it may roll "
             "Endurance for one last action.” Judge that roll first (Dying and death).").format(name=combatant.name)


def take_last_action(combatant: Combatant) -> Combatant:
    """The creature once its last action is taken: it is the last."""
    return with_extra(combatant, LAST_ACTION_TAKEN, True)


def mark_struck(combatant: Combatant, encounter: Encounter) -> Combatant:
    """The creature once its attack is resolved now (a group's declarations are then settled); unmarked in a fight
    that does not keep the option."""
    if encounter.options.get(SETTLED_DECLARATIONS) is not True:
        return combatant
    return with_extra(combatant, STRUCK, moment(encounter))


def struck_in_group(combatant: Combatant, encounter: Encounter) -> Combatant | None:
    """A member of the group acting now, ``combatant``'s own, whose attack was already resolved in it (None: none
    yet, or ``combatant`` is not acting now)."""
    current = encounter.clock.current
    if current is None or combatant.id not in current.ids:
        return None
    now = dict(moment(encounter))
    for member_id in current.ids:
        member = encounter.combatants.get(member_id)
        struck = member.extra.get(STRUCK) if member is not None else None
        if member is not None and isinstance(struck, Mapping) and dict(struck) == now:
            return member
    return None


def declaration_refusal(combatant: Combatant, encounter: Encounter) -> str:
    """Why the creature's declaration can no longer change ("" when it can): its group has begun striking, in the
    order its first actions gave (souboj.md: "Within one score, resolve first whoever has magic as its first
    action, then firearm/missile attacks, then face-to-face attacks")."""
    striker = struck_in_group(combatant, encounter)
    if striker is None or encounter.options.get(SETTLED_DECLARATIONS) is not True:
        return ""
    return _("{striker} has already struck in the group acting now: the group's order by first actions (magic, "
             "then firearm and missile, then face to face) is settled, so {name}'s declaration can no longer "
             "change.").format(striker=striker.name, name=combatant.name)
