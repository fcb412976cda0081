"""The SR3 attack dialog's form: weapon, situation, the target's defence, the dice, and the sheet as text.

Each group box hands the dialog its inputs (every change recomputes the sheet) and reads back as plain values;
:class:`DiceBox` also decides which tests the dice entries need once the attack's dice are in.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Final, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.i18n import N_, _, ngettext
from rules.dice import DiceExpression, Roller, parse
from rules.encounter import Combatant, Weapon
from rules.systems.sr3.damage import (
    AMMO_LABELS,
    CALLED_SHOT_LABELS,
    FIRING_MODE_LABELS,
    Ammo,
    CalledShotEffect,
    DamageCode,
    describe_damage_code,
)
from rules.systems.sr3.dice import TargetNumberTest, rule_of_one
from rules.systems.sr3.levels import LEVEL_LABELS
from rules.systems.sr3.monitor import PHYSICAL, STUN, wound_modifiers
from rules.systems.sr3.ranged import (
    MODIFIER_LABELS,
    RANGE_LABELS,
    VISION_LABELS,
    AttackerMovement,
    TargetMovement,
    TargetNumber,
)
from rules.systems.sr3.shot import Defence, ShotInputs, ShotSheet
from rules.systems.sr3.system import COMBAT_POOL, KARMA_POOL
from rules.systems.sr3.tables import (
    VISIBILITY_LABELS,
    WEAPON_CLASS_LABELS,
    FiringMode,
    RangeCategory,
    Sr3Tables,
    WeaponKind,
    label_for,
)
from rules.systems.sr3.weapons import (
    COMPENSATION,
    DAMAGE,
    DAMAGE_CODE_HELP,
    WEAPON_KIND_LABELS,
    Smart,
    ammunition,
    firing_modes,
    shown_value,
    smart_system,
    weapon_class,
    weapon_kind,
)
from ui.games.sr3.karma_rerolls import BoughtSuccesses, KarmaReroll, KarmaSpending, Payer, avert_disaster_box
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import Choice, signed, spin_box
from ui.widgets.layout import row as _row
from ui.widgets.odds_table import OddsTable

#: The kinds a ranged attack is made with (a melee weapon is refused with a message: :mod:`.attack`).
RANGED_KINDS: Final[tuple[WeaponKind, ...]] = tuple(kind for kind in WEAPON_KIND_LABELS if kind is not WeaponKind.MELEE)
ATTACKER_MOVEMENT_LABELS: Final[dict[AttackerMovement, str]] = {
    AttackerMovement.STILL: N_("Standing still"),
    AttackerMovement.WALKING: N_("Walking"),
    AttackerMovement.RUNNING: N_("Running"),
}
TARGET_MOVEMENT_LABELS: Final[dict[TargetMovement, str]] = {
    TargetMovement.NORMAL: N_("Moving normally"),
    TargetMovement.RUNNING: N_("Running"),
    TargetMovement.STATIONARY: N_("Stationary"),
}
T = TypeVar("T")
#: Characters a closed combo shows: the SR3 form's columns are a little wider than other games'.
COMBO_LENGTH: Final[int] = 12


def _choice(items: Iterable[tuple[str, T]]) -> Choice[T]:
    return Choice(items, min_length=COMBO_LENGTH)


def _two_pairs_a_row(grid: QGridLayout, fields: Iterable[tuple[str, QWidget]]) -> None:
    """Label + field pairs into ``grid``, two pairs per row."""
    for index, (label, field) in enumerate(fields):
        row, column = divmod(index, 2)
        grid.addWidget(QLabel(label), row, column * 2)
        grid.addWidget(field, row, column * 2 + 1)


def tn_test(dice: int, tn: int) -> DiceExpression | None:
    """``dice``d6 against ``tn`` (None for no dice: the test is skipped)."""
    return TargetNumberTest(dice, tn) if dice > 0 else None


def karma_left(combatant: Combatant | None) -> int | None:
    """Karma points the fighter has left (None: no karma pool)."""
    pool = combatant.pools.get(KARMA_POOL) if combatant is not None else None
    return pool.remaining if pool is not None else None


def pool_left(combatant: Combatant | None) -> int:
    """Combat pool dice the fighter has left this turn (0: none, or no fighter)."""
    pool = combatant.pools.get(COMBAT_POOL) if combatant is not None else None
    return pool.remaining if pool is not None else 0


def wound_modifier(combatant: Combatant) -> int:
    """The TN modifier of the fighter's wounds, both tracks added."""
    return wound_modifiers(combatant.boxes(PHYSICAL), combatant.boxes(STUN))[0]


