"""Shadowrun 3 ranged attack: weapon, situation and dice in, TN and odds live, one undoable operation out.

The form's values become a :class:`ShotInputs`; :func:`work_out` asks the rules (``ranged_tn``,
``damage_code``, ``ammo_damage_code``, ``resistance_tn``, ``dodge_tn``, ``attack_outcome_distribution``)
for the :class:`ShotSheet` the dialog shows. Resolve builds one :class:`~rules.systems.sr3.Sr3Attack` and
applies it through the document; the rules put the damage on the monitor and move initiative.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import ClassVar, Final, Generic, TypeVar

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.document import Change, EncounterDocument
from app.i18n import N_, _, ngettext
from rules.dice import DiceExpression, Roller, count_sr3_successes, parse, rule_of_one
from rules.encounter import Combatant, Encounter, SlotKind, Status
from rules.errors import RulesError
from rules.systems.sr3.damage import (
    AMMO_LABELS,
    CALLED_SHOT_LABELS,
    FIRING_MODE_LABELS,
    Ammo,
    CalledShotEffect,
    DamageCode,
    ammo_damage_code,
    called_shot,
    damage_code,
    describe_damage_code,
    dodge_tn,
    parse_damage_code,
    relevant_armor,
    resistance_tn,
    resolve_hit,
)
from rules.systems.sr3.monitor import PHYSICAL, STUN, wound_modifiers
from rules.systems.sr3.odds import OUTCOME_LABELS, OUTCOMES, attack_outcome_distribution
from rules.systems.sr3.ops import Sr3Attack, may_act_against
from rules.systems.sr3.ranged import (
    MODIFIER_LABELS,
    RANGE_LABELS,
    VISION_LABELS,
    AttackerMovement,
    RangedAttack,
    TargetMovement,
    TargetNumber,
    is_heavy,
    ranged_tn,
)
from rules.systems.sr3.system import COMBAT_POOL, tables
from rules.systems.sr3.tables import (
    VISIBILITY_LABELS,
    WEAPON_CLASS_LABELS,
    FiringMode,
    RangeCategory,
    Sr3Tables,
    WeaponKind,
    label_for,
)
from ui.charts.odds_chart import OddsChart
from ui.charts.sr3_odds import ORDER, AttackQuestion, attack_chart, tick_text
from ui.dialogs.attack import register_attack_dialog
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.layout import column as _column
from ui.widgets.layout import fit_to_screen
from ui.widgets.layout import row as _row
from ui.widgets.messages import show_message
from ui.widgets.odds_table import OddsTable

WEAPON_KIND_LABELS: Final[dict[WeaponKind, str]] = {
    WeaponKind.FIREARM: N_("Firearm (ballistic armor)"),
    WeaponKind.PROJECTILE: N_("Bow or crossbow (ballistic armor)"),
    WeaponKind.THROWN: N_("Thrown weapon (impact armor)"),
    WeaponKind.BLAST: N_("Blast (impact armor)"),
}
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
#: Rounds a mode fires count as "already fired" for the next shot's recoil (a single shot never recoils).
RECOILING_MODES: Final[frozenset[FiringMode]] = frozenset({FiringMode.SA, FiringMode.SB, FiringMode.BF,
                                                           FiringMode.FA})
MISFIRE_AMMO: Final[frozenset[Ammo]] = frozenset({Ammo.EX, Ammo.HE})


# --- the rules' view of the form ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Defence:
    """The target's side of the shot: armor worn and what makes dodging harder."""

    ballistic: int = 0
    impact: int = 0
    wound_modifier: int = 0
    shotgun_spread: int = 0
    cramped: int = 0
    area_weapon: bool = False


@dataclass(frozen=True)
class ShotInputs:
    """Everything the GM set for one shot, as plain values."""

    code_text: str
    strength: int
    kind: WeaponKind
    ammo: Ammo
    attack: RangedAttack
    defence: Defence
    called_effect: CalledShotEffect
    spot_armor: int
    attack_dice: int
    dodge_dice: int
    resist_dice: int
    shooter_armor: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class ShotSheet:
    """What the rules make of a :class:`ShotInputs`: target numbers, damage codes and the odds."""

    attack_tn: TargetNumber
    base: DamageCode
    mode_code: tuple[int, str]
    power: int
    level: str
    armor: int
    resist_tn: int
    dodge_tn: TargetNumber
    misfire_resist_tn: int
    odds: dict[str, float]

    @property
    def track(self) -> str:
        """Stun codes go on the stun track."""
        return STUN if self.base.stun else PHYSICAL


def _armor_after_called_shot(inputs: ShotInputs) -> tuple[int, int]:
    """(ballistic, impact) the resistance test uses: a called shot at a spot or part replaces the armor."""
    ballistic, impact = inputs.defence.ballistic, inputs.defence.impact
    if not inputs.attack.called_shot or inputs.called_effect is CalledShotEffect.EXTRA_LEVEL:
        return ballistic, impact
    if inputs.called_effect is CalledShotEffect.UNARMORED_SPOT:
        return min(ballistic, inputs.spot_armor), min(impact, inputs.spot_armor)
    return inputs.spot_armor, inputs.spot_armor  # a vehicle part: its own rating, whatever the weapon


