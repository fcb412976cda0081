"""The parts of the Souboj attack dialog: the form's boxes, and the rules' view of the form.

:class:`AttackInputs` is everything the GM set for one attack; :func:`work_out` asks the rules (the tables,
``attack_odds``, ``critical_multiplier``, the game's harm and status) what each outcome would do to the target.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _, ngettext
from rules.dice import DiceExpression, parse
from rules.encounter import STATUS_LABELS, Combatant, Encounter, Status, Weapon
from rules.systems.base import RuleSystem
from rules.systems.souboj import SoubojAttack, attack_odds, critical_multiplier
from rules.systems.souboj.combat import base_damage, damage_from_base, roll_bonus
from rules.systems.souboj.model import (
    CAUSE_LABELS,
    SHADOW,
    WEAPON_DEFENCE,
    WEAPON_STRENGTH,
    WOUNDS,
    Action,
    Cause,
    Kind,
)
from rules.systems.souboj.tables import SoubojTables
from ui.widgets.inputs import spin_box, term
from ui.widgets.messages import text_label

# --- the rules' view of the form ---------------------------------------------------------------------------

#: The kind an attacker's declared action suggests.
KIND_FOR_ACTION: Final[dict[Action, Kind]] = {Action.MAGIC: Kind.MAGIC, Action.RANGED: Kind.RANGED,
                                              Action.MELEE: Kind.MELEE}


def armed(combatant: Combatant, weapon: Weapon | None) -> Combatant:
    """``combatant`` with ``weapon``'s strength and defence as its weapon numbers (None: its own numbers)."""
    if weapon is None:
        return combatant
    return combatant.with_attribute(WEAPON_STRENGTH, weapon.number(WEAPON_STRENGTH)).with_attribute(
        WEAPON_DEFENCE, weapon.number(WEAPON_DEFENCE))



@dataclass(frozen=True)
class AttackInputs:
    """Everything the GM set for one attack, as plain values."""

    attacker: Combatant
    target: Combatant
    kind: Kind
    attack_bonus: int
    defence_bonus: int
    strength: int
    armor: int
    level: int
    causes: tuple[Cause, ...]
    flat: bool
    spell_damage: int


@dataclass(frozen=True)
class Outcome:
    """One row of the odds: what it is called, its chance, and the damage it deals (None: a miss)."""

    label: str
    probability: float
    damage: int | None


def _consequence(inputs: AttackInputs, dealt: int, state: Encounter, system: RuleSystem) -> str:
    """What ``dealt`` damage would leave the target as ('' when it stays active)."""
    if dealt <= 0:
        return ""
    hurt = system.apply_harm(inputs.target, SHADOW if inputs.flat else WOUNDS, dealt, state)
    status = system.status(hurt, state)
    if status is Status.DYING and inputs.causes and not inputs.flat:
        status = Status.DEAD  # a critical wound that leaves it dying kills it on the spot
    return _(STATUS_LABELS[status]).lower() if status is not Status.ACTIVE else ""


def _damage_label(dealt: int, consequence: str) -> str:
    text = ngettext("{count} damage", "{count} damage", dealt).format(count=dealt)
    return _("{damage} → {status}").format(damage=text, status=consequence) if consequence else text


def work_out(inputs: AttackInputs, state: Encounter, system: RuleSystem, data: SoubojTables) -> list[Outcome]:
    """The outcomes of the attack with their chances, best for the target first."""
    multiplier = critical_multiplier(inputs.level, data) if inputs.causes else 1
    if inputs.kind is Kind.MAGIC:
        dealt = inputs.spell_damage * multiplier
        return [Outcome(_damage_label(dealt, _consequence(inputs, dealt, state, system)), 1.0, dealt)]
    odds = attack_odds(inputs.attack_bonus, inputs.defence_bonus, inputs.kind, inputs.strength, inputs.armor,
                       multiplier, data)
    rows = [Outcome(_("Miss"), odds.miss, None)]
    for dealt, probability in odds.damage.items():
        label = _("Hit, no damage") if dealt == 0 else _damage_label(
            dealt, _consequence(inputs, dealt, state, system))
        rows.append(Outcome(label, probability, dealt))
    return rows


def outcome_label(outcomes: list[Outcome], attack: SoubojAttack, data: SoubojTables) -> str | None:
    """The row of ``outcomes`` the resolved attack landed on."""
    if attack.weapon_kind is Kind.MAGIC:
        return outcomes[0].label if outcomes else None
    attack_total, defence_total = attack.totals()
    base = base_damage(attack_total, defence_total)
    if base is None:
        return outcomes[0].label
    dealt = damage_from_base(base, data.rule(attack.weapon_kind), attack.strength, attack.armor)
    dealt *= critical_multiplier(attack.level, data) if attack.causes else 1
    return next((row.label for row in outcomes if row.damage == dealt), None)


