"""Who may block what on the Institute's shooting page: a shot only with a suitable object already in hand,
Fencing and Melee never with empty hands (institut.md Defence)."""

from __future__ import annotations

from typing import Final

from app.i18n import N_, _
from rules.encounter import Combatant
from rules.errors import RulesError
from rules.systems.institut import rounds
from rules.systems.institut.arms import weapon_kind
from rules.systems.institut.combat import Shot
from rules.systems.institut.tables import WeaponKind

SKILLS: Final[tuple[tuple[str, str], ...]] = (
    ("shooting", N_("Shooting")), ("boxing", N_("Boxing")), ("melee", N_("Melee")), ("fencing", N_("Fencing")),
    ("martial_arts", N_("Martial arts")), ("athletics", N_("Athletics")),
)
BLOCK_SKILLS: Final[tuple[str, ...]] = ("boxing", "melee", "fencing")
#: "Невозможно использовать Фехтование или Ближний Бой для блокирования удара, если у вас пустые руки."
NEEDS_SOMETHING_IN_HAND: Final[frozenset[str]] = frozenset({"melee", "fencing"})


def can_block_shot(shot: Shot, target: Combatant) -> bool:
    """Whether the target may block this attack: any blow, but a shot only with a suitable object already in
    hand (institut.md Defence)."""
    return shot.kind is not WeaponKind.FIREARM or rounds.flag(target, rounds.IN_HAND)


def hands_full(target: Combatant) -> bool:
    """Whether the target has something in hand to block with: an object marked in hand, or a melee weapon."""
    return rounds.flag(target, rounds.IN_HAND) or any(weapon_kind(weapon) is WeaponKind.MELEE
                                                      for weapon in target.weapons)


def check_block(shot: Shot, target: Combatant, block_skill: str) -> None:
    """Refuse a block the rules do not allow, saying why: a shot without a suitable object already in hand,
    Fencing or Melee with empty hands."""
    if not can_block_shot(shot, target):
        raise RulesError(_("{name} has nothing in hand to block a shot with: a shot can be blocked only with a "
                           "suitable object already in hand (mark it in the details panel).").format(
            name=target.name))
    if block_skill in NEEDS_SOMETHING_IN_HAND and not hands_full(target):
        raise RulesError(_("Fencing and Melee cannot block with empty hands: {name} holds nothing (mark an "
                           "object in hand in the details panel, or block with Boxing).").format(
            name=target.name))
