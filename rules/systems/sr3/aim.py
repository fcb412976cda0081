"""SR3 aiming, tracked per character over phases and passes (sr3.md, Actions per phase: Aim).

"Aim: −1 TN each, cumulative over phases and passes up to ½ the skill or specialisation (round down); lost on any
other action, free ones included. «Postavy, které míří během více bojových fází, nesmí za žádných okolností …
použít rezervy kostek» (aiming over several phases: no pool dice at all); using them loses the aim."

The aim lives on the character (``Combatant.extra``): how many simple actions of aiming, over how many phases,
and the phase (round, pass) of the last one. :class:`Sr3Aim` adds one; any other action the rules record
(:meth:`~rules.systems.sr3.system.Sr3System.spend_action`: the panel's buttons, shots, melee, reloads) and every
shot lose it (:func:`without_aim`); :class:`Sr3LoseAim` is the GM's word for an action the app does not record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final, NamedTuple

from rules.encounter import Combatant, Encounter, Weapon, frozen_map, with_item, without_item
from rules.errors import OperationError
from rules.history import Applied, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.systems.sr3.weapons import SKILL, is_melee
from rules.text import _, ngettext

#: The key of the aim in ``Combatant.extra`` (saved files name it).
AIM: Final[str] = "sr3_aim"
SIMPLE: Final[str] = "simple"  # the action an aim takes (system.SIMPLE: the system module imports this one)


class Aim(NamedTuple):
    """A character's aim: simple actions of aiming, the phases they were taken in, and the last one's phase."""

    actions: int
    phases: int
    round: int
    pass_no: int

    @property
    def over_several_phases(self) -> bool:
        """Aimed in more than one phase: the shot may use no pool dice, or the aim is lost."""
        return self.phases > 1

    def counted(self, skill: int) -> int:
        """The actions that count: at most half the skill (round down)."""
        return min(self.actions, max(0, skill) // 2)


NO_AIM: Final[Aim] = Aim(0, 0, 0, 0)


def aim_of(combatant: Combatant) -> Aim:
    """The character's aim (``NO_AIM`` when it is not aiming)."""
    held = combatant.extra.get(AIM)
    if not isinstance(held, Mapping):
        return NO_AIM
    values = [held.get(key) for key in ("actions", "phases", "round", "pass")]
    if not all(isinstance(value, int) and not isinstance(value, bool) for value in values):
        return NO_AIM
    actions, phases, round_no, pass_no = (int(value) for value in values)  # type: ignore[arg-type]
    return Aim(actions, phases, round_no, pass_no) if actions > 0 else NO_AIM


def with_aim(combatant: Combatant, aim: Aim) -> Combatant:
    """A copy of ``combatant`` aiming so (``NO_AIM``: not aiming)."""
    if aim.actions <= 0:
        return without_aim(combatant)
    held = frozen_map({"actions": aim.actions, "phases": aim.phases, "round": aim.round, "pass": aim.pass_no})
    return replace(combatant, extra=with_item(combatant.extra, AIM, held))


def without_aim(combatant: Combatant) -> Combatant:
    """A copy that is not aiming (the same object when it was not)."""
    if AIM not in combatant.extra:
        return combatant
    return replace(combatant, extra=without_item(combatant.extra, AIM))


def one_more(aim: Aim, encounter: Encounter) -> Aim:
    """``aim`` with one more simple action of aiming now: a phase more when the last one was in another phase (a
    character has one phase a pass, so the pass tells them apart)."""
    clock = encounter.clock
    new_phase = aim.actions == 0 or (aim.round, aim.pass_no) != (clock.round, clock.pass_no)
    return Aim(aim.actions + 1, aim.phases + (1 if new_phase else 0), clock.round, clock.pass_no)


def aim_skill(combatant: Combatant) -> int | None:
    """The highest skill saved with the character's ranged weapons (the cap's half of it), None: none saved."""
    skills = [weapon.number(SKILL) for weapon in combatant.weapons if _ranged_with_skill(weapon)]
    return max(skills) if skills else None