def work_out(inputs: ShotInputs, data: Sr3Tables) -> ShotSheet:
    """Ask the rules for the shot's TNs, damage and odds; RulesError names what the GM must fix."""
    base = parse_damage_code(inputs.code_text).for_strength(inputs.strength)
    attack_tn = ranged_tn(inputs.attack, data)
    rounds = inputs.attack.rounds
    mode_power, mode_level = damage_code(base.power, base.level, inputs.attack.mode, rounds, data)
    defence = inputs.defence
    power, level = ammo_damage_code(mode_power, mode_level, inputs.ammo, defence.ballistic, defence.impact,
                                    tables=data)
    if inputs.attack.called_shot and inputs.called_effect is CalledShotEffect.EXTRA_LEVEL:
        level = called_shot(inputs.called_effect, level, 0, tables=data).level
    ballistic, impact = _armor_after_called_shot(inputs)
    armor = relevant_armor(ballistic, impact, inputs.kind, inputs.ammo, tables=data)
    resist = resistance_tn(mode_power, ballistic, impact, inputs.kind, inputs.ammo, tables=data)
    dodge = dodge_tn(rounds or 1, shotgun_spread=defence.shotgun_spread, wound_modifier=defence.wound_modifier,
                     cramped=defence.cramped, area_weapon=defence.area_weapon, tables=data)
    misfire = resistance_tn(base.power, *inputs.shooter_armor, inputs.kind, Ammo.NORMAL, tables=data)
    odds = attack_outcome_distribution(inputs.attack_dice, attack_tn.value, inputs.dodge_dice, dodge.value,
                                       inputs.resist_dice, resist, level)
    return ShotSheet(attack_tn, base, (mode_power, mode_level), power, level, armor, resist, dodge, misfire, odds)


def outcome_of(attack: Sr3Attack, misfired: bool) -> str:
    """The :data:`OUTCOMES` key of a resolved attack (a misfire is a miss for the target)."""
    if misfired:
        return "miss"
    hits = 0 if rule_of_one(attack.attack_faces) else count_sr3_successes(attack.attack_faces, attack.attack_tn)
    dodged = count_sr3_successes(attack.dodge_faces, attack.dodge_tn) if attack.dodge_faces else 0
    result = resolve_hit(attack.level, hits, dodged, count_sr3_successes(attack.resist_faces, attack.resist_tn))
    if result.missed:
        return "miss"
    if result.dodged:
        return "dodged"
    return result.level or "none"


# --- small widget helpers ----------------------------------------------------------------------------------


def _spin(minimum: int, maximum: int, value: int = 0, special: str = "") -> QSpinBox:
    box = QSpinBox()
    box.setRange(minimum, maximum)
    box.setValue(value)
    if special:
        box.setSpecialValueText(special)
    return box


class Choice(QComboBox, Generic[T]):
    """A combo box of Python values (Qt would turn enum members into plain strings)."""

    def __init__(self, items: Iterable[tuple[str, T]]) -> None:
        super().__init__()
        # Long item texts must not widen the whole column: the popup still shows them in full.
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(12)
        self._values: list[T] = []
        for text, value in items:
            self.addItem(text)
            self._values.append(value)

    def value(self) -> T:
        """The chosen value."""
        return self._values[max(0, self.currentIndex())]

    def select(self, value: T) -> None:
        """Choose ``value`` (ignored if it is not offered)."""
        if value in self._values:
            self.setCurrentIndex(self._values.index(value))


def _signed(value: int) -> str:
    """+4, −1 (a real minus sign), 0."""
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


def _code_text(power: int, level: str) -> str:
    return describe_damage_code(DamageCode(power, level))


def _pool_left(combatant: Combatant) -> int:
    pool = combatant.pools.get(COMBAT_POOL)
    return pool.remaining if pool is not None else 0


def _wounds(combatant: Combatant) -> int:
    return wound_modifiers(combatant.boxes(PHYSICAL), combatant.boxes(STUN))[0]


def _lines_html(tn: TargetNumber) -> str:
    rows = "".join(f"<tr><td>{html.escape(line.label)}</td><td align='right'>&nbsp;&nbsp;{_signed(line.value)}</td>"
                   f"</tr>" for line in tn.lines)
    notes = "".join(f"<br><i>{html.escape(note)}</i>" for note in tn.notes)
    return f"<table cellspacing='0'>{rows}</table>{notes}"


# --- the form's group boxes --------------------------------------------------------------------------------


class WeaponBox(QGroupBox):
    """Weapon: name, damage code, firing mode and rounds, recoil, range, ammunition."""

    def __init__(self, data: Sr3Tables) -> None:
        super().__init__(_("Weapon"))
        self.name = QLineEdit(placeholderText=_("e.g. Ares Predator"))
        self.code = QLineEdit("9M")
        self.code.setToolTip(_("Power and level, e.g. 9M, 8M Stun or (STR+2)M."))
        self.code_error = QLabel()
        self.code_error.setWordWrap(True)
        self.mode = Choice((f"{_(FIRING_MODE_LABELS[mode])} ({mode.value})", mode) for mode in FiringMode)
        self.rounds = _spin(1, 1, 1)
        self.fired = _spin(0, 99)
        self.fired.setToolTip(_("Rounds this attacker already fired in this phase (recoil adds up)."))
        self.compensation = _spin(0, 30)
        self.gyro = _spin(0, 10)
        classes = sorted((label_for(WEAPON_CLASS_LABELS, key), key) for key in data.weapon_ranges)
        self.weapon_class = Choice([(_("Not given"), None), *classes])
        self.range = Choice([*((_(RANGE_LABELS[c]), c) for c in RangeCategory),
                             (_("From distance and weapon class"), None)])
        self.distance = _spin(0, 99999, special=_("not given"))
        self.distance.setSuffix(_(" m"))
        self.distance.setToolTip(_("Distance to the target: for the range table and the laser sight's reach."))
        self.heavy = QCheckBox(_("Heavy weapon (recoil doubled)"))
        self.ammo = Choice((_(AMMO_LABELS[ammo]), ammo) for ammo in Ammo)
        self.kind = Choice((_(label), kind) for kind, label in WEAPON_KIND_LABELS.items())
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

    def limit_rounds(self, data: Sr3Tables) -> None:
        """Rounds within what the mode fires; only full auto lets the GM choose."""
        rule = data.firing_modes[self.firing_mode()]
        self.rounds.setRange(rule.min_rounds, rule.max_rounds)
        self.rounds.setEnabled(rule.max_rounds > rule.min_rounds)