def successes_entered(entry: DiceEntry, no_dice: int | None = 0) -> int | None:
    """Successes of an entered test: None while its dice are missing, ``no_dice`` when it has none."""
    if entry.expression() is None:
        return no_dice
    result = entry.result()
    return None if result is None else (result.successes or 0)


# --- the sheet as text ---------------------------------------------------------------------------------------


def _code_text(power: int, level: str) -> str:
    return describe_damage_code(DamageCode(power, level))


def tn_lines_html(tn: TargetNumber) -> str:
    """The modifiers that make a target number, one per line with its value."""
    rows = "".join(f"<tr><td>{html.escape(line.label)}</td><td align='right'>&nbsp;&nbsp;{signed(line.value)}</td>"
                   f"</tr>" for line in tn.lines)
    notes = "".join(f"<br><i>{html.escape(note)}</i>" for note in tn.notes)
    return f"<table cellspacing='0'>{rows}</table>{notes}"


def _code_change_text(sheet: ShotSheet, inputs: ShotInputs) -> str:
    """The code after ammunition and a called shot, naming only what changed it (a called shot for more damage
    applies only when the shot is called)."""
    code = _code_text(sheet.power, sheet.level)
    called = inputs.attack.called_shot
    if called and inputs.ammo is not Ammo.NORMAL:
        return _("{code} (ammunition, called shot)").format(code=code)
    return (_("{code} (called shot)") if called else _("{code} (ammunition)")).format(code=code)


def damage_html(sheet: ShotSheet, inputs: ShotInputs) -> str:
    """The damage code step by step (mode, ammunition, called shot), the resistance and dodge TNs."""
    mode = inputs.attack.mode
    codes = [describe_damage_code(sheet.base)]
    if sheet.mode_code != (sheet.base.power, sheet.base.level):
        codes.append(_("{code} ({mode}, {rounds})").format(
            code=_code_text(*sheet.mode_code), mode=mode.value,
            rounds=ngettext("{count} round", "{count} rounds", inputs.attack.rounds or 1).format(
                count=inputs.attack.rounds or 1)))
    if (sheet.power, sheet.level) != sheet.mode_code:
        codes.append(_code_change_text(sheet, inputs))
    base, *extra = sheet.dodge_tn.lines
    dodge = _("Dodge TN {tn}").format(tn=sheet.dodge_tn.value)
    if extra:
        parts = [str(base.value), *(f"{html.escape(line.label)} {signed(line.value)}" for line in extra)]
        dodge = _("Dodge TN {tn}: {parts}").format(tn=sheet.dodge_tn.value, parts=", ".join(parts))
    lines = [
        "<b>{}</b>".format(" → ".join(codes)) + html.escape(" · " + _(LEVEL_LABELS[sheet.level])),  # what S means
        _("Resistance TN {tn}: Power {power} − armor {armor}").format(
            tn=sheet.resist_tn, power=sheet.power, armor=sheet.armor),
        dodge,
    ]
    if sheet.track == STUN:
        lines.append(_("Stun damage: it goes on the stun track."))
    return "<br>".join(lines)


# --- the form's group boxes --------------------------------------------------------------------------------