# --- small widget helpers ----------------------------------------------------------------------------------


def d6_plus(bonus: int) -> DiceExpression:
    """1d6 plus ``bonus`` as the dice line writes it."""
    return parse(f"1d6{bonus:+d}" if bonus else "1d6")


class PartsBox(QGroupBox):
    """One side's numbers added to its 1d6: a spin box per part the kind adds, and another modifier."""

    def __init__(self, title: str, labels: dict[str, str]) -> None:
        super().__init__(title)
        self._labels = labels
        self._form = QFormLayout(self)
        self.spins: dict[str, QSpinBox] = {}
        self.other = spin_box(-99, 99)
        self.other.setToolTip(_("Anything else: a spell, the ground, a bonus the GM grants."))
        self.total_label = QLabel()
        self._form.addRow(_("Other modifier"), self.other)
        self._form.addRow(_("Roll"), self.total_label)

    def set_parts(self, parts: tuple[str, ...]) -> list[QSpinBox]:
        """Show a row per part (rebuilt when the kind changes); returns the new spin boxes."""
        if tuple(self.spins) == parts:
            return []
        for spin in self.spins.values():
            self._form.removeRow(spin)
        self.spins = {part: spin_box(-99, 199) for part in parts}
        for index, (part, spin) in enumerate(self.spins.items()):
            self._form.insertRow(index, _(self._labels.get(part, part)), spin)
        return list(self.spins.values())

    def prefill(self, combatant: Combatant) -> None:
        """Each part from the combatant's attributes (the GM may change them)."""
        for part, spin in self.spins.items():
            spin.setValue(roll_bonus((part,), combatant.attributes))

    def bonus(self) -> int:
        """Everything added to the 1d6."""
        return sum(spin.value() for spin in self.spins.values()) + self.other.value()

    def show_total(self) -> None:
        """E.g. "1d6 + 14"."""
        self.total_label.setText(_("1d6 {bonus}").format(bonus=term(self.bonus())))


class DamageBox(QGroupBox):
    """Strength and armor as the kind counts them, a flat blow, a spell's damage."""

    def __init__(self) -> None:
        super().__init__(_("Damage"))
        self.strength = spin_box(0, 199)
        self.armor = spin_box(0, 199)
        # Prefilled from the target's armor (souboj.md Decision: only marked armors count against thrown weapons).
        self.armor_counts = QCheckBox(_("This armor protects against thrown weapons"))
        self.flat = QCheckBox(_("Flat blow: shadow damage"))
        self.spell = spin_box(0, 9999)
        self.rule_label = QLabel()
        self.rule_label.setWordWrap(True)
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        form.addRow(self.rule_label)
        form.addRow(_("Attacker's Strength"), self.strength)
        form.addRow(_("Target's armor quality"), self.armor)
        form.addRow(self.armor_counts)
        form.addRow(self.flat)
        form.addRow(_("Spell's damage"), self.spell)
        self._form = form

    def sync(self, kind: Kind, data: SoubojTables) -> None:
        """Enable what the kind uses; say the rule in words."""
        magic = kind is Kind.MAGIC
        rule = None if magic else data.rule(kind)
        self.strength.setEnabled(rule is not None and rule.damage_strength)
        self.armor.setEnabled(rule is not None and rule.damage_armor and (kind is not Kind.THROWN
                                                                           or self.armor_counts.isChecked()))
        self._form.setRowVisible(self.armor_counts, kind is Kind.THROWN)
        self._form.setRowVisible(self.flat, rule is not None and rule.flat)
        self._form.setRowVisible(self.spell, magic)
        if rule is None:
            self.rule_label.setText(_("Magic follows the spell: enter the damage it deals."))
            return
        parts = [_("attack − defence")]
        if rule.damage_strength:
            parts.append(_("+ Strength"))
        if rule.damage_armor:
            parts.append(_("− armor"))
        self.rule_label.setText(_("Damage = {formula}").format(formula=" ".join(parts)))

    def inputs(self) -> list[QWidget]:
        """Inputs whose every change recomputes the odds."""
        return [self.strength, self.armor, self.armor_counts, self.flat, self.spell]


