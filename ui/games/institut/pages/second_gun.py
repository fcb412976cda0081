"""The second gun of two fired at once ("по-македонски") on the Institute's shooting page: one of the attacker's
other firearms, with its own magazine, or none (one weapon stands for both guns, as fights saved before did), and
whether both guns fire bursts ("allowed but useless")."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox

from app.i18n import _
from rules.encounter import Combatant, Encounter, Weapon
from rules.systems.institut.arms import describe_weapon
from rules.systems.institut.two_guns import (
    carried_pair,
    check_pair,
    identical,
    second_gun_choices,
    second_gun_rounds,
)
from rules.weapons import ammunition_text, fire
from ui.widgets.inputs import Choice


class SecondGun:
    """The second gun picker and the bursts box (two rows of the weapon form); what the attack fires from the
    second gun comes from here."""

    def __init__(self) -> None:
        self.gun = Choice[str]()
        self.gun.setToolTip(_("Two guns: the attacker's other one-handed gun, which fires from its own magazine. "
                              "None: the first weapon holds both guns' rounds."))
        self.bursts = QCheckBox(_("Both fire bursts (no more hits)"))
        self.bursts.setToolTip(_("Each gun fires its short burst; the recoil throws the other off, so a hit is "
                                 "still one wound a bullet."))
        self._asked = ("", "")  # the first and second gun the identical-guns suggestion was last made for

    def set_enabled(self, enabled: bool) -> None:
        """Offer the second gun only when two guns are fired."""
        self.gun.setEnabled(enabled)
        self.bursts.setEnabled(enabled)

    def offer(self, attacker: Combatant | None, first: str) -> None:
        """Offer the attacker's firearms other than the first gun ``first``, keeping the pick when still carried."""
        guns = second_gun_choices(attacker, first) if attacker is not None else ()
        self.gun.set_items([(_("None: one weapon holds both guns' rounds"), ""),
                            *((self._item(gun), gun.name) for gun in guns)])

    @staticmethod
    def _item(gun: Weapon) -> str:
        rounds = ammunition_text(gun)
        return _("{weapon}, {rounds}").format(weapon=describe_weapon(gun), rounds=rounds) if rounds \
            else describe_weapon(gun)

    def identical_suggestion(self, attacker: Combatant | None, first: str) -> bool | None:
        """Whether the second gun is the same weapon as the saved first gun, once either changes (None: neither
        changed, or one is not a saved weapon)."""
        picked = self.gun.value()
        if (first, picked) == self._asked:
            return None
        self._asked = (first, picked)
        first_gun = attacker.weapon(first) if attacker is not None and first else None
        second = attacker.weapon(picked) if attacker is not None and picked else None
        return identical(first_gun, second) if first_gun is not None and second is not None else None

    def work_out(self, attacker: Combatant, first: str, state: Encounter) -> tuple[str, int]:
        """The second gun's name and the rounds it fires; RulesError quoting the rule when it may not be fired."""
        picked = self.gun.value()
        if not picked or not self.gun.isEnabled():
            return "", 0
        pair = carried_pair(attacker, first, picked)
        check_pair(*pair)
        used = second_gun_rounds(pair[1], self.bursts.isChecked())
        fire(state, attacker.id, picked, used)  # refused when fewer are loaded
        return picked, used