class WeaponBox(QGroupBox):
    """Weapon: name, damage code, firing mode and rounds, recoil, range, ammunition."""

    def __init__(self, data: Sr3Tables) -> None:
        super().__init__(_("Weapon"))
        self.name = QLineEdit(placeholderText=_("e.g. Ares Predator"))
        self.code = QLineEdit("9M")
        self.code.setToolTip(_(DAMAGE_CODE_HELP))
        self.code_error = QLabel()
        self.code_error.setWordWrap(True)
        self.mode: Choice[FiringMode] = _choice(())
        self.offer_modes(None)
        self.rounds = spin_box(1, 1, 1)
        self.fired = spin_box(0, 99)
        self.fired.setToolTip(_("Rounds this attacker already fired in this phase (recoil adds up)."))
        self.compensation = spin_box(0, 30)
        self.gyro = spin_box(0, 10)
        classes = sorted((label_for(WEAPON_CLASS_LABELS, key), key) for key in data.weapon_ranges)
        self.weapon_class = _choice([(_("Not given"), None), *classes])
        self.range = _choice([*((_(RANGE_LABELS[c]), c) for c in RangeCategory),
                             (_("From distance and weapon class"), None)])
        self.distance = spin_box(0, 99999, special=_("not given"))
        self.distance.setSuffix(_(" m"))
        self.distance.setToolTip(_("Distance to the target: for the range table and the laser sight's reach."))
        self.heavy = QCheckBox(_("Heavy weapon (recoil doubled)"))
        self.ammo = _choice((_(AMMO_LABELS[ammo]), ammo) for ammo in Ammo)
        self.kind = _choice((_(WEAPON_KIND_LABELS[kind]), kind) for kind in RANGED_KINDS)
        self.smartgun = QCheckBox(_("Smartgun"))
        self._build_layout()

    def _build_layout(self) -> None:
        form = QFormLayout(self)
        form.addRow(_("Name"), self.name)
        form.addRow(_("Damage code"), self.code)
        form.addRow("", self.code_error)
        form.addRow(_("Firing mode"), _row(self.mode, _("rounds"), self.rounds))
        form.addRow(_("Rounds fired this phase"), self.fired)
        form.addRow(_("Recoil compensation"), _row(self.compensation, _("gyro"), self.gyro))
        form.addRow(_("Weapon class"), self.weapon_class)
        form.addRow(_("Range"), _row(self.range, self.distance))
        form.addRow(_("Ammunition"), self.ammo)
        form.addRow(_("Weapon kind"), self.kind)
        form.addRow(_row(self.heavy, self.smartgun))

    def inputs(self) -> list[QWidget]:
        """Inputs whose every change recomputes the sheet (mode and class have their own slot)."""
        return [self.name, self.code, self.rounds, self.fired, self.compensation, self.gyro, self.range,
                self.distance, self.heavy, self.ammo, self.kind, self.smartgun]

    def firing_mode(self) -> FiringMode:
        """The chosen firing mode."""
        return self.mode.value()

    def offer_modes(self, modes: Iterable[FiringMode] | None) -> None:
        """Offer a weapon's firing modes (None: every mode, for a weapon typed in the form), keeping the chosen
        one if it is offered; a short burst comes with burst fire and full auto, whose clip may run out."""
        listed = list(FiringMode if modes is None else modes)
        allowed = {*listed, FiringMode.SB} if {FiringMode.BF, FiringMode.FA} & set(listed) else set(listed)
        chosen = self.mode.value() if self.mode.count() else None
        self.mode.set_items((f"{_(FIRING_MODE_LABELS[mode])} ({mode.value})", mode)
                            for mode in FiringMode if mode in allowed)
        # A short burst only when the GM picks it; a weapon typed in starts semi-automatic, the mode that fires twice
        # a phase (a single shot fires once: the second shot would be refused).
        first = FiringMode.SA if modes is None else listed[0]
        self.mode.select(chosen if chosen in allowed else first)

    def fill(self, weapon: Weapon) -> None:
        """Every input from a saved ranged weapon (the GM may still change them); its modes are the ones offered."""
        self.name.setText(weapon.name)
        self.code.setText(str(shown_value(DAMAGE, weapon.value(DAMAGE, ""))))  # in the letters of the GM's book
        self.offer_modes(firing_modes(weapon) or (FiringMode.SS,))  # a bow, a grenade: one at a time
        self.compensation.setValue(weapon.number(COMPENSATION))
        self.weapon_class.select(weapon_class(weapon))
        self.ammo.select(ammunition(weapon))
        self.kind.select(weapon_kind(weapon))
        self.smartgun.setChecked(smart_system(weapon) is not Smart.NONE)

    def limit_rounds(self, data: Sr3Tables) -> None:
        """Rounds within what the mode fires; only full auto lets the GM choose."""
        rule = data.firing_modes[self.firing_mode()]
        self.rounds.setRange(rule.min_rounds, rule.max_rounds)
        self.rounds.setEnabled(rule.max_rounds > rule.min_rounds)