class CriticalBox(QGroupBox):
    """The causes of a critical hit as checkboxes, the attacker's level and the multiplier it gives."""

    def __init__(self) -> None:
        super().__init__(_("Critical hit"))
        # souboj.md: "possible with all weapons, only with some spells": a spell's causes show only when it may be.
        self.spell_allows = QCheckBox(_("This spell may be critical"))
        self.causes = {cause: QCheckBox(_(label)) for cause, label in CAUSE_LABELS.items()}
        self.level = spin_box(1, 99, 1)
        self.multiplier_label = QLabel()
        layout = QVBoxLayout(self)
        layout.addWidget(self.spell_allows)
        for box in self.causes.values():
            layout.addWidget(box)
        self.level_row = QWidget()
        row = QHBoxLayout(self.level_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel(_("Attacker's level")))
        row.addWidget(self.level)
        row.addWidget(self.multiplier_label, 1)
        layout.addWidget(self.level_row)

    def chosen(self) -> tuple[Cause, ...]:
        """The ticked causes that apply."""
        return tuple(cause for cause, box in self.causes.items() if box.isChecked() and not box.isHidden())

    def sync(self, kind: Kind, data: SoubojTables, spell_mark: bool | None = None) -> None:
        """The GM's call exists for firearms only; a spell may be critical only when marked so (``spell_mark``: a
        saved spell's mark, None for a spell typed in, which the GM marks here); show what a critical multiplies by."""
        magic = kind is Kind.MAGIC
        self.spell_allows.setVisible(magic)
        if spell_mark is not None:
            self.spell_allows.setChecked(spell_mark)
        self.spell_allows.setEnabled(spell_mark is None)
        self.spell_allows.setToolTip(_("Marked in the spell's data (Edit weapons).") if spell_mark is not None else
                                     _("A critical hit is “possible with all weapons, only with some spells”."))
        allowed = self.allowed(kind)
        for cause, box in self.causes.items():
            box.setVisible(allowed and (cause is not Cause.GM or (not magic and data.rule(kind).gm_critical)))
        self.level_row.setVisible(allowed)
        multiplier = critical_multiplier(self.level.value(), data)
        text = _("damage × {multiplier}").format(multiplier=multiplier)
        self.multiplier_label.setText(f"<b>{text}</b>" if self.chosen() else text)

    def allowed(self, kind: Kind) -> bool:
        """Whether an attack of ``kind`` may be critical as the box stands (a spell only when it may be)."""
        return kind is not Kind.MAGIC or self.spell_allows.isChecked()

    def inputs(self) -> list[QWidget]:
        """Inputs whose every change recomputes the odds."""
        return [self.spell_allows, *self.causes.values(), self.level]


class CriticalPrompt(QWidget):
    """What a resolved critical hit asks of the GM, under its result, one click each (souboj.md, "Critical hits": "The
    GM may add effects (bleeding, amputation…) by the size of the wound"; "Dying": "If the last wound was critical …
    it dies on the spot", which the attack applied): an after-effect on the wounded, lasting ``duration`` rounds (0:
    until removed), another one in the effects form, or the death on the spot taken back."""

    def __init__(self) -> None:
        super().__init__()
        self.note = text_label()
        self.bleeding = QPushButton(_("Bleeding"))
        self.bleeding.setToolTip(_("A reminder at the start of every round (every 10 seconds after the fight)."))
        self.lost_limb = QPushButton(_("Lost limb"))
        self.duration = spin_box(0, 999, 0, special=_("until removed"), suffix=_(" rd"), name=_("Lasts"))
        self.duration.setToolTip(_("How many rounds the after-effect lasts (until removed: the GM removes it)."))
        self.other = QPushButton()  # any other after-effect: the effects form, once the dialog has closed
        self.not_dead = QPushButton(_("Not dead after all"))
        self.not_dead.setToolTip(_("The GM's call: the creature is dying instead, as after an ordinary wound."))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note)
        self.effects_row = QWidget()
        row = QHBoxLayout(self.effects_row)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in (self.bleeding, self.lost_limb, QLabel(_("for")), self.duration):
            row.addWidget(widget)
        row.addSpacing(12)
        row.addWidget(self.other)  # on the same row: a laptop screen has no height to spare under the result
        row.addStretch(1)
        layout.addWidget(self.effects_row)
        line = QHBoxLayout()
        line.addWidget(self.not_dead)
        line.addStretch(1)
        layout.addLayout(line)
        for button in (self.bleeding, self.lost_limb, self.other, self.not_dead):
            button.setAutoDefault(False)  # Enter keeps setting up the next attack
        self.clear()

    def clear(self) -> None:
        """Nothing to ask (no critical hit, or the next attack)."""
        self.note.clear()
        for widget in (self.note, self.effects_row, self.not_dead):
            widget.setVisible(False)

    def offer_after_effects(self, note: str, name: str) -> None:
        """A critical wound on ``name``: its after-effects, one click each."""
        self.note.setText(note)
        self.other.setText(_("Add an after-effect to {name}…").format(name=name))
        for button in (self.bleeding, self.lost_limb):
            button.setEnabled(True)
        for widget in (self.note, self.effects_row):
            widget.setVisible(True)

    def offer_taking_back(self, note: str) -> None:
        """The critical wound killed on the spot: the GM may take that death back."""
        self.note.setText(note)
        self.not_dead.setEnabled(True)
        self.note.setVisible(True)
        self.not_dead.setVisible(True)

    def tell(self, note: str) -> None:
        """Only a note (a critical flat blow, which does not kill on the spot)."""
        self.note.setText(note)
        self.note.setVisible(True)