def _ranged_with_skill(weapon: Weapon) -> bool:
    return not is_melee(weapon) and weapon.number(SKILL) > 0


def aim_text(aim: Aim) -> str:
    """"2 simple actions of aiming over 2 phases" (or that the character is not aiming)."""
    if aim.actions <= 0:
        return _("Not aiming.")
    actions = ngettext("{count} simple action of aiming", "{count} simple actions of aiming",
                       aim.actions).format(count=aim.actions)
    phases = ngettext("over {count} phase", "over {count} phases", aim.phases).format(count=aim.phases)
    return _("{actions} {phases}").format(actions=actions, phases=phases)


@dataclass(frozen=True)
class Sr3Aim(Operation):
    """One simple action of aiming, in the character's own phase: −1 TN for the next shot, cumulative up to half
    the skill (``skill``: the rating the cap is read from; None: no cap known yet, the attack dialog applies it)."""

    kind = "sr3_aim"
    combatant_id: str
    skill: int | None = None

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        before = aim_of(combatant)
        if self.skill is not None and before.actions >= max(0, self.skill) // 2:
            raise OperationError(ngettext(
                "{name} already aims as far as it helps: at most {count} action counts (half the skill {skill}).",
                "{name} already aims as far as it helps: at most {count} actions count (half the skill {skill}).",
                max(0, self.skill) // 2).format(name=combatant.name, count=max(0, self.skill) // 2,
                                                skill=self.skill))
        acted = system.spend_action(combatant, SIMPLE, encounter)  # refused outside its phase or budget
        aim = one_more(before, encounter)
        state = encounter.with_combatant(with_aim(acted, aim))
        lines = [LogLine("{name} aims: {count} simple action of aiming in all.",
                         {"name": combatant.name, "count": aim.actions},
                         plural="{name} aims: {count} simple actions of aiming in all.", count=aim.actions)]
        if aim.over_several_phases and not before.over_several_phases:
            lines.append(LogLine("{name} has aimed over several phases: the shot may use no combat pool dice, "
                                 "or the aim is lost.", {"name": combatant.name}))
        return Applied(state, tuple(lines))


@dataclass(frozen=True)
class Sr3LoseAim(Operation):
    """The character's aim is lost (the GM: it took another action the app does not record)."""

    kind = "sr3_lose_aim"
    combatant_id: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if aim_of(combatant).actions <= 0:
            raise OperationError(_("{name} is not aiming.").format(name=combatant.name))
        line = LogLine("{name}'s aim is lost.", {"name": combatant.name})
        return Applied(encounter.with_combatant(without_aim(combatant)), (line,))


def check_pool_with_aim(encounter: Encounter, attacker_id: str, aim_actions: int, pool_dice: int) -> None:
    """Refuse a shot that counts an aim taken over several phases and uses combat pool dice as well."""
    attacker = encounter.combatant(attacker_id)
    aim = aim_of(attacker)
    if aim_actions > 0 and pool_dice > 0 and aim.over_several_phases:
        raise OperationError(_("{name} aimed over several phases: no combat pool dice with that aim. Fire without "
                               "pool dice, or use them and lose the aim.").format(name=attacker.name))


def lost_to_pool(aim: Aim, name: str, pool_dice: int) -> tuple[LogLine, ...]:
    """The log line when a shot's pool dice lose an aim taken over several phases (none otherwise)."""
    if pool_dice <= 0 or not aim.over_several_phases:
        return ()
    return (LogLine("{name} uses combat pool dice after aiming over several phases: the aim is lost.",
                    {"name": name}),)


class ShotAim(NamedTuple):
    """What a shot makes of the aim: the actions its TN counts, and whether pool dice lost a tracked aim."""

    counted: int
    lost: bool


def aim_for_shot(aim: Aim, typed: int, pool_dice: int) -> ShotAim:
    """The aim a shot counts: what the GM set (``typed``, the tracked aim prefilled), none when the shot uses pool
    dice after aiming over several phases ("using them loses the aim")."""
    if pool_dice > 0 and aim.over_several_phases:
        return ShotAim(0, typed > 0)
    return ShotAim(max(0, typed), False)