QUICK_DRAW_HELP: Final[str] = N_("Draw a pistol-size weapon and fire it in one simple action: a Reaction test, "
                                 "one success draws and fires; with none, no shot from it this phase.")


class SituationBox(QGroupBox):
    """Every situational modifier of the ranged-combat table."""

    def __init__(self, data: Sr3Tables) -> None:
        super().__init__(_("Situation"))
        rows = sorted((label_for(VISIBILITY_LABELS, key), key) for key in data.visibility)
        self.visibility = _choice([(_("Clear visibility"), None), *rows])
        self.vision = _choice((_(label), vision) for vision, label in VISION_LABELS.items())
        self.attacker_movement = _choice((_(label), key) for key, label in ATTACKER_MOVEMENT_LABELS.items())
        self.difficult = QCheckBox(_("Difficult terrain"))
        self.target_movement = _choice((_(label), key) for key, label in TARGET_MOVEMENT_LABELS.items())
        self.cover = QCheckBox(_(MODIFIER_LABELS["partial_cover"]))
        self.blind = QCheckBox(_(MODIFIER_LABELS["blind_fire"]))
        self.melee = spin_box(0, 20, special=_("none"))
        self.target_index = spin_box(1, 20)
        self.target_index.setToolTip(_("1 for the first target of the phase, 2 for the second, …"))
        self.smartlink = QCheckBox(_(MODIFIER_LABELS["smartlink"]))
        self.goggles = QCheckBox(_(MODIFIER_LABELS["smartgoggles"]))
        self.laser = QCheckBox(_(MODIFIER_LABELS["laser_sight"]))
        self.aim = spin_box(0, 0)
        self.aim.setToolTip(_("At most half the attack skill counts."))
        self.called = QCheckBox(_(MODIFIER_LABELS["called_shot"]))
        self.called_effect = _choice((_(label), key) for key, label in CALLED_SHOT_LABELS.items())
        self.spot_armor = spin_box(0, 30)
        self.spot_armor.setToolTip(_("Armor of the spot hit, or the rating of the vehicle part."))
        self.second = QCheckBox(_(MODIFIER_LABELS["second_firearm"]))
        self.quick_draw = QCheckBox(_("Quick draw"))
        self.quick_draw.setToolTip(_(QUICK_DRAW_HELP))
        self.holstered = QCheckBox(_("proper holster"))
        self.holstered.setChecked(True)
        self.holstered.setToolTip(_("Without a proper holster the quick draw's TN is higher (+2 in the book)."))
        self.other_recoil = spin_box(0, 30)
        self.wounds = spin_box(0, 12)
        self.magnification = spin_box(0, 3)
        self.gm = spin_box(-20, 20)
        self._build_layout()

    def _build_layout(self) -> None:
        form = QFormLayout(self)
        form.addRow(_("Visibility"), self.visibility)
        form.addRow(_("Vision"), self.vision)
        form.addRow(_("Attacker"), self.attacker_movement)
        form.addRow("", self.difficult)
        form.addRow(_("Target"), self.target_movement)
        form.addRow(self._grid((self.cover, self.blind), (self.smartlink, self.goggles), (self.laser, self.second),
                               (self.quick_draw, self.holstered)))
        form.addRow(_row(self.called, self.called_effect))
        # Small number fields two to a row: the dialog must fit a 768-pixel laptop screen.
        form.addRow(self._numbers(
            (_("Target no. this phase"), self.target_index), (_("Aim actions"), self.aim),
            (_("Melee opponents"), self.melee), (_("Wound modifier"), self.wounds),
            (_("Magnification"), self.magnification), (_("GM modifier"), self.gm),
            (_("Spot or part armor"), self.spot_armor), (_("Other firearm's recoil"), self.other_recoil)))

    def inputs(self) -> list[QWidget]:
        """Inputs whose every change recomputes the sheet."""
        return [self.visibility, self.vision, self.attacker_movement, self.difficult, self.target_movement,
                self.cover, self.blind, self.melee, self.target_index, self.smartlink, self.goggles, self.laser,
                self.aim, self.called, self.called_effect, self.spot_armor, self.second, self.other_recoil,
                self.wounds, self.magnification, self.gm, self.quick_draw, self.holstered]

    def offer_quick_draw(self, weapon_class: str | None, data: Sr3Tables) -> None:
        """A quick draw only for "pistol-size weapons (Concealability ≥ 4)": the classes the data names, or a
        weapon of no class (the GM's call)."""
        allowed = weapon_class is None or weapon_class in data.quick_draw.weapon_classes
        if not allowed and self.quick_draw.isChecked():
            self.quick_draw.setChecked(False)
        self.quick_draw.setEnabled(allowed)
        self.quick_draw.setToolTip(_(QUICK_DRAW_HELP) if allowed else _(
            "Only pistol-size weapons (Concealability 4 or more) are quick-drawn: this weapon's class is not one "
            "of them (the SR3 data's quick_draw.weapon_classes)."))

    def sync(self) -> None:
        """Enable only the details that matter for what is ticked."""
        self.vision.setEnabled(self.visibility.value() is not None and not self.blind.isChecked())
        self.difficult.setEnabled(self.attacker_movement.value() is not AttackerMovement.STILL)
        self.called_effect.setEnabled(self.called.isChecked())
        self.holstered.setEnabled(self.quick_draw.isChecked())
        self.spot_armor.setEnabled(self.called.isChecked()
                                   and self.called_effect.value() is not CalledShotEffect.EXTRA_LEVEL)
        self.other_recoil.setEnabled(self.second.isChecked())

    @staticmethod
    def _numbers(*fields: tuple[str, QWidget]) -> QWidget:
        """Label + field pairs, two pairs per row."""
        holder = QWidget()
        grid = QGridLayout(holder)
        grid.setContentsMargins(0, 0, 0, 0)
        _two_pairs_a_row(grid, fields)
        return holder

    @staticmethod
    def _grid(*rows: tuple[QWidget, QWidget]) -> QWidget:
        holder = QWidget()
        grid = QGridLayout(holder)
        grid.setContentsMargins(0, 0, 0, 0)
        for index, (left, right) in enumerate(rows):
            grid.addWidget(left, index, 0)
            grid.addWidget(right, index, 1)
        return holder