class SituationBox(QGroupBox):
    """Every situational modifier of the ranged-combat table."""

    def __init__(self, data: Sr3Tables) -> None:
        super().__init__(_("Situation"))
        rows = sorted((label_for(VISIBILITY_LABELS, key), key) for key in data.visibility)
        self.visibility = Choice([(_("Clear visibility"), None), *rows])
        self.vision = Choice((_(label), vision) for vision, label in VISION_LABELS.items())
        self.attacker_movement = Choice((_(label), key) for key, label in ATTACKER_MOVEMENT_LABELS.items())
        self.difficult = QCheckBox(_("Difficult terrain"))
        self.target_movement = Choice((_(label), key) for key, label in TARGET_MOVEMENT_LABELS.items())
        self.cover = QCheckBox(_(MODIFIER_LABELS["partial_cover"]))
        self.blind = QCheckBox(_(MODIFIER_LABELS["blind_fire"]))
        self.melee = _spin(0, 20, special=_("none"))
        self.target_index = _spin(1, 20)
        self.target_index.setToolTip(_("1 for the first target of the phase, 2 for the second, …"))
        self.smartlink = QCheckBox(_(MODIFIER_LABELS["smartlink"]))
        self.goggles = QCheckBox(_(MODIFIER_LABELS["smartgoggles"]))
        self.laser = QCheckBox(_(MODIFIER_LABELS["laser_sight"]))
        self.aim = _spin(0, 0)
        self.aim.setToolTip(_("At most half the attack skill counts."))
        self.called = QCheckBox(_(MODIFIER_LABELS["called_shot"]))
        self.called_effect = Choice((_(label), key) for key, label in CALLED_SHOT_LABELS.items())
        self.spot_armor = _spin(0, 30)
        self.spot_armor.setToolTip(_("Armor of the spot hit, or the rating of the vehicle part."))
        self.second = QCheckBox(_(MODIFIER_LABELS["second_firearm"]))
        self.other_recoil = _spin(0, 30)
        self.wounds = _spin(0, 12)
        self.magnification = _spin(0, 3)
        self.gm = _spin(-20, 20)
        self._build_layout()

    def _build_layout(self) -> None:
        form = QFormLayout(self)
        form.addRow(_("Visibility"), self.visibility)
        form.addRow(_("Vision"), self.vision)
        form.addRow(_("Attacker"), self.attacker_movement)
        form.addRow("", self.difficult)
        form.addRow(_("Target"), self.target_movement)
        form.addRow(self._grid((self.cover, self.blind), (self.smartlink, self.goggles), (self.laser, self.second)))
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
                self.wounds, self.magnification, self.gm]

    def sync(self) -> None:
        """Enable only the details that matter for what is ticked."""
        self.vision.setEnabled(self.visibility.value() is not None and not self.blind.isChecked())
        self.difficult.setEnabled(self.attacker_movement.value() is not AttackerMovement.STILL)
        self.called_effect.setEnabled(self.called.isChecked())
        self.spot_armor.setEnabled(self.called.isChecked()
                                   and self.called_effect.value() is not CalledShotEffect.EXTRA_LEVEL)
        self.other_recoil.setEnabled(self.second.isChecked())

    @staticmethod
    def _numbers(*fields: tuple[str, QWidget]) -> QWidget:
        """Label + field pairs, two pairs per row."""
        holder = QWidget()
        grid = QGridLayout(holder)
        grid.setContentsMargins(0, 0, 0, 0)
        for index, (label, field) in enumerate(fields):
            row, column = divmod(index, 2)
            grid.addWidget(QLabel(label), row, column * 2)
            grid.addWidget(field, row, column * 2 + 1)
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
        self.ballistic = _spin(0, 30)
        self.impact = _spin(0, 30)
        self.wounds = _spin(0, 12)
        self.spread = _spin(0, 10)
        self.cramped = _spin(0, 4)
        self.area = QCheckBox(_(MODIFIER_LABELS["area_weapon"]))
        grid = QGridLayout(self)
        pairs = ((_("Ballistic armor"), self.ballistic), (_("Impact armor"), self.impact),
                 (_("Wound modifier"), self.wounds), (_(MODIFIER_LABELS["shotgun_spread"]), self.spread),
                 (_(MODIFIER_LABELS["cramped"]), self.cramped))
        for index, (text, widget) in enumerate(pairs):
            grid.addWidget(QLabel(text), index // 2, 2 * (index % 2))
            grid.addWidget(widget, index // 2, 2 * (index % 2) + 1)
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
        self.skill = _spin(0, 40)
        self.attack_pool = _spin(0, 0)
        self.dodge = _spin(0, 0)
        self.body = _spin(0, 40)
        self.resist_pool = _spin(0, 0)
        self.attacker_pool_note = QLabel()
        self.target_pool_note = QLabel()
        self.target_pool_note.setWordWrap(True)
        self.odds = OddsTable()
        self.attack_entry = DiceEntry(_("Attack"), roller)
        self.dodge_entry = DiceEntry(_("Dodge"), roller)
        self.resist_entry = DiceEntry(_("Resistance"), roller)
        self.misfire_entry = DiceEntry(_("Misfire staging"), roller)
        self.misfire_entry.setVisible(False)
        self.roll_all = QPushButton(_("Roll the rest"))
        self.roll_all.setAutoDefault(False)
        self.roll_all.setToolTip(_("Roll every test still missing, in order: attack, dodge, resistance."))
        self._build_layout()

    def entries(self) -> tuple[DiceEntry, ...]:
        """The dice entries in the order the tests are made."""
        return (self.attack_entry, self.dodge_entry, self.resist_entry, self.misfire_entry)

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
        for entry in self.entries():
            layout.addWidget(entry)
        layout.addWidget(self.roll_all, 0, Qt.AlignmentFlag.AlignRight)


# --- the dialog ----------------------------------------------------------------------------------------------


@register_attack_dialog("sr3")
class Sr3AttackDialog(QDialog):
    """Resolve one SR3 ranged attack (or several in a row) with the odds shown before the dice."""

    system_id: ClassVar[str] = "sr3"

    def __init__(self, document: EncounterDocument, roller: Roller, attacker_id: str | None = None,
                 target_id: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Attack"))
        self._document = document
        self._quiet = 0
        self._applying = False
        self._resolved = False
        self._sheet: ShotSheet | None = None
        self._problem = ""
        self._changed_ids: set[str] = set()
        self._clock_slot = document.state.clock.current
        self._tables = self._load_tables()
        self.attacker = QComboBox()
        self.target = QComboBox()
        self.weapon = WeaponBox(self._tables)
        self.situation = SituationBox(self._tables)
        self.defence = DefenceBox()
        self.dice = DiceBox(roller)
        self.chart = OddsChart(export_name=_("attack-odds"), compact=True)
        self.sheet_tabs = QTabWidget()
        self.tn_label = QLabel()
        self.tn_lines = QLabel()
        self.damage_label = QLabel()
        self.result_label = QLabel()
        self.status_label = QLabel()
        self.buttons = QDialogButtonBox()
        self.resolve_button = self.buttons.addButton(_("Resolve"), QDialogButtonBox.ButtonRole.ActionRole)
        self.next_button = self.buttons.addButton(_("Next shot"), QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self._build_layout()
        self._connect()
        with self._quietly():
            self._fill_attackers(attacker_id or self._current_actor())
            self._fill_targets(target_id)
            self.weapon.limit_rounds(self._tables)
            self._prefill(self._attacker(), self._target())
        self._set_resolved(False)
        self._refresh()

    @property
    def sheet(self) -> ShotSheet | None:
        """What the rules make of the form now (None while something must be fixed)."""
        return self._sheet

    def problem(self) -> str:
        """What stops Resolve now ("" when the attack can be resolved)."""
        return self._resolve_problem()[0]

    # --- construction ---------------------------------------------------------------------------
    def _load_tables(self) -> Sr3Tables:
        try:
            return tables(self._document.state)
        except RulesError:  # a bad override must not lock the GM out: the bundled tables still work
            return tables(replace(self._document.state, options={}))

    def _build_layout(self) -> None:
        who = QFormLayout()
        who.addRow(_("Attacker"), self.attacker)
        who.addRow(_("Target"), self.target)
        content = QWidget()
        columns = QHBoxLayout(content)
        columns.setContentsMargins(0, 0, 0, 0)
        tn_page, damage_box, result_box = self._sheet_boxes()
        # The chart and the target number's lines share one place: a laptop screen has room for one of them
        # under the modifiers (the TN itself stays in sight, on its tab and in the dice's headings).
        self.sheet_tabs.addTab(self.chart, _("Odds chart"))
        self.sheet_tabs.addTab(tn_page, _("Target number"))
        # Three columns so the whole dialog, odds included, fits a 1280-pixel laptop window.
        for column in (_column(who, self.weapon, self.defence, damage_box), _column(self.situation, self.sheet_tabs),
                       _column(self.dice, result_box)):
            columns.addLayout(column)  # natural widths: equal stretch would widen every column to the widest
        # One scroll area for small screens; on a 1366×768 laptop everything fits without scrolling.
        scroll = QScrollArea()
        scroll.setWidget(content)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        layout = QVBoxLayout(self)
        # The scroll area already copes with any size, so no minimum is forced on the window manager
        # (which also keeps Qt's offscreen test platform from warning that it cannot pass size hints on).
        layout.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.status_label)
        layout.addWidget(self.buttons)
        self._content = content
        self._fitted = False

    def _sheet_boxes(self) -> tuple[QWidget, QGroupBox, QGroupBox]:
        big = QFont(self.tn_label.font())
        big.setPointSizeF(big.pointSizeF() * 1.6)
        big.setBold(True)
        self.tn_label.setFont(big)
        tn_box = QWidget()
        # Wrapped labels would let this column collapse; keep room for a modifier and its value per line.
        tn_box.setMinimumWidth(self.fontMetrics().averageCharWidth() * 38)
        tn_layout = QVBoxLayout(tn_box)
        tn_layout.addWidget(self.tn_label)
        tn_layout.addWidget(self.tn_lines)
        tn_layout.addStretch(1)
        damage_box = QGroupBox(_("Damage"))
        QVBoxLayout(damage_box).addWidget(self.damage_label)
        result_box = QGroupBox(_("Result"))
        QVBoxLayout(result_box).addWidget(self.result_label)
        for label in (self.tn_lines, self.damage_label, self.result_label, self.status_label):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Log lines and notes carry names the GM typed: never let them be read as markup.
        for label in (self.result_label, self.status_label, self.dice.target_pool_note):
            label.setTextFormat(Qt.TextFormat.PlainText)
        for label in (self.tn_lines, self.damage_label):
            label.setTextFormat(Qt.TextFormat.RichText)
        return tn_box, damage_box, result_box

    def showEvent(self, event: QShowEvent) -> None:
        """Size the dialog to its content once Qt has laid it out (earlier, size hints are too small)."""
        super().showEvent(event)
        if not self._fitted:
            self._fitted = True
            if not self.testAttribute(Qt.WidgetAttribute.WA_Resized):  # the caller chose no size itself
                self._fit_screen(self._content.sizeHint())

    def _fit_screen(self, content: QSize) -> None:
        fit_to_screen(self, content, 110)

    def _connect(self) -> None:
        for widget in self._inputs():
            if isinstance(widget, QSpinBox):
                widget.valueChanged.connect(self._on_edited)
            elif isinstance(widget, QCheckBox):
                widget.toggled.connect(self._on_edited)
            elif isinstance(widget, QComboBox):
                widget.currentIndexChanged.connect(self._on_edited)
            elif isinstance(widget, QLineEdit):
                widget.textChanged.connect(self._on_edited)
        self.weapon.mode.currentIndexChanged.connect(self._on_class_or_mode)
        self.weapon.weapon_class.currentIndexChanged.connect(self._on_class_or_mode)
        self.attacker.currentIndexChanged.connect(self._on_attacker)
        self.target.currentIndexChanged.connect(self._on_target)
        for entry in self.dice.entries():
            entry.changed.connect(self._update_dice)
        self.dice.roll_all.clicked.connect(self.roll_remaining)
        self.resolve_button.clicked.connect(self.resolve)
        self.next_button.clicked.connect(self.next_shot)
        self.close_button.clicked.connect(self.reject)
        self._document.changed.connect(self._on_document_changed)
        self._document.replaced.connect(self.reject)  # another fight was loaded: this attack is moot

    def _inputs(self) -> list[QWidget]:
        dice = self.dice
        return [*self.weapon.inputs(), *self.situation.inputs(), *self.defence.inputs(),
                dice.skill, dice.attack_pool, dice.dodge, dice.body, dice.resist_pool]

    # --- combatants -----------------------------------------------------------------------------
    def _current_actor(self) -> str | None:
        slot = self._document.state.clock.current
        if slot is None or slot.kind is SlotKind.TIMER or not slot.ids:
            return None
        return slot.ids[0]

    def _fill_attackers(self, wanted: str | None) -> None:
        state, system = self._document.state, self._document.system
        able = [c for c in state.combatants.values() if system.can_act(c, state) or c.id == wanted]
        self._fill(self.attacker, able, wanted)

    def _fill_targets(self, wanted: str | None) -> None:
        state, system = self._document.state, self._document.system
        attacker = self._attacker()
        present = [c for c in state.combatants.values()
                   if (attacker is None or c.id != attacker.id)
                   and (system.status(c, state) is not Status.DEAD or c.id == wanted)]
        if wanted not in {c.id for c in present} and attacker is not None:
            wanted = self._default_target(present, attacker, state)
        self._fill(self.target, present, wanted)

    @staticmethod
    def _default_target(present: list[Combatant], attacker: Combatant, state: Encounter) -> str | None:
        foes = [c for c in present if c.side is not attacker.side and may_act_against(state, attacker.id, c.id)]
        chosen = foes or present
        return chosen[0].id if chosen else None

    @staticmethod
    def _fill(combo: QComboBox, combatants: list[Combatant], wanted: str | None) -> None:
        combo.clear()
        for combatant in combatants:
            combo.addItem(combatant.name, combatant.id)
        index = combo.findData(wanted)
        combo.setCurrentIndex(index if index >= 0 else (0 if combatants else -1))

    def _attacker(self) -> Combatant | None:
        return self._document.state.combatants.get(self.attacker.currentData())

    def _target(self) -> Combatant | None:
        return self._document.state.combatants.get(self.target.currentData())

    def _prefill(self, attacker: Combatant | None, target: Combatant | None) -> None:
        """Numbers read from the combatants: wound modifiers, armor, Body (the GM may change them)."""
        if attacker is not None:
            self.situation.wounds.setValue(_wounds(attacker))
        if target is not None:
            self.defence.ballistic.setValue(target.attribute("ballistic"))
            self.defence.impact.setValue(target.attribute("impact"))
            self.defence.wounds.setValue(_wounds(target))
            self.dice.body.setValue(target.attribute("body"))

    # --- reacting to the GM ---------------------------------------------------------------------
    @contextmanager
    def _quietly(self) -> Iterator[None]:
        """Change several inputs with one recomputation at the end (the caller refreshes)."""
        self._quiet += 1
        try:
            yield
        finally:
            self._quiet -= 1

    def _on_edited(self) -> None:
        if not self._quiet:
            self._refresh()

    def _on_class_or_mode(self) -> None:
        if self._quiet:
            return
        with self._quietly():
            self.weapon.limit_rounds(self._tables)
            probe = RangedAttack(weapon_class=self.weapon.weapon_class.value(), mode=self.weapon.firing_mode())
            self.weapon.heavy.setChecked(is_heavy(probe, self._tables))
        self._refresh()

    def _on_attacker(self) -> None:
        if self._quiet:
            return
        with self._quietly():
            self._fill_targets(self.target.currentData())
            self.weapon.fired.setValue(0)  # another shooter: nothing fired yet
            self._prefill(self._attacker(), self._target())
        self._refresh()

    def _on_target(self) -> None:
        if self._quiet:
            return
        with self._quietly():
            self._prefill(None, self._target())
        self._refresh()

    def _on_document_changed(self, change: Change) -> None:
        self._changed_ids |= change.combatants
        if self._applying:
            return  # our own attack: the result stays on screen until the next shot
        if "tables" in change.delta.changed_items("options"):
            self._tables = self._load_tables()  # the GM edited a table: new numbers from now on
        # Someone else changed the fight (undo, next turn…): a shown result may no longer stand.
        self._start_next_shot(count_rounds=False, roster=change.roster_changed)

    def _catch_up(self, roster: bool) -> None:
        """Bring the form up to date with the fight after changes made since it was last filled."""
        state = self._document.state
        if roster:
            self._fill_attackers(self.attacker.currentData())
            self._fill_targets(self.target.currentData())
        if state.clock.current != self._clock_slot:
            self.weapon.fired.setValue(0)  # a new phase: nothing fired yet
            self._clock_slot = state.clock.current
        attacker, target = self._attacker(), self._target()
        changed = self._changed_ids if not roster else {c.id for c in (attacker, target) if c is not None}
        self._prefill(attacker if attacker and attacker.id in changed else None,
                      target if target and target.id in changed else None)
        self._changed_ids.clear()

    # --- the live sheet -------------------------------------------------------------------------
    def _refresh(self) -> None:
        """Limits first (they may clamp values), then one recomputation of TN, damage and odds."""
        with self._quietly():
            self._apply_limits()
        self._recompute()

    def _apply_limits(self) -> None:
        attacker, target, dice = self._attacker(), self._target(), self.dice
        dice.attack_pool.setMaximum(_pool_left(attacker) if attacker else 0)
        self.situation.aim.setMaximum(dice.skill.value() // 2)
        self.weapon.limit_rounds(self._tables)
        left = _pool_left(target) if target else 0
        barred = self._pool_barred()
        dice.dodge.setMaximum(0 if barred else left)
        dice.resist_pool.setMaximum(0 if barred else max(0, left - dice.dodge.value()))
        self.situation.sync()
        self._update_enabled()
        dice.attacker_pool_note.setText(_("{left} left").format(left=_pool_left(attacker)) if attacker else "")
        dice.target_pool_note.setText(barred or (_("Target's combat pool: {left} left").format(left=left)
                                                 if target else ""))

    def _pool_barred(self) -> str:
        """Why the target may not use combat pool against the attacker ("" when it may)."""
        attacker, target = self._attacker(), self._target()
        if attacker is None or target is None or may_act_against(self._document.state, target.id, attacker.id):
            return ""
        return _("{target} is surprised by {attacker}: no combat pool against them.").format(
            target=target.name, attacker=attacker.name)

    def _inputs_now(self) -> ShotInputs | None:
        attacker, target = self._attacker(), self._target()
        if attacker is None or target is None:
            return None
        weapon, dice = self.weapon, self.dice
        return ShotInputs(
            code_text=weapon.code.text(), strength=attacker.attribute("strength"),
            kind=weapon.kind.value(), ammo=weapon.ammo.value(), attack=self._ranged_attack(),
            defence=self.defence.values(), called_effect=self.situation.called_effect.value(),
            spot_armor=self.situation.spot_armor.value(),
            attack_dice=dice.skill.value() + dice.attack_pool.value(), dodge_dice=dice.dodge.value(),
            resist_dice=dice.body.value() + dice.resist_pool.value(),
            shooter_armor=(attacker.attribute("ballistic"), attacker.attribute("impact")))

    def _ranged_attack(self) -> RangedAttack:
        weapon, place = self.weapon, self.situation
        distance = weapon.distance.value()
        return RangedAttack(
            range_category=weapon.range.value(), distance=distance or None,
            weapon_class=weapon.weapon_class.value(), strength=self._strength(),
            magnification=place.magnification.value(), visibility=place.visibility.value(),
            vision=place.vision.value(), attacker_movement=place.attacker_movement.value(),
            difficult_terrain=place.difficult.isChecked(), target_movement=place.target_movement.value(),
            partial_cover=place.cover.isChecked(), blind_fire=place.blind.isChecked(),
            melee_opponents=place.melee.value(), target_index=place.target_index.value(),
            smartgun=weapon.smartgun.isChecked(), smartlink=place.smartlink.isChecked(),
            smartgoggles=place.goggles.isChecked(), laser_sight=place.laser.isChecked(),
            aim_actions=place.aim.value(), skill=self.dice.skill.value(), called_shot=place.called.isChecked(),
            second_firearm=place.second.isChecked(), other_firearm_recoil=place.other_recoil.value(),
            wound_modifier=place.wounds.value(), mode=weapon.firing_mode(), rounds=weapon.rounds.value(),
            rounds_fired_before=weapon.fired.value(), recoil_compensation=weapon.compensation.value(),
            gyro=weapon.gyro.value(), heavy_weapon=weapon.heavy.isChecked(), gm_modifier=place.gm.value())

    def _strength(self) -> int | None:
        attacker = self._attacker()
        return attacker.attribute("strength") if attacker is not None else None

    def _recompute(self) -> None:
        inputs = self._inputs_now()
        self._sheet, self._problem = None, ""
        if inputs is None:
            self._problem = _("Choose an attacker and a target.")
        else:
            try:
                self._sheet = work_out(inputs, self._tables)
            except RulesError as problem:
                self._problem = str(problem)
        self._show_sheet(inputs)
        self._update_dice()

    def _show_sheet(self, inputs: ShotInputs | None) -> None:
        code_problem = self._code_problem()
        show_message(self.weapon.code_error, code_problem)
        self.weapon.code_error.setVisible(bool(code_problem))
        sheet = self._sheet
        if sheet is None or inputs is None:
            self.tn_label.setText(_("TN –"))
            self.sheet_tabs.setTabText(1, _("Target number"))
            self.tn_lines.setText("")
            self.damage_label.setText("")
            self.dice.odds.set_unknown([_(OUTCOME_LABELS[key]) for key in OUTCOMES])
            self.chart.set_unknown([tick_text(key) for key in ORDER])
            return
        self.tn_label.setText(_("TN {tn}").format(tn=sheet.attack_tn.value))
        self.sheet_tabs.setTabText(1, _("Target number: {tn}").format(tn=sheet.attack_tn.value))
        self.tn_lines.setText(_lines_html(sheet.attack_tn))
        self.damage_label.setText(self._damage_html(sheet, inputs))
        self.dice.odds.set_outcomes([(_(OUTCOME_LABELS[key]), sheet.odds[key]) for key in OUTCOMES])
        question = AttackQuestion(inputs.attack_dice, sheet.attack_tn.value, inputs.dodge_dice, sheet.dodge_tn.value,
                                  inputs.resist_dice, sheet.resist_tn, sheet.level)
        self.chart.set_data(attack_chart(question, sheet.odds))

    def _code_problem(self) -> str:
        try:
            parse_damage_code(self.weapon.code.text())
        except RulesError as problem:
            return str(problem)
        return ""

    def _damage_html(self, sheet: ShotSheet, inputs: ShotInputs) -> str:
        mode = inputs.attack.mode
        codes = [describe_damage_code(sheet.base)]
        if sheet.mode_code != (sheet.base.power, sheet.base.level):
            codes.append(_("{code} ({mode}, {rounds})").format(
                code=_code_text(*sheet.mode_code), mode=mode.value,
                rounds=ngettext("{count} round", "{count} rounds", inputs.attack.rounds or 1).format(
                    count=inputs.attack.rounds or 1)))
        if (sheet.power, sheet.level) != sheet.mode_code:
            codes.append(_("{code} (ammunition, called shot)").format(code=_code_text(sheet.power, sheet.level)))
        base, *extra = sheet.dodge_tn.lines
        dodge = _("Dodge TN {tn}").format(tn=sheet.dodge_tn.value)
        if extra:
            parts = [str(base.value), *(f"{html.escape(line.label)} {_signed(line.value)}" for line in extra)]
            dodge = _("Dodge TN {tn}: {parts}").format(tn=sheet.dodge_tn.value, parts=", ".join(parts))
        lines = [
            "<b>{}</b>".format(" → ".join(codes)),
            _("Resistance TN {tn}: Power {power} − armor {armor}").format(
                tn=sheet.resist_tn, power=sheet.power, armor=sheet.armor),
            dodge,
        ]
        if sheet.track == STUN:
            lines.append(_("Stun damage: it goes on the stun track."))
        return "<br>".join(lines)

    # --- dice -----------------------------------------------------------------------------------
    def _misfired(self) -> bool:
        result = self.dice.attack_entry.result()
        return result is not None and result.rule_of_one and self.weapon.ammo.value() in MISFIRE_AMMO

    def _update_dice(self) -> None:
        """Give each dice entry the test it needs now; the attack's result decides what follows."""
        if self._quiet:
            return
        with self._quietly():
            self._set_expressions()
        self._update_resolve()

    def _set_expressions(self) -> None:
        sheet, dice = self._sheet, self.dice
        if sheet is None:
            for entry in dice.entries():
                entry.set_expression(None, _("Fix the attack first."))
            return
        attack_dice = dice.skill.value() + dice.attack_pool.value()
        dice.attack_entry.set_expression(_test(attack_dice, sheet.attack_tn.value), _("Enter the skill dice."))
        hits = _hits(dice.attack_entry, no_dice=None)  # no attack dice yet: the rest still to come
        misfired = self._misfired()
        dice.misfire_entry.setVisible(misfired)
        dice.misfire_entry.set_expression(parse("1d6") if misfired else None)
        if misfired:
            dice.dodge_entry.set_expression(None, _("Not needed: the round detonated in the weapon."))
            shooter = self._attacker()
            body = shooter.attribute("body") if shooter else 0
            dice.resist_entry.title_label.setText(_("Shooter's resistance"))
            dice.resist_entry.set_expression(_test(body, sheet.misfire_resist_tn), _("No Body dice."))
            return
        dice.resist_entry.title_label.setText(_("Resistance"))
        missed = _("Not needed: the attack missed.")
        dodge = _test(dice.dodge.value(), sheet.dodge_tn.value) if hits != 0 else None
        dice.dodge_entry.set_expression(dodge, missed if hits == 0 else _("No dodge."))
        dodged = hits is not None and _hits(dice.dodge_entry) is not None and (_hits(dice.dodge_entry) or 0) > hits
        needed = hits != 0 and not dodged
        resist = _test(dice.body.value() + dice.resist_pool.value(), sheet.resist_tn) if needed else None
        reason = missed if hits == 0 else (_("Not needed: the attack was dodged.") if dodged else _("No dice."))
        dice.resist_entry.set_expression(resist, reason)

    def _update_resolve(self) -> None:
        problem, is_error = self._resolve_problem()
        self.resolve_button.setEnabled(not problem and not self._resolved)
        # Enter resolves while the dice are being entered, and starts the next shot once resolved.
        self.resolve_button.setDefault(not self._resolved)
        self.next_button.setDefault(self._resolved)
        if self._resolved:
            self._show_status(_("Enter sets up the next shot; Esc closes."), is_error=False)
        else:
            self._show_status(problem, is_error)

    def _show_status(self, message: str, is_error: bool) -> None:
        show_message(self.status_label, message, error=is_error)

    def _resolve_problem(self) -> tuple[str, bool]:
        """What stops Resolve now, and whether it is an error (or only the dice still to come)."""
        attacker, target = self._attacker(), self._target()
        if self._sheet is None or attacker is None or target is None:
            return self._problem or _("Choose an attacker and a target."), True
        if not may_act_against(self._document.state, attacker.id, target.id):
            return _("{attacker} is surprised by {target} and cannot act against them yet.").format(
                attacker=attacker.name, target=target.name), True
        if self.dice.attack_entry.expression() is None:
            return _("Enter the attacker's skill dice (and combat pool dice, if any)."), False
        if not all(entry.is_complete() for entry in self.dice.entries()):
            return _("Roll or type the dice, then press Enter to resolve."), False
        return "", False

    def roll_remaining(self) -> None:
        """Roll every test that is still missing, in order (each result decides whether the next is needed)."""
        for entry in self.dice.entries():
            if entry.isEnabled() and entry.expression() is not None and not entry.is_complete():
                entry.roll()

    # --- resolving ------------------------------------------------------------------------------
    def operation(self) -> Sr3Attack | None:
        """The attack as the form stands, or None while something is missing."""
        attacker, target, sheet, dice = self._attacker(), self._target(), self._sheet, self.dice
        if attacker is None or target is None or sheet is None or self._resolve_problem()[0]:
            return None
        attack = Sr3Attack(
            attacker.id, target.id, self.weapon.name.text().strip() or _("a weapon"),
            sheet.power, sheet.level, sheet.attack_tn.value, dice.attack_entry.faces(), sheet.resist_tn,
            dice.resist_entry.faces(), dodge_tn=sheet.dodge_tn.value, dodge_faces=dice.dodge_entry.faces(),
            attack_pool=dice.attack_pool.value(), track=sheet.track, ammo=self.weapon.ammo.value().value,
            resist_pool=dice.resist_pool.value() if dice.resist_entry.expression() is not None else 0)
        if not self._misfired():
            return attack
        # The round detonated: the shooter resists the weapon's standard code, without combat pool.
        misfire = dice.misfire_entry.result()
        return replace(attack, power=sheet.base.power, level=sheet.base.level, resist_tn=sheet.misfire_resist_tn,
                       dodge_faces=(), resist_pool=0, track=PHYSICAL,
                       misfire_roll=misfire.total if misfire is not None else None)

    def resolve(self) -> None:
        """Apply the attack as one operation; a refusal is shown here and nothing changes."""
        attack = self.operation()
        if attack is None:
            return
        misfired = self._misfired()
        self._applying = True
        try:
            change = self._document.apply(attack)
        except RulesError as problem:
            self._show_status(str(problem), is_error=True)
            return
        finally:
            self._applying = False
        self._mark(_(OUTCOME_LABELS[outcome_of(attack, misfired)]))
        self.result_label.setText("\n".join(line.render() for line in change.entry.log))
        self._set_resolved(True)

    def _mark(self, outcome: str | None) -> None:
        """Mark the outcome rolled (None: none) in the odds table and the chart alike."""
        self.dice.odds.highlight(outcome)
        self.chart.highlight(outcome)

    def _set_resolved(self, resolved: bool) -> None:
        """After resolving, the form shows what happened, read-only, until the next shot."""
        self._resolved = resolved
        self._update_enabled()
        self._update_resolve()

    def _update_enabled(self) -> None:
        editable = not self._resolved
        dice = self.dice
        for widget in (self.attacker, self.target, self.weapon, self.situation, self.defence, dice.skill,
                       dice.attack_pool, dice.body, dice.roll_all, *dice.entries()):
            widget.setEnabled(editable)
        pool_allowed = editable and not self._pool_barred()
        dice.dodge.setEnabled(pool_allowed)
        dice.resist_pool.setEnabled(pool_allowed)
        self.next_button.setEnabled(self._resolved)

    def next_shot(self) -> None:
        """Set up the next shot: the rounds just fired add to the recoil, the dice start empty."""
        if self._resolved:
            self._start_next_shot(count_rounds=True, roster=False)

    def _start_next_shot(self, count_rounds: bool, roster: bool) -> None:
        with self._quietly():
            if self._resolved:
                if count_rounds and self.weapon.firing_mode() in RECOILING_MODES:
                    self.weapon.fired.setValue(self.weapon.fired.value() + self.weapon.rounds.value())
                for entry in self.dice.entries():
                    entry.clear()
                self._mark(None)
            self._catch_up(roster)
        self._set_resolved(False)
        self._refresh()




def _test(dice: int, tn: int) -> DiceExpression | None:
    """``dice``d6 against ``tn`` (None for no dice: the test is skipped)."""
    return parse(f"{dice}d6 tn {tn}") if dice > 0 else None


def _hits(entry: DiceEntry, no_dice: int | None = 0) -> int | None:
    """Successes of an entered test: None while its dice are missing, ``no_dice`` when it has none."""
    if entry.expression() is None:
        return no_dice
    result = entry.result()
    return None if result is None else (result.successes or 0)