class DefenceBox(QGroupBox):
    """The target's armor and dodge modifiers, prefilled from the target and editable."""

    def __init__(self) -> None:
        super().__init__(_("Target's defence"))
        self.ballistic = spin_box(0, 30)
        self.impact = spin_box(0, 30)
        self.wounds = spin_box(0, 12)
        self.spread = spin_box(0, 10)
        self.cramped = spin_box(0, 4)
        self.area = QCheckBox(_(MODIFIER_LABELS["area_weapon"]))
        grid = QGridLayout(self)
        _two_pairs_a_row(grid, ((_("Ballistic armor"), self.ballistic), (_("Impact armor"), self.impact),
                                (_("Wound modifier"), self.wounds),
                                (_(MODIFIER_LABELS["shotgun_spread"]), self.spread),
                                (_(MODIFIER_LABELS["cramped"]), self.cramped)))
        grid.addWidget(self.area, 2, 2, 1, 2)

    def inputs(self) -> list[QWidget]:
        """Inputs whose every change recomputes the sheet."""
        return [self.ballistic, self.impact, self.wounds, self.spread, self.cramped, self.area]

    def values(self) -> Defence:
        """The defence as the rules take it."""
        return Defence(self.ballistic.value(), self.impact.value(), self.wounds.value(), self.spread.value(),
                       self.cramped.value(), self.area.isChecked())


class DiceBox(QGroupBox):
    """How many dice each side rolls, within the combat pools left; the odds; then the dice themselves."""

    def __init__(self, roller: Roller) -> None:
        super().__init__(_("Dice and odds"))
        self.skill = spin_box(0, 40)
        self.attack_pool = spin_box(0, 0)
        self.dodge = spin_box(0, 0)
        self.body = spin_box(0, 40)
        self.resist_pool = spin_box(0, 0)
        self.attacker_pool_note = QLabel()
        self.target_pool_note = QLabel()
        self.target_pool_note.setWordWrap(True)
        self.odds = OddsTable()
        self.quick_draw_entry = DiceEntry(_("Quick draw (Reaction)"), roller)
        self.quick_draw_entry.setVisible(False)
        self.attack_entry = DiceEntry(_("Attack"), roller)
        self.dodge_entry = DiceEntry(_("Dodge"), roller)
        self.resist_entry = DiceEntry(_("Resistance"), roller)
        self.misfire_entry = DiceEntry(_("Misfire staging"), roller)
        self.misfire_entry.setVisible(False)
        self.roll_all = QPushButton(_("Roll the rest"))
        self.roll_all.setAutoDefault(False)
        self.roll_all.setToolTip(_("Roll every test still missing, in order: attack, dodge, resistance."))
        self.attack_karma = KarmaReroll(self.attack_entry, _(
            "The attacker's karma pool rolls the failed attack dice again: 1 point, each further reroll of the test "
            "1 more."), roller)
        self.dodge_karma = KarmaReroll(self.dodge_entry, _(
            "The target's karma pool rolls the failed dodge dice again: 1 point, each further reroll of the test "
            "1 more."), roller)
        self.resist_karma = KarmaReroll(self.resist_entry, _(
            "Whoever resists pays from their karma pool to roll the failed resistance dice again: 1 point, each "
            "further reroll of the test 1 more."), roller)
        self.attack_bought = BoughtSuccesses(self.attack_entry)
        self.dodge_bought = BoughtSuccesses(self.dodge_entry)
        self.resist_bought = BoughtSuccesses(self.resist_entry)
        self.avert_disaster = avert_disaster_box()
        self._explosive = False
        self._build_layout()

    def entries(self) -> tuple[DiceEntry, ...]:
        """The dice entries in the order the tests are made."""
        return (self.quick_draw_entry, self.attack_entry, self.dodge_entry, self.resist_entry, self.misfire_entry)

    def quick_draw_failed(self) -> bool:
        """Whether the quick draw's Reaction test rolled no success: no shot from that weapon this phase."""
        if self.quick_draw_entry.expression() is None:
            return False
        result = self.quick_draw_entry.result()
        return result is not None and not result.successes

    def all_ones(self) -> bool:
        """Whether the attack test rolled all 1s (the rule of one)."""
        result = self.attack_entry.result()
        return result is not None and rule_of_one(result.faces)

    def misfired(self, explosive: bool) -> bool:
        """Whether an ``explosive`` round rolled all ones on the attack dice: it detonated in the weapon, unless
        the attacker's karma made it a plain failure."""
        return explosive and self.all_ones() and not self.averted()

    def averted(self) -> bool:
        return not self.avert_disaster.isHidden() and self.avert_disaster.isChecked()

    def karma_spending(self) -> KarmaSpending:
        resisting = Payer.ATTACKER if self.misfired(self._explosive) else Payer.TARGET
        rerolls = ((self.attack_karma, Payer.ATTACKER), (self.dodge_karma, Payer.TARGET),
                   (self.resist_karma, resisting))
        bought = ((self.attack_bought, Payer.ATTACKER), (self.dodge_bought, Payer.TARGET),
                  (self.resist_bought, resisting))
        return KarmaSpending(rerolls, bought, self.averted())

    def offer_karma(self, attacker_left: int | None, target_left: int | None, editable: bool) -> None:
        """Offer the karma rerolls of each test and, after all 1s with an explosive round, the point that makes it
        a plain failure; each within what its payer has left after the rest of the shot."""
        could_avert = self._explosive and self.all_ones() and attacker_left is not None
        self.avert_disaster.setVisible(could_avert)
        if not could_avert:
            self._uncheck_averting()  # new dice, or a pool gone: a later all-ones roll asks again
        spending = self.karma_spending()
        spending.offer({Payer.ATTACKER: attacker_left, Payer.TARGET: target_left}, editable)
        spare = (attacker_left or 0) - spending.committed(Payer.ATTACKER)
        self.avert_disaster.setEnabled(editable and (self.avert_disaster.isChecked() or spare >= 1))

    def clear_karma(self) -> None:
        for button in (self.attack_karma, self.dodge_karma, self.resist_karma):
            button.rerolls = 0
        for bought in (self.attack_bought, self.dodge_bought, self.resist_bought):
            blocked = bought.box.blockSignals(True)
            bought.box.setValue(0)
            bought.box.blockSignals(blocked)
        self._uncheck_averting()

    def _uncheck_averting(self) -> None:
        blocked = self.avert_disaster.blockSignals(True)  # the form is being refreshed already
        self.avert_disaster.setChecked(False)
        self.avert_disaster.blockSignals(blocked)

    def set_tests(self, sheet: ShotSheet | None, explosive: bool, shooter_body: int,
                  quick_draw: DiceExpression | None = None) -> None:
        """Give each entry the test it needs now; a quick draw's and the attack's results decide what follows."""
        self._explosive = explosive
        if sheet is None:
            for entry in self.entries():
                entry.set_expression(None, _("Fix the attack first."))
            return
        self.quick_draw_entry.setVisible(quick_draw is not None)
        self.quick_draw_entry.set_expression(quick_draw, _("No Reaction dice."))
        if self.quick_draw_failed():
            self.misfire_entry.setVisible(False)
            for entry in (self.attack_entry, self.dodge_entry, self.resist_entry, self.misfire_entry):
                entry.set_expression(None, _("Not needed: the quick draw failed."))
            return
        attack_dice = self.skill.value() + self.attack_pool.value()
        self.attack_entry.set_expression(tn_test(attack_dice, sheet.attack_tn.value), _("Enter the skill dice."))
        misfired = self.misfired(explosive)
        self.misfire_entry.setVisible(misfired)
        self.misfire_entry.set_expression(parse("1d6") if misfired else None)
        if misfired:
            self.dodge_entry.set_expression(None, _("Not needed: the round detonated in the weapon."))
            self.resist_entry.title_label.setText(_("Shooter's resistance"))
            self.resist_entry.set_expression(tn_test(shooter_body, sheet.misfire_resist_tn), _("No Body dice."))
        else:
            self._set_defence_tests(sheet)

    def _set_defence_tests(self, sheet: ShotSheet) -> None:
        """The target's dodge and resistance, each needed only if the attack is still on."""
        hits = successes_entered(self.attack_entry, no_dice=None)  # no attack dice yet: the rest still to come
        self.resist_entry.title_label.setText(_("Resistance"))
        missed = _("Not needed: the attack missed.")
        dodge = tn_test(self.dodge.value(), sheet.dodge_tn.value) if hits != 0 else None
        self.dodge_entry.set_expression(dodge, missed if hits == 0 else _("No dodge."))
        dodge_hits = successes_entered(self.dodge_entry)
        dodged = (hits is not None and dodge_hits is not None
                  and dodge_hits + self.dodge_bought.paid() > hits + self.attack_bought.paid())
        needed = hits != 0 and not dodged
        resist = tn_test(self.body.value() + self.resist_pool.value(), sheet.resist_tn) if needed else None
        reason = missed if hits == 0 else (_("Not needed: the attack was dodged.") if dodged else _("No dice."))
        self.resist_entry.set_expression(resist, reason)

    def _build_layout(self) -> None:
        grid = QGridLayout()
        cells = ((_("Attack skill"), self.skill, 0, 0), (_("+ combat pool"), self.attack_pool, 0, 2),
                 (_("Dodge (pool)"), self.dodge, 1, 0), (_("Body"), self.body, 2, 0),
                 (_("+ combat pool"), self.resist_pool, 2, 2))
        for text, widget, row, column in cells:
            grid.addWidget(QLabel(text), row, column)
            grid.addWidget(widget, row, column + 1)
        grid.addWidget(self.attacker_pool_note, 0, 4)
        grid.addWidget(self.target_pool_note, 1, 2, 1, 3)
        grid.setColumnStretch(4, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(self.odds)
        karma: dict[DiceEntry, tuple[QWidget, ...]] = {
            self.attack_entry: (self.avert_disaster, *self.attack_bought.widgets(), self.attack_karma),
            self.dodge_entry: (*self.dodge_bought.widgets(), self.dodge_karma),
            self.resist_entry: (*self.resist_bought.widgets(), self.resist_karma)}
        for entry in self.entries():
            layout.addWidget(entry)
            if entry in karma:
                buttons = QHBoxLayout()
                buttons.addStretch(1)
                for button in karma[entry]:
                    buttons.addWidget(button)
                layout.addLayout(buttons)
        layout.addWidget(self.roll_all, 0, Qt.AlignmentFlag.AlignRight)

