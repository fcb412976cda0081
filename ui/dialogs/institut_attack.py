"""Institute attacks: shooting, melee, grenades, explosions and suppression fire, with the odds before the dice.

Four pages share the attacker and target at the top. Each page turns its form into the rules' values
(:class:`~rules.systems.institut.combat.Shot`, pools built by :func:`attack_pool`, :func:`damage_pool`…),
shows how every pool was built and the exact odds (:mod:`rules.systems.institut.odds`) as the GM types, takes
the dice rolled by the app or typed in, and on Resolve applies ONE operation through the document. A refused
operation is shown in the status line; nothing raises.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QShowEvent
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
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.document import Change, EncounterDocument
from app.i18n import N_, _, ngettext
from rules.dice import DiceExpression, Roller, parse
from rules.encounter import Combatant, Encounter, JsonValue, SlotKind, Status
from rules.errors import RulesError
from rules.history import Operation
from rules.systems.base import RuleSystem
from rules.systems.institut import rounds
from rules.systems.institut.combat import (
    DEFENCE_LABELS,
    FIRE_MODE_LABELS,
    WEAPON_KIND_LABELS,
    Defence,
    DodgeTie,
    FireMode,
    Pool,
    Shot,
    attack_pool,
    check_mode,
    damage_pool,
    damage_rolls,
    defence_pool,
    hits,
    pool,
    rounds_fired,
    suppression_difficulty,
    wounds_per_hit,
)
from rules.systems.institut.odds import (
    MISS_LABELS,
    attack_outcome_distribution,
    success_probability,
    throw_distribution,
    wound_class_distribution,
)
from rules.systems.institut.ops import (
    Blast,
    BlastRoll,
    InstitutAttack,
    SuppressionDodge,
    SuppressionFire,
    ThrowGrenade,
    attack_penalties,
    defence_penalties,
    roll_penalties,
)
from rules.systems.institut.pyramid import CLASS_LABELS, CLASSES, Pyramid
from rules.systems.institut.system import pyramid_for, tables
from rules.systems.institut.tables import (
    Burst,
    InstitutTables,
    WeaponKind,
    called_shot_label,
    load_tables,
    parse_burst,
)
from ui.charts.institut_odds import attack_chart, blast_chart, crossing_chart, short_ticks, throw_chart
from ui.charts.odds_chart import OddsChart
from ui.charts.odds_data import OddsData
from ui.dialogs.attack import register_attack_dialog
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.layout import column as _column
from ui.widgets.layout import fit_to_screen
from ui.widgets.layout import row as _row
from ui.widgets.messages import show_message
from ui.widgets.odds_table import OddsTable

T = TypeVar("T")
NO_DICE: Final[str] = N_("No dice: the roll is 0.")
SKILLS: Final[tuple[tuple[str, str], ...]] = (
    ("shooting", N_("Shooting")), ("boxing", N_("Boxing")), ("melee", N_("Melee")), ("fencing", N_("Fencing")),
    ("martial_arts", N_("Martial arts")), ("athletics", N_("Athletics")),
)
BLOCK_SKILLS: Final[tuple[str, ...]] = ("boxing", "melee", "fencing")


# --- small helpers -----------------------------------------------------------------------------------------


class Choice(QComboBox, Generic[T]):
    """A combo box of Python values (Qt would turn enum members into plain strings)."""

    def __init__(self, items: Iterable[tuple[str, T]] = ()) -> None:
        super().__init__()
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(10)
        self._values: list[T] = []
        self.set_items(items)

    def set_items(self, items: Iterable[tuple[str, T]]) -> None:
        """Replace the items, keeping the chosen value when it is still offered."""
        kept = self._values[self.currentIndex()] if 0 <= self.currentIndex() < len(self._values) else None
        self.blockSignals(True)
        self.clear()
        self._values = []
        for text, value in items:
            self.addItem(text)
            self._values.append(value)
        self.blockSignals(False)
        if kept is not None and kept in self._values:
            self.setCurrentIndex(self._values.index(kept))
        elif self._values:
            self.setCurrentIndex(0)

    def value(self) -> T:
        """The chosen value."""
        return self._values[max(0, self.currentIndex())]

    def values(self) -> list[T]:
        """Every value offered."""
        return list(self._values)

    def select(self, value: T) -> None:
        """Choose ``value`` (ignored if it is not offered)."""
        if value in self._values:
            self.setCurrentIndex(self._values.index(value))


def _spin(low: int, high: int, value: int = 0, suffix: str = "") -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setValue(value)
    if suffix:
        box.setSuffix(suffix)
    return box


def _signed(value: int) -> str:
    """+4, −1 (a real minus sign), 0."""
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


def dice_expression(dice: int) -> DiceExpression | None:
    """``dice``d6 summed (None for no dice: the roll is 0)."""
    return parse(f"{dice}d6") if dice > 0 else None


def flat_faces(entry: DiceEntry) -> tuple[int, ...]:
    """The faces of an entered roll, one per die (these dice are never rolled again): () with no dice."""
    return tuple(face for chain in entry.faces() for face in chain)


def _whole(value: JsonValue) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def entry_total(entry: DiceEntry) -> int | None:
    """The total of an entered roll (0 with no dice), None while its faces are missing."""
    if entry.expression() is None:
        return 0
    result = entry.result()
    return None if result is None else result.total


def pool_html(title: str, built: Pool) -> str:
    """A pool's parts and its dice, as a small table."""
    rows = "".join(f"<tr><td>{html.escape(_(line.label))}</td><td align='right'>&nbsp;&nbsp;"
                   f"{_signed(line.dice) if index else line.dice}</td></tr>"
                   for index, line in enumerate(built.lines))
    dice = ngettext("{count} die", "{count} dice", built.dice).format(count=built.dice)
    return f"<b>{html.escape(title)}: {dice}</b><table cellspacing='0'>{rows}</table>"




def _columns(page: QWidget, *columns: QVBoxLayout) -> None:
    """Lay ``columns`` side by side across the page, sharing the width."""
    row = QHBoxLayout(page)
    row.setContentsMargins(0, 0, 0, 0)
    for column in columns:
        row.addLayout(column, 1)


def _label(rich: bool = False) -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _class_rows(classes: dict[str | None, float], count: int = 1) -> list[tuple[str, float]]:
    """Odds rows for a damage roll: no wound, then each class (×n for a burst)."""
    rows = [(_("No wound"), classes[None])]
    for key in CLASSES:
        label = _(CLASS_LABELS[key])
        rows.append((_("{wound} ×{count}").format(wound=label, count=count) if count > 1 else label, classes[key]))
    return rows


@dataclass(frozen=True)
class Context:
    """What every page reads: the fight now, its tables, and the attacker and target chosen."""

    state: Encounter
    system: RuleSystem
    data: InstitutTables
    attacker: Combatant | None
    target: Combatant | None

    def pyramid(self, combatant: Combatant) -> Pyramid:
        """The combatant's pyramid (its own, or the encounter's)."""
        try:
            return pyramid_for(combatant, self.state)
        except RulesError:
            return self.data.pyramid

    def tie(self) -> DodgeTie:
        """The GM's rule for a dodge equal to the attack."""
        return DodgeTie(str(self.system.option(self.state, "dodge_tie")))


def held_items(combatant: Combatant | None) -> list[tuple[str, str]]:
    """Choices for "which declaration is this": a new action, or one of the pending held ones."""
    items = [(_("A declared or new action"), "")]
    if combatant is not None:
        items += [(_("Held: {condition}").format(condition=c), c) for c in rounds.round_actions(combatant).pending]
    return items


# --- a page ------------------------------------------------------------------------------------------------


class Page(QWidget):
    """One kind of resolution. ``changed`` asks the dialog to recompute."""

    changed = Signal()
    uses_attacker = True
    uses_target = True

    def __init__(self, roller: Roller) -> None:
        super().__init__()
        self.roller = roller
        self.odds = OddsTable()
        self.chart = OddsChart(export_name=_("attack-odds"), compact=True)
        self.result = _label()
        self._quiet = 0

    @contextmanager
    def quietly(self) -> Iterator[None]:
        """Change several inputs with one recomputation at the end."""
        self._quiet += 1
        try:
            yield
        finally:
            self._quiet -= 1

    def _emit(self) -> None:
        if not self._quiet:
            self.changed.emit()

    def watch(self, *widgets: QWidget) -> None:
        """Recompute whenever one of these inputs changes."""
        for widget in widgets:
            if isinstance(widget, QSpinBox):
                widget.valueChanged.connect(self._emit)
            elif isinstance(widget, QCheckBox):
                widget.toggled.connect(self._emit)
            elif isinstance(widget, QComboBox):
                widget.currentIndexChanged.connect(self._emit)
            elif isinstance(widget, QLineEdit):
                widget.textChanged.connect(self._emit)
            elif isinstance(widget, DiceEntry):
                widget.changed.connect(self._emit)

    def entries(self) -> list[DiceEntry]:
        """Dice entries in the order the rolls are made."""
        return []

    def boxed_chart(self) -> QGroupBox:
        """The chart in a group box of its own, for the page's layout."""
        box = QGroupBox(_("Odds chart"))
        QVBoxLayout(box).addWidget(self.chart)
        return box

    def show_odds(self, rows: list[tuple[str, float]], chart: OddsData | None) -> None:
        """Show the chances in the odds table and the chart (None: no chart, no rows either)."""
        self.odds.set_outcomes(rows)
        self.chart.set_data(chart)

    def show_unknown(self, labels: list[str]) -> None:
        """Show the outcomes without chances: the form cannot be worked out yet."""
        self.odds.set_unknown(labels)
        self.chart.set_unknown(short_ticks(labels))

    def mark(self, outcome: str | None) -> None:
        """Mark the outcome rolled (None: none) in the odds table and the chart alike."""
        self.odds.highlight(outcome)
        self.chart.highlight(outcome)

    def prefill(self, context: Context) -> None:
        """Fill in numbers read from the combatants (the GM may change them)."""

    def refresh(self, context: Context) -> None:
        """Recompute pools, odds and the dice each entry needs."""

    def problem(self, context: Context) -> tuple[str, bool]:
        """What stops Resolve ("" when nothing) and whether it is an error (or dice still to come)."""
        return "", False

    def operation(self, context: Context) -> Operation | None:
        """The operation the form stands for, or None while something is missing."""
        return None

    def outcome(self, operation: Operation, context: Context) -> str | None:
        """The odds row that happened."""
        return None

    def roll_missing(self) -> None:
        """Roll every needed roll still missing, in order (each may decide whether the next is needed)."""
        for entry in self.entries():
            if not entry.isHidden() and entry.expression() is not None and not entry.is_complete():
                entry.roll()

    def can_roll(self) -> bool:
        """Whether a needed roll is still missing (Roll the rest has something to do)."""
        return any(not entry.isHidden() and entry.expression() is not None and not entry.is_complete()
                   for entry in self.entries())

    def clear_dice(self) -> None:
        """Empty every dice field (after a resolution: the next one needs new dice)."""
        with self.quietly():
            for entry in self.entries():
                entry.clear()

    def dice_problem(self) -> tuple[str, bool]:
        """A typing error in a dice field, or the dice still to come."""
        for entry in self.entries():
            if not entry.isHidden() and entry.error_text():
                return entry.error_text(), True
        if not all(entry.is_complete() for entry in self.entries() if not entry.isHidden()):
            return _("Roll or type the dice, then press Resolve."), False
        return "", False


# --- shooting and melee ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackSheet:
    """What the rules make of the attack form."""

    shot: Shot
    attack: Pool
    defence: Defence
    defence_pool: Pool | None
    difficulty: int
    damage: Pool | None
    wounds: int
    rolls: int
    rounds: int


class AttackPage(Page):
    """Shooting (single, burst, full auto, two guns) and melee, against a dodge, a block or a difficulty."""

    def __init__(self, roller: Roller, data: InstitutTables) -> None:
        super().__init__(roller)
        self._sheet: AttackSheet | None = None
        self._problem = ""
        self._prefill_skill = False  # the skill chosen changed: read its dice from the attacker
        self._defence_shown: Defence | None = None
        self.preset = Choice[str | None]()
        self.name = QLineEdit(placeholderText=_("e.g. AK-74"))
        self.kind = Choice((_(label), kind) for kind, label in WEAPON_KIND_LABELS.items())
        self.skill_name = Choice((_(label), key) for key, label in SKILLS)
        self.skill = _spin(0, 40)
        self.damage = _spin(-40, 40)
        self.damage_label = QLabel()
        self.mode = Choice((_(label), mode) for mode, label in FIRE_MODE_LABELS.items())
        self.burst = QLineEdit()
        self.burst.setPlaceholderText(_("e.g. 3/2"))
        self.burst.setToolTip(_("The weapon's burst: rounds fired / rounds that hit."))
        self.identical = QCheckBox(_("Identical guns (otherwise one bullet misses)"))
        self.identical.setChecked(True)
        self.point_blank = QCheckBox()
        self.called = Choice[str | None]()
        self.ambush = QCheckBox()
        self.visibility = _spin(-20, 20)
        self.visibility.setToolTip(_("Not seeing the target well, or its natural cover: fewer dice to hit."))
        self.attacker_held = Choice[str]()
        self.defence = Choice((_(label), kind) for kind, label in DEFENCE_LABELS.items())
        self.defence.setToolTip(_("A block uses Boxing, Melee or Fencing and must beat the attack; Melee and "
                                  "Fencing need something in hand, and a shot can be blocked only with a "
                                  "suitable object already in hand."))
        self.unseen = QCheckBox(_("The target cannot see the attacker (no dodge)"))
        self.defence_skill = _spin(0, 40)
        self.difficulty = _spin(0, 200)
        self.difficulty.setToolTip(_("For an immobile or unaware target: set by its size."))
        self.target_held = Choice[str]()
        self.armor = _spin(0, 40)
        self.armor.setToolTip(_("Not counted for a called shot at a part the armor does not cover (see the "
                                "called-shot table); put a helmet's dice under Cover then."))
        self.cover = _spin(0, 40)
        self.cover.setToolTip(_("A car door, a tree, a comrade's back: damage dice off."))
        self.sheet_label = _label(rich=True)
        self.attack_entry = DiceEntry(_("Attack"), roller)
        self.defence_entry = DiceEntry(_("Defence"), roller)
        self.damage_entries = (DiceEntry(_("Damage"), roller), DiceEntry(_("Second gun's damage"), roller))
        self.set_tables(data)
        self._build_layout()
        self.watch(self.name, self.kind, self.skill, self.damage, self.mode, self.burst, self.identical,
                   self.point_blank, self.called, self.ambush, self.visibility, self.attacker_held, self.defence,
                   self.unseen, self.defence_skill, self.difficulty, self.target_held, self.armor, self.cover,
                   *self.entries())
        self.kind.currentIndexChanged.connect(self._on_kind)
        self.skill_name.currentIndexChanged.connect(self._on_skill_name)
        self.preset.currentIndexChanged.connect(self._on_preset)

    def set_tables(self, data: InstitutTables) -> None:
        """Offer the GM's weapons and called-shot parts."""
        self._data = data
        self.preset.set_items([(_("Type the weapon in"), None), *((key, key) for key in sorted(data.weapons))])
        parts = [(_("Not called"), None), *((called_shot_label(key), key) for key in sorted(data.called_shots))]
        self.called.set_items(parts)
        modifiers = data.modifiers
        self.point_blank.setText(_("Point blank (+{count} damage dice)").format(count=modifiers.point_blank_damage))
        self.ambush.setText(_("Ambush, first round (+{count} dice to hit)").format(count=modifiers.ambush_hit))

    def _build_layout(self) -> None:
        weapon = QGroupBox(_("Weapon"))
        form = QFormLayout(weapon)
        form.addRow(_("From the list"), self.preset)
        form.addRow(_("Name"), self.name)
        form.addRow(_("Kind"), self.kind)
        form.addRow(_("Skill"), _row(self.skill_name, self.skill))
        form.addRow(self.damage_label, self.damage)
        form.addRow(_("Firing"), self.mode)
        form.addRow(_("Burst"), self.burst)
        form.addRow(self.identical)
        form.addRow(self.point_blank)
        form.addRow(_("Called shot"), self.called)
        situation = QGroupBox(_("Attacker"))
        form = QFormLayout(situation)
        form.addRow(self.ambush)
        form.addRow(_("Sight, natural cover"), self.visibility)
        form.addRow(_("This action"), self.attacker_held)
        defence = QGroupBox(_("Defence"))
        form = QFormLayout(defence)
        form.addRow(_("Against"), self.defence)
        form.addRow(self.unseen)
        form.addRow(_("Dodge or block dice"), self.defence_skill)
        form.addRow(_("Difficulty"), self.difficulty)
        form.addRow(_("Target's action"), self.target_held)
        form.addRow(_("Body armor (dice)"), self.armor)
        form.addRow(_("Cover (dice)"), self.cover)
        sheet = QWidget()
        QVBoxLayout(sheet).addWidget(self.sheet_label)
        sheet.setMinimumWidth(self.fontMetrics().averageCharWidth() * 34)
        # The chart and the pools' making share one place, so that the page fits a laptop screen (the dice
        # each test rolls stay in sight in the dice entries' headings).
        self.sheet_tabs = QTabWidget()
        self.sheet_tabs.addTab(self.chart, _("Odds chart"))
        self.sheet_tabs.addTab(sheet, _("Dice pools"))
        dice = QGroupBox(_("Odds and dice"))
        layout = QVBoxLayout(dice)
        layout.addWidget(self.odds)
        for entry in self.entries():
            layout.addWidget(entry)
        result = QGroupBox(_("Result"))
        QVBoxLayout(result).addWidget(self.result)
        _columns(self, _column(weapon, situation), _column(defence, self.sheet_tabs), _column(dice, result))

    def entries(self) -> list[DiceEntry]:
        return [self.attack_entry, self.defence_entry, *self.damage_entries]

    # --- reacting --------------------------------------------------------------------------------
    def _on_kind(self) -> None:
        kind = self.kind.value()
        with self.quietly():
            self.skill_name.select({WeaponKind.FIREARM: "shooting", WeaponKind.MELEE: "melee",
                                    WeaponKind.UNARMED: "boxing"}[kind])
        self.sync()
        self._emit()

    def _on_skill_name(self) -> None:
        self._prefill_skill = True
        self._emit()

    def _on_preset(self) -> None:
        key = self.preset.value()
        weapon = self._data.weapons.get(key) if key else None
        if weapon is None:
            return
        with self.quietly():
            self.name.setText(weapon.key)
            self.kind.select(weapon.kind)
            self.skill_name.select("shooting" if weapon.kind is WeaponKind.FIREARM else "melee")
            self.damage.setValue(weapon.damage)
            self.burst.setText(weapon.burst.text() if weapon.burst else "")
            self.mode.select(FireMode.SINGLE)
        self._prefill_skill = True
        self.sync()
        self._emit()

    def sync(self) -> None:
        """Show only what matters for the weapon and the defence chosen."""
        firearm = self.kind.value() is WeaponKind.FIREARM
        mode = self.mode.value()
        self.damage_label.setText({WeaponKind.FIREARM: _("Damage dice"), WeaponKind.MELEE: _("Weapon (+ Strength)"),
                                   WeaponKind.UNARMED: _("Damage")}[self.kind.value()])
        self.damage.setEnabled(self.kind.value() is not WeaponKind.UNARMED)
        for widget in (self.mode, self.point_blank):
            widget.setEnabled(firearm)
        self.burst.setEnabled(firearm and mode in (FireMode.BURST, FireMode.AUTO))
        self.identical.setEnabled(firearm and mode is FireMode.TWO_GUNS)
        defence = self.defence.value()
        self.defence_skill.setEnabled(defence is not Defence.DIFFICULTY)
        self.target_held.setEnabled(defence is not Defence.DIFFICULTY)
        self.difficulty.setEnabled(defence is Defence.DIFFICULTY)
        self.unseen.setEnabled(defence is Defence.DODGE)
        self.damage_entries[1].setVisible(self._sheet is not None and self._sheet.rolls > 1)

    def prefill(self, context: Context) -> None:
        attacker, target = context.attacker, context.target
        with self.quietly():
            if attacker is not None:
                self.skill.setValue(attacker.attribute(self.skill_name.value()))
                self.ambush.setChecked(rounds.flag(attacker, rounds.AMBUSH) and context.state.clock.round <= 1)
            if target is not None:
                self.armor.setValue(target.attribute("armor"))
                self._prefill_defence(target)
        self._prefill_skill = False

    def _prefill_defence(self, target: Combatant) -> None:
        if self.defence.value() is Defence.BLOCK:
            self.defence_skill.setValue(max(target.attribute(key) for key in BLOCK_SKILLS))
        else:
            self.defence_skill.setValue(target.attribute("dodge"))

    def refresh(self, context: Context) -> None:
        with self.quietly():
            if self._prefill_skill and context.attacker is not None:
                self.skill.setValue(context.attacker.attribute(self.skill_name.value()))
                self._prefill_skill = False
            self.attacker_held.set_items(held_items(context.attacker))
            self.target_held.set_items(held_items(context.target))
            if self.defence.value() is not self._defence_shown and context.target is not None:
                self._prefill_defence(context.target)
            self._defence_shown = self.defence.value()
        self._sheet, self._problem = None, ""
        try:
            self._sheet = self._work_out(context)
        except RulesError as problem:
            self._problem = str(problem)
        self.sync()
        self._show(context)

    def _shot(self, context: Context) -> Shot:
        attacker = context.attacker
        assert attacker is not None
        wounds, actions = attack_penalties(attacker, context.state, self.attacker_held.value())
        burst_text = self.burst.text().strip()
        burst: Burst | None = parse_burst(burst_text) if burst_text else None
        return Shot(kind=self.kind.value(), mode=self.mode.value(), skill=self.skill.value(),
                    damage=self.damage.value(), strength=attacker.attribute("strength"),
                    martial_arts=attacker.attribute("martial_arts"), burst=burst,
                    identical_guns=self.identical.isChecked(), point_blank=self.point_blank.isChecked(),
                    called=self._data.called_shots.get(self.called.value() or ""), armor=self.armor.value(),
                    cover=self.cover.value(), wound_penalty=wounds, action_penalty=actions,
                    ambush=self.ambush.isChecked(), visibility=self.visibility.value())

    def _work_out(self, context: Context) -> AttackSheet:
        if context.attacker is None or context.target is None:
            raise RulesError(_("Choose an attacker and a target."))
        shot = self._shot(context)
        check_mode(shot)
        defence = self.defence.value()
        if defence is Defence.DODGE and self.unseen.isChecked():
            raise RulesError(_("An unseen attacker cannot be dodged: attack against a difficulty."))
        defending = None
        if defence is not Defence.DIFFICULTY:
            wounds, actions = defence_penalties(context.target, context.state, self.target_held.value())
            defending = defence_pool(self.defence_skill.value(), wounds, actions)
        modifiers = context.data.modifiers
        return AttackSheet(shot, attack_pool(shot, modifiers), defence, defending, self.difficulty.value(),
                           damage_pool(shot, modifiers), wounds_per_hit(shot, modifiers), damage_rolls(shot),
                           rounds_fired(shot, modifiers))

    def _show(self, context: Context) -> None:
        sheet = self._sheet
        if sheet is None:
            self.sheet_label.setText("")
            self.show_unknown([_("Miss"), _("No wound"), *(_(CLASS_LABELS[k]) for k in CLASSES)])
            for entry in self.entries():
                entry.set_expression(None, _("Fix the attack first."))
            return
        parts = [pool_html(_("Attack"), sheet.attack)]
        if sheet.defence_pool is not None:
            parts.append(pool_html(_(DEFENCE_LABELS[sheet.defence]), sheet.defence_pool))
        else:
            parts.append("<b>{}</b>".format(html.escape(_("Difficulty {difficulty}").format(
                difficulty=sheet.difficulty))))
        parts.append(pool_html(_("Damage"), sheet.damage) if sheet.damage is not None
                     else html.escape(_("A hit there makes no damage roll.")))
        notes = []
        if sheet.wounds > 1:
            notes.append(ngettext("A hit puts {count} wound of the rolled class.",
                                  "A hit puts {count} wounds of the rolled class.", sheet.wounds).format(
                count=sheet.wounds))
        if sheet.rolls > 1:
            notes.append(_("Two damage rolls, one per gun."))
        if sheet.rounds:
            notes.append(ngettext("Uses {count} round.", "Uses {count} rounds.", sheet.rounds).format(
                count=sheet.rounds))
        if notes:
            parts.append("<i>{}</i>".format("<br>".join(html.escape(note) for note in notes)))
        self.sheet_label.setText("<br>".join(parts))
        self._show_odds(context, sheet)
        self._set_expressions(context, sheet)

    def _show_odds(self, context: Context, sheet: AttackSheet) -> None:
        assert context.target is not None
        opposing = sheet.defence_pool.dice if sheet.defence_pool is not None else sheet.difficulty
        damage = sheet.damage.dice if sheet.damage is not None else None
        odds = attack_outcome_distribution(sheet.attack.dice, sheet.defence, opposing, damage,
                                           context.pyramid(context.target), context.tie())
        rows = [(_(MISS_LABELS[sheet.defence]), odds["miss"])]
        if damage is None:
            rows.append((_("Hit"), odds["hit"]))
        else:
            classes = _class_rows({None: odds["none"], **{k: odds[k] for k in CLASSES}}, sheet.wounds)
            rows += [(_("Hit, no wound") if index == 0 else label, p) for index, (label, p) in enumerate(classes)]
        self.show_odds(rows, attack_chart(rows, damage))

    def _set_expressions(self, context: Context, sheet: AttackSheet) -> None:
        with self.quietly():
            self.attack_entry.set_expression(dice_expression(sheet.attack.dice), _(NO_DICE))
            if sheet.defence_pool is None:
                self.defence_entry.set_expression(None, _("The target rolls nothing against a difficulty."))
            else:
                self.defence_entry.set_expression(dice_expression(sheet.defence_pool.dice), _(NO_DICE))
            hit = self._hit(context, sheet)
            for number, entry in enumerate(self.damage_entries):
                if number >= sheet.rolls:
                    entry.set_expression(None, _("Only one gun's bullet."))
                elif hit is False:
                    entry.set_expression(None, _("Not needed: the attack did not get through."))
                elif sheet.damage is None:
                    entry.set_expression(None, _("No damage roll: a hit there wounds nobody."))
                else:
                    entry.set_expression(dice_expression(sheet.damage.dice), _(NO_DICE))

    def _hit(self, context: Context, sheet: AttackSheet) -> bool | None:
        """Whether the attack got through (None while its dice are missing)."""
        attack = entry_total(self.attack_entry)
        opposing = sheet.difficulty if sheet.defence_pool is None else entry_total(self.defence_entry)
        if attack is None or opposing is None:
            return None
        return hits(attack, sheet.defence, opposing, context.tie())

    def problem(self, context: Context) -> tuple[str, bool]:
        if self._sheet is None:
            return self._problem or _("Choose an attacker and a target."), True
        return self.dice_problem()

    def operation(self, context: Context) -> Operation | None:
        sheet = self._sheet
        if sheet is None or context.attacker is None or context.target is None or self.problem(context)[0]:
            return None
        hit = self._hit(context, sheet)
        rolls = tuple(flat_faces(entry) for entry in self.damage_entries[: sheet.rolls]
                      ) if hit and sheet.damage is not None else ()
        return InstitutAttack(
            context.attacker.id, context.target.id, self.name.text().strip() or _("a weapon"),
            flat_faces(self.attack_entry), sheet.defence.value, flat_faces(self.defence_entry)
            if sheet.defence_pool is not None else (), sheet.difficulty if sheet.defence_pool is None else 0,
            rolls, sheet.wounds, sheet.rounds, self.attacker_held.value(),
            self.target_held.value() if sheet.defence_pool is not None else "")

    def outcome(self, operation: Operation, context: Context) -> str | None:
        sheet = self._sheet
        if sheet is None or not isinstance(operation, InstitutAttack) or context.target is None:
            return None
        if not self._hit(context, sheet):
            return _(MISS_LABELS[sheet.defence])
        if not operation.damage_rolls:
            return _("Hit")
        wound = context.pyramid(context.target).classify(sum(operation.damage_rolls[0]))
        if wound is None:
            return _("Hit, no wound")
        label = _(CLASS_LABELS[wound])
        return _("{wound} ×{count}").format(wound=label, count=sheet.wounds) if sheet.wounds > 1 else label


# --- victims of an explosion -------------------------------------------------------------------------------


class VictimRow(QWidget):
    """One creature in a blast: caught or not, its damage dice (own cover and distance), the faces."""

    changed = Signal()

    def __init__(self, combatant: Combatant, roller: Roller) -> None:
        super().__init__()
        self.combatant_id = combatant.id
        self._roller = roller
        self.caught = QCheckBox(combatant.name)
        self.dice = _spin(0, 60)
        self.dice.setAccessibleName(_("{name}: damage dice").format(name=combatant.name))
        self.dice.setToolTip(_("The grenade's dice for this distance, less this creature's cover."))
        self.faces = QLineEdit(placeholderText=_("faces"))
        self.faces.setAccessibleName(_("{name}: faces rolled").format(name=combatant.name))
        self.roll_button = QToolButton()
        self.roll_button.setText(_("Roll"))
        self.total = QLabel()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caught, 2)
        layout.addWidget(self.dice)
        layout.addWidget(self.faces, 2)
        layout.addWidget(self.roll_button)
        layout.addWidget(self.total)
        self.total.setMinimumWidth(self.fontMetrics().horizontalAdvance("888") + 4)
        for signal in (self.caught.toggled, self.dice.valueChanged, self.faces.textChanged):
            signal.connect(self._update)
        self.roll_button.clicked.connect(self.roll)
        self._update()

    def roll(self) -> None:
        """Roll this creature's damage dice."""
        expression = dice_expression(self.dice.value())
        self.faces.setText(expression.roll(self._roller).faces_text() if expression is not None else "")

    def faces_rolled(self) -> tuple[int, ...] | None:
        """The faces (() for no dice), or None while they are missing or wrong."""
        expression = dice_expression(self.dice.value())
        if expression is None:
            return ()
        try:
            result = expression.from_faces(self.faces.text())
        except RulesError:
            return None
        return tuple(face for chain in result.faces for face in chain)

    def error(self) -> str:
        """Why the typed faces cannot be used ("" when they can or nothing is typed)."""
        expression = dice_expression(self.dice.value())
        if expression is None or not self.faces.text().strip():
            return ""
        try:
            expression.from_faces(self.faces.text())
        except RulesError as problem:
            return str(problem)
        return ""

    def _update(self) -> None:
        caught = self.caught.isChecked()
        for widget in (self.dice, self.faces, self.roll_button):
            widget.setEnabled(caught)
        faces = self.faces_rolled()
        self.total.setText(str(sum(faces)) if caught and faces is not None else "")
        self.changed.emit()


class VictimList(QGroupBox):
    """Everyone the explosion may catch; tick those in the radius and give each its own dice."""

    changed = Signal()

    def __init__(self, roller: Roller) -> None:
        super().__init__(_("Caught in the blast"))
        self._roller = roller
        self._layout = QVBoxLayout(self)
        self.rows: dict[str, VictimRow] = {}

    def show_combatants(self, combatants: list[Combatant], default_dice: int) -> None:
        """One row per combatant (kept as they are when the roster did not change)."""
        if [c.id for c in combatants] != list(self.rows):
            while (item := self._layout.takeAt(0)) is not None:
                widget = item.widget()
                if widget is not None:
                    widget.setParent(None)
                    widget.deleteLater()
            self.rows = {}
            for combatant in combatants:
                row = VictimRow(combatant, self._roller)
                row.dice.setValue(default_dice)
                row.changed.connect(self.changed)
                self.rows[combatant.id] = row
                self._layout.addWidget(row)

    def set_default_dice(self, old: int, new: int) -> None:
        """The grenade's dice changed: rows still at the old default follow."""
        for row in self.rows.values():
            if row.dice.value() == old:
                row.dice.setValue(new)

    def caught(self) -> list[VictimRow]:
        """Rows ticked as caught."""
        return [row for row in self.rows.values() if row.caught.isChecked()]

    def problem(self) -> tuple[str, bool]:
        """A wrong face, or dice still missing."""
        for row in self.caught():
            if row.error():
                return f"{row.caught.text()}: {row.error()}", True
        if any(row.faces_rolled() is None for row in self.caught()):
            return _("Roll or type the blast damage of everyone caught."), False
        return "", False

    def rolls(self) -> tuple[BlastRoll, ...]:
        """The damage rolls of everyone caught."""
        return tuple(BlastRoll(row.combatant_id, row.faces_rolled() or ()) for row in self.caught())

    def missing(self) -> bool:
        """Someone caught still has no faces."""
        return any(not row.faces.text().strip() and row.dice.value() > 0 for row in self.caught())

    def roll_missing(self) -> None:
        """Roll for everyone caught without faces yet."""
        for row in self.caught():
            if not row.faces.text().strip():
                row.roll()

    def clear(self) -> None:
        """Untick everyone and forget the faces."""
        for row in self.rows.values():
            row.faces.clear()
            row.caught.setChecked(False)


def _blast_targets(context: Context) -> list[Combatant]:
    return [c for c in context.state.combatants.values()
            if context.system.status(c, context.state) is not Status.DEAD]


# --- grenades ----------------------------------------------------------------------------------------------


class GrenadePage(Page):
    """Throw a grenade: Athletics against the distance; an impact grenade's blast is resolved at once."""

    uses_target = False

    def __init__(self, roller: Roller) -> None:
        super().__init__(roller)
        self._pool: Pool | None = None
        self._problem = ""
        self.grenade = QLineEdit(_("F-1"))
        self.timed = Choice([(_("Timed: explodes at the end of the round"), True),
                             (_("Impact: explodes at once"), False)])
        self.distance = _spin(0, 999, 10, _(" m"))
        self.athletics = _spin(0, 40)
        self.visibility = _spin(-20, 20)
        self.held = Choice[str]()
        self.damage = _spin(0, 60, 8)
        self.damage.setToolTip(_("The grenade's damage dice at the point of impact."))
        self.sheet_label = _label(rich=True)
        self.throw_entry = DiceEntry(_("Throw"), roller)
        self.victims = VictimList(roller)
        self._build_layout()
        self._damage_shown = self.damage.value()
        self.watch(self.grenade, self.timed, self.distance, self.athletics, self.visibility, self.held,
                   self.damage, self.throw_entry)
        self.victims.changed.connect(self._emit)

    def _build_layout(self) -> None:
        throw = QGroupBox(_("Grenade"))
        form = QFormLayout(throw)
        form.addRow(_("Name"), self.grenade)
        form.addRow(_("Fuse"), self.timed)
        form.addRow(_("Distance"), self.distance)
        form.addRow(_("Athletics dice"), self.athletics)
        form.addRow(_("Sight, obstacles"), self.visibility)
        form.addRow(_("This action"), self.held)
        form.addRow(_("Damage dice"), self.damage)
        sheet = QGroupBox(_("Dice pools"))
        QVBoxLayout(sheet).addWidget(self.sheet_label)
        dice = QGroupBox(_("Odds and dice"))
        layout = QVBoxLayout(dice)
        layout.addWidget(self.odds)
        layout.addWidget(self.throw_entry)
        result = QGroupBox(_("Result"))
        QVBoxLayout(result).addWidget(self.result)
        self.timed_note = QGroupBox(_("Blast"))
        note = _label()
        note.setText(_("A timed grenade explodes at the end of the round, after everyone has acted: its timer "
                       "comes up in the turn order, and the Explosion page resolves the blast then."))
        QVBoxLayout(self.timed_note).addWidget(note)
        _columns(self, _column(throw, sheet), _column(dice, result, self.boxed_chart()),
                 _column(self.victims, self.timed_note))

    def entries(self) -> list[DiceEntry]:
        return [self.throw_entry]

    def prefill(self, context: Context) -> None:
        if context.attacker is not None:
            with self.quietly():
                self.athletics.setValue(context.attacker.attribute("athletics"))

    def refresh(self, context: Context) -> None:
        with self.quietly():
            self.held.set_items(held_items(context.attacker))
            self.victims.show_combatants(_blast_targets(context), self.damage.value())
            if self.damage.value() != self._damage_shown:
                self.victims.set_default_dice(self._damage_shown, self.damage.value())
                self._damage_shown = self.damage.value()
        self.victims.setVisible(not self.timed.value())
        self.timed_note.setVisible(self.timed.value())
        self.damage.setEnabled(not self.timed.value())
        self._pool, self._problem = None, ""
        if context.attacker is None:
            self._problem = _("Choose who throws.")
        else:
            try:
                wounds, actions = attack_penalties(context.attacker, context.state, self.held.value())
                self._pool = pool((_("Athletics"), self.athletics.value()), (_("Wounds"), -wounds),
                                  (_("Additional actions this round"), -actions),
                                  (_("Sight, obstacles"), self.visibility.value()), keep_zero=(_("Athletics"),))
            except RulesError as problem:
                self._problem = str(problem)
        self._show()

    def _show(self) -> None:
        built, distance = self._pool, self.distance.value()
        if built is None:
            self.sheet_label.setText("")
            self.show_unknown([_("On target"), _("1–2 m off"), _("3–5 m off"), _("6 m or more off")])
            self.throw_entry.set_expression(None, _("Choose who throws."))
            return
        difficulty = html.escape(_("Difficulty {difficulty} (the distance in metres)").format(difficulty=distance))
        self.sheet_label.setText(f"{pool_html(_('Throw'), built)}<br><b>{difficulty}</b>")
        spread = throw_distribution(built.dice, distance)
        bands = ((_("On target"), 0, 0), (_("1–2 m off"), 1, 2), (_("3–5 m off"), 3, 5),
                 (_("6 m or more off"), 6, None))
        rows = [(label, sum(p for off, p in spread.items() if off >= low and (high is None or off <= high)))
                for label, low, high in bands]
        self.show_odds(rows, throw_chart(rows, spread))
        with self.quietly():
            self.throw_entry.set_expression(dice_expression(built.dice), _(NO_DICE))

    def problem(self, context: Context) -> tuple[str, bool]:
        if self._pool is None:
            return self._problem or _("Choose who throws."), True
        problem = self.dice_problem()
        if problem[0] or self.timed.value():
            return problem
        return self.victims.problem()

    def can_roll(self) -> bool:
        return super().can_roll() or (not self.timed.value() and self.victims.missing())

    def roll_missing(self) -> None:
        super().roll_missing()
        if not self.timed.value():
            self.victims.roll_missing()

    def clear_dice(self) -> None:
        super().clear_dice()
        with self.quietly():
            self.victims.clear()

    def operation(self, context: Context) -> Operation | None:
        if context.attacker is None or self._pool is None or self.problem(context)[0]:
            return None
        timed = self.timed.value()
        return ThrowGrenade(context.attacker.id, self.grenade.text().strip() or _("a grenade"),
                            self.distance.value(), flat_faces(self.throw_entry), timed,
                            () if timed else self.victims.rolls(), self.held.value())

    def outcome(self, operation: Operation, context: Context) -> str | None:
        if not isinstance(operation, ThrowGrenade):
            return None
        off = max(0, operation.distance - sum(operation.throw_faces))
        return (_("On target") if off == 0 else _("1–2 m off") if off <= 2 else _("3–5 m off") if off <= 5
                else _("6 m or more off"))


class BlastPage(Page):
    """An explosion goes off (a timed grenade at the end of the round, a mine…): damage for each creature."""

    uses_attacker = False
    uses_target = False

    def __init__(self, roller: Roller) -> None:
        super().__init__(roller)
        self.source = QLineEdit()
        self.source.setPlaceholderText(_("e.g. F-1"))
        self.damage = _spin(0, 60, 8)
        self.victims = VictimList(roller)
        self._damage_shown = self.damage.value()
        explosion = QGroupBox(_("Explosion"))
        form = QFormLayout(explosion)
        form.addRow(_("What explodes"), self.source)
        form.addRow(_("Damage dice"), self.damage)
        note = _label()
        note.setText(_("Each creature in the radius rolls its own damage: the grenade's dice for its distance, "
                       "less its own cover."))
        form.addRow(note)
        odds = QGroupBox(_("Wound at these dice"))
        QVBoxLayout(odds).addWidget(self.odds)
        result = QGroupBox(_("Result"))
        QVBoxLayout(result).addWidget(self.result)
        _columns(self, _column(explosion, odds, result), _column(self.victims, self.boxed_chart()))
        self.watch(self.source, self.damage)
        self.victims.changed.connect(self._emit)

    def prefill(self, context: Context) -> None:
        slot = context.state.clock.current
        if slot is not None and slot.kind is SlotKind.TIMER and slot.ids[0] in context.state.effects:
            self.source.setText(context.state.effects[slot.ids[0]].name)

    def refresh(self, context: Context) -> None:
        with self.quietly():
            self.victims.show_combatants(_blast_targets(context), self.damage.value())
            if self.damage.value() != self._damage_shown:
                self.victims.set_default_dice(self._damage_shown, self.damage.value())
                self._damage_shown = self.damage.value()
        rows = _class_rows(wound_class_distribution(self.damage.value(), context.data.pyramid))
        self.show_odds(rows, blast_chart(rows, self.damage.value()))

    def problem(self, context: Context) -> tuple[str, bool]:
        if not self.victims.caught():
            return _("Tick everyone caught in the blast."), False
        return self.victims.problem()

    def can_roll(self) -> bool:
        return self.victims.missing()

    def roll_missing(self) -> None:
        self.victims.roll_missing()

    def clear_dice(self) -> None:
        with self.quietly():
            self.victims.clear()

    def operation(self, context: Context) -> Operation | None:
        if self.problem(context)[0]:
            return None
        return Blast(self.source.text().strip() or _("The grenade"), self.victims.rolls())


# --- suppression fire --------------------------------------------------------------------------------------


class SuppressionPage(Page):
    """Lay suppression fire on an area (the attacker), or dodge it when crossing or standing there (the target)."""

    def __init__(self, roller: Roller) -> None:
        super().__init__(roller)
        self._dodge: Pool | None = None
        self._difficulty = 0
        self._problem = ""
        self._prefill_damage = True
        self.opening = Choice([(_("Open fire on an area"), True), (_("Someone crosses or stands in it"), False)])
        self.area = QLineEdit(_("the corridor"))
        self.squares = _spin(1, 100, 1)
        self.bullets = _spin(1, 200, 6)
        self.bullets.setToolTip(_("One full-auto burst per square: twice the weapon's short burst."))
        self.weapon = QLineEdit(placeholderText=_("e.g. RPK"))
        self.fire_damage = _spin(0, 40, 7)
        self.shooter = Choice[str]()
        self.dodge = _spin(0, 40)
        self.damage = _spin(0, 40)
        self.sheet_label = _label(rich=True)
        self.dodge_entry = DiceEntry(_("Dodge"), roller)
        self.damage_entry = DiceEntry(_("Bullet's damage"), roller)
        self._build_layout()
        self.watch(self.opening, self.area, self.squares, self.bullets, self.weapon, self.fire_damage, self.shooter,
                   self.dodge, self.damage, self.dodge_entry, self.damage_entry)
        self.shooter.currentIndexChanged.connect(self._on_shooter)

    def _build_layout(self) -> None:
        self.fire_box = QGroupBox(_("Suppression fire"))
        form = QFormLayout(self.fire_box)
        form.addRow(_("Area"), self.area)
        form.addRow(_("Squares covered"), self.squares)
        form.addRow(_("Bullets per square"), self.bullets)
        form.addRow(_("Weapon"), self.weapon)
        form.addRow(_("Damage dice"), self.fire_damage)
        self.cross_box = QGroupBox(_("Crossing the fire"))
        form = QFormLayout(self.cross_box)
        form.addRow(_("Under fire from"), self.shooter)
        form.addRow(_("Dodge dice"), self.dodge)
        form.addRow(_("Damage dice"), self.damage)
        top = QFormLayout()
        top.addRow(_("What happens"), self.opening)
        sheet = QGroupBox(_("Dice pools"))
        QVBoxLayout(sheet).addWidget(self.sheet_label)
        self.dice_box = QGroupBox(_("Odds and dice"))
        layout = QVBoxLayout(self.dice_box)
        layout.addWidget(self.odds)
        layout.addWidget(self.dodge_entry)
        layout.addWidget(self.damage_entry)
        result = QGroupBox(_("Result"))
        QVBoxLayout(result).addWidget(self.result)
        self.chart_box = self.boxed_chart()
        _columns(self, _column(top, self.fire_box, self.cross_box), _column(sheet, result, self.chart_box),
                 _column(self.dice_box))

    @property
    def opening_fire(self) -> bool:
        """Laying the fire (True) or dodging it (False)."""
        return bool(self.opening.value())

    def entries(self) -> list[DiceEntry]:
        return [] if self.opening_fire else [self.dodge_entry, self.damage_entry]

    def _on_shooter(self) -> None:
        self._prefill_damage = True

    def prefill(self, context: Context) -> None:
        if context.target is not None:
            with self.quietly():
                self.dodge.setValue(context.target.attribute("dodge"))

    def refresh(self, context: Context) -> None:
        opening = self.opening_fire
        self.fire_box.setVisible(opening)
        self.cross_box.setVisible(not opening)
        self.dice_box.setVisible(not opening)
        self.chart_box.setVisible(not opening)
        for entry in (self.dodge_entry, self.damage_entry):
            entry.setVisible(not opening)
        modifiers = context.data.modifiers
        if opening:
            difficulty = suppression_difficulty(self.bullets.value(), modifiers)
            rounds_used = self.squares.value() * self.bullets.value()
            self.sheet_label.setText("<b>{}</b><br>{}<br><i>{}</i>".format(
                html.escape(_("Dodge difficulty {difficulty}").format(difficulty=difficulty)),
                html.escape(_("Bullets per square × {factor}").format(factor=modifiers.suppression_per_bullet)),
                html.escape(ngettext("Uses {count} round; the shooter's only action this round.",
                                     "Uses {count} rounds; the shooter's only action this round.", rounds_used)
                            .format(count=rounds_used))))
            self.show_odds([], None)
            self._problem = "" if context.attacker is not None else _("Choose who fires.")
            return
        self._refresh_crossing(context)

    @staticmethod
    def _shooters(context: Context) -> list[Combatant]:
        return [c for c in context.state.combatants.values() if rounds.suppression(c, context.state) is not None]

    def _refresh_crossing(self, context: Context) -> None:
        shooters = self._shooters(context)
        with self.quietly():
            self.shooter.set_items([(c.name, c.id) for c in shooters])
        fire = self._fire(context)
        self._dodge, self._problem = None, ""
        if context.target is None or fire is None:
            self._problem = _("Choose who crosses the fire.") if fire is not None else _(
                "Nobody lays suppression fire this round.")
            self.sheet_label.setText("")
            self.show_unknown([_("Gets through"), _("No wound"), *(_(CLASS_LABELS[k]) for k in CLASSES)])
            for entry in self.entries():
                entry.set_expression(None, self._problem)
            return
        if self._prefill_damage:
            with self.quietly():
                self.damage.setValue(_whole(fire.get("damage")))
            self._prefill_damage = False
        self._difficulty = _whole(fire.get("difficulty"))
        wounds, actions = roll_penalties(context.target, context.state)
        self._dodge = defence_pool(self.dodge.value(), wounds, actions)
        damage = pool((_("Weapon"), self.damage.value()), (_("Armor"), -context.target.attribute("armor")),
                      keep_zero=(_("Weapon"),))
        self.sheet_label.setText("{}<br><b>{}</b><br>{}".format(
            pool_html(_("Dodge"), self._dodge),
            html.escape(_("Difficulty {difficulty}").format(difficulty=self._difficulty)),
            pool_html(_("Bullet's damage"), damage)))
        through = success_probability(self._dodge.dice, self._difficulty)
        classes = wound_class_distribution(damage.dice, context.pyramid(context.target))
        rows = [(_("Gets through"), through)]
        rows += [(label, (1 - through) * p) for label, p in _class_rows(classes)]
        self.show_odds(rows, crossing_chart(rows))
        with self.quietly():
            self.dodge_entry.set_expression(dice_expression(self._dodge.dice), _(NO_DICE))
            dodged = entry_total(self.dodge_entry)
            if dodged is not None and dodged >= self._difficulty:
                self.damage_entry.set_expression(None, _("Not needed: the dodge got through."))
            else:
                self.damage_entry.set_expression(dice_expression(damage.dice), _(NO_DICE))

    def _fire(self, context: Context) -> Mapping[str, JsonValue] | None:
        chosen = context.state.combatants.get(self.shooter.value()) if self.shooter.values() else None
        return rounds.suppression(chosen, context.state) if chosen is not None else None

    def problem(self, context: Context) -> tuple[str, bool]:
        if self._problem:
            return self._problem, True
        if self.opening_fire:
            return "", False
        return self.dice_problem()

    def operation(self, context: Context) -> Operation | None:
        if self.problem(context)[0]:
            return None
        if self.opening_fire:
            assert context.attacker is not None
            return SuppressionFire(context.attacker.id, self.area.text(), self.squares.value(), self.bullets.value(),
                                   self.weapon.text().strip(), self.fire_damage.value())
        assert context.target is not None
        dodged = entry_total(self.dodge_entry) or 0
        damage = flat_faces(self.damage_entry) if dodged < self._difficulty else ()
        return SuppressionDodge(context.target.id, self.shooter.value(), flat_faces(self.dodge_entry), damage)

    def outcome(self, operation: Operation, context: Context) -> str | None:
        if not isinstance(operation, SuppressionDodge) or context.target is None:
            return None
        if sum(operation.dodge_faces) >= self._difficulty:
            return _("Gets through")
        wound = context.pyramid(context.target).classify(sum(operation.damage_faces))
        return _(CLASS_LABELS[wound]) if wound else _("No wound")


# --- the dialog --------------------------------------------------------------------------------------------


@register_attack_dialog("institut")
class InstitutAttackDialog(QDialog):
    """Resolve Institute attacks one after another, with the odds shown before the dice."""

    def __init__(self, document: EncounterDocument, roller: Roller, attacker_id: str | None = None,
                 target_id: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Attack"))
        self._document = document
        self._roller = roller
        self._applying = False
        self._showing_result = False
        self._data = self._load_tables()
        self.attacker = QComboBox()
        self.target = QComboBox()
        self.attack = AttackPage(roller, self._data)
        self.grenade = GrenadePage(roller)
        self.blast = BlastPage(roller)
        self.suppression = SuppressionPage(roller)
        self.tabs = QTabWidget()
        for page, title in ((self.attack, _("Shoot or strike")), (self.grenade, _("Grenade")),
                            (self.blast, _("Explosion")), (self.suppression, _("Suppression fire"))):
            self.tabs.addTab(page, title)
        self.status_label = _label()
        self.buttons = QDialogButtonBox()
        self.roll_button = self.buttons.addButton(_("Roll the rest"), QDialogButtonBox.ButtonRole.ActionRole)
        self.roll_button.setToolTip(_("Roll every roll still missing, in order."))
        self.resolve_button = self.buttons.addButton(_("Resolve"), QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        for button in (self.roll_button, self.close_button):
            button.setAutoDefault(False)
        self.resolve_button.setDefault(True)
        self._build_layout()
        self._fill(self.attacker, attacker_id or self._current_actor(), able_only=True)
        self._fill(self.target, target_id, exclude=self.attacker.currentData())
        self._connect()
        self._prefill_all()
        if self._current_timer():
            self.tabs.setCurrentWidget(self.blast)
        self.refresh()

    # --- construction ---------------------------------------------------------------------------
    def _load_tables(self) -> InstitutTables:
        try:
            return tables(self._document.state)
        except RulesError:  # a bad override must not lock the GM out: the bundled tables still work
            return load_tables()

    def _build_layout(self) -> None:
        who = QGridLayout()
        who.addWidget(QLabel(_("Attacker")), 0, 0)
        who.addWidget(self.attacker, 0, 1)
        who.addWidget(QLabel(_("Target")), 0, 2)
        who.addWidget(self.target, 0, 3)
        who.setColumnStretch(1, 1)
        who.setColumnStretch(3, 1)
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(who)
        layout.addWidget(self.tabs, 1)
        scroll = QScrollArea()
        scroll.setWidget(content)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        outer = QVBoxLayout(self)
        outer.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        outer.addWidget(scroll, 1)
        outer.addWidget(self.status_label)
        outer.addWidget(self.buttons)
        self._content = content
        self._fitted = False

    def showEvent(self, event: QShowEvent) -> None:
        """Size the dialog to its content once Qt has laid it out, within the screen."""
        super().showEvent(event)
        if not self._fitted:
            self._fitted = True
            if not self.testAttribute(Qt.WidgetAttribute.WA_Resized):
                self._fit_screen(self._content.sizeHint())

    def _fit_screen(self, content: QSize) -> None:
        fit_to_screen(self, content, 110)

    def _connect(self) -> None:
        for page in self.pages():
            page.changed.connect(self.refresh)
        self.tabs.currentChanged.connect(self._on_tab)
        self.attacker.currentIndexChanged.connect(self._on_attacker)
        self.target.currentIndexChanged.connect(self._on_target)
        self.roll_button.clicked.connect(self.roll_remaining)
        self.resolve_button.clicked.connect(self.resolve)
        self.close_button.clicked.connect(self.reject)
        self._document.changed.connect(self._on_document_changed)
        self._document.replaced.connect(self.reject)

    def pages(self) -> tuple[Page, ...]:
        """Every page, in tab order."""
        return (self.attack, self.grenade, self.blast, self.suppression)

    def page(self) -> Page:
        """The page shown."""
        current = self.tabs.currentWidget()
        assert isinstance(current, Page)
        return current

    # --- combatants -----------------------------------------------------------------------------
    def _current_actor(self) -> str | None:
        slot = self._document.state.clock.current
        if slot is None or slot.kind is SlotKind.TIMER or not slot.ids:
            return None
        return slot.ids[0]

    def _current_timer(self) -> bool:
        slot = self._document.state.clock.current
        return slot is not None and slot.kind is SlotKind.TIMER

    def _fill(self, combo: QComboBox, wanted: str | None, able_only: bool = False, exclude: str | None = None) -> None:
        state, system = self._document.state, self._document.system
        people = [c for c in state.combatants.values()
                  if c.id != exclude and (c.id == wanted or (system.can_act(c, state) if able_only
                                                             else system.status(c, state) is not Status.DEAD))]
        if wanted not in {c.id for c in people}:
            attacker = state.combatants.get(exclude or "")
            foes = [c for c in people if attacker is not None and c.side is not attacker.side]
            wanted = (foes or people)[0].id if people else None
        combo.blockSignals(True)
        combo.clear()
        for combatant in people:
            combo.addItem(combatant.name, combatant.id)
        combo.setCurrentIndex(max(0, combo.findData(wanted)) if people else -1)
        combo.blockSignals(False)

    def context(self) -> Context:
        """The fight as the pages read it now."""
        state = self._document.state
        return Context(state, self._document.system, self._data, state.combatants.get(self.attacker.currentData()),
                       state.combatants.get(self.target.currentData()))

    def _prefill_all(self) -> None:
        context = self.context()
        for page in self.pages():
            page.prefill(context)

    # --- reacting -------------------------------------------------------------------------------
    def _on_tab(self) -> None:
        page = self.page()
        self.attacker.setEnabled(page.uses_attacker)
        self.target.setEnabled(page.uses_target or isinstance(page, SuppressionPage))
        self.refresh()

    def _on_attacker(self) -> None:
        self._fill(self.target, self.target.currentData(), exclude=self.attacker.currentData())
        self._prefill_all()
        self.refresh()

    def _on_target(self) -> None:
        self._prefill_all()
        self.refresh()

    def _on_document_changed(self, change: Change) -> None:
        if self._applying:
            return
        if any(key in change.delta.changed_items("options") for key in ("pyramid", "called_shots", "modifiers",
                                                                        "weapons")):
            self._data = self._load_tables()
            self.attack.set_tables(self._data)
        if change.roster_changed:
            self._fill(self.attacker, self.attacker.currentData(), able_only=True)
            self._fill(self.target, self.target.currentData(), exclude=self.attacker.currentData())
            self._prefill_all()
        self.refresh()

    def refresh(self) -> None:
        """Recompute the page shown and what Resolve may do (a shown result's mark goes: a new roll begins)."""
        page = self.page()
        if self._showing_result:
            self._showing_result = False
            page.mark(None)
        page.refresh(self.context())
        problem, is_error = page.problem(self.context())
        self.resolve_button.setEnabled(not problem)
        self.roll_button.setEnabled(page.can_roll())
        show_message(self.status_label, problem or _("Press Resolve (Enter) to apply."), error=is_error)

    def problem(self) -> str:
        """What stops Resolve now ("" when nothing)."""
        return self.page().problem(self.context())[0]

    # --- rolling and resolving ------------------------------------------------------------------
    def roll_remaining(self) -> None:
        """Roll every roll still missing on the page shown, in order."""
        page = self.page()
        for _step in range(4):  # each roll may make the next one needed (the damage after a hit)
            page.roll_missing()
            page.refresh(self.context())
        self.refresh()

    def operation(self) -> Operation | None:
        """The operation Resolve would apply now."""
        return self.page().operation(self.context())

    def resolve(self) -> None:
        """Apply the page's operation; a refusal is shown here and nothing changes."""
        page, context = self.page(), self.context()
        operation = page.operation(context)
        if operation is None:
            self.refresh()
            return
        highlight = page.outcome(operation, context)
        odds_before, chart_before = page.odds.outcomes(), page.chart.data()
        self._applying = True
        try:
            change = self._document.apply(operation)
        except RulesError as problem:
            show_message(self.status_label, str(problem))
            return
        finally:
            self._applying = False
        page.result.setText("\n".join(line.render() for line in change.entry.log))
        page.clear_dice()
        self.refresh()
        # The odds stay as they were for this roll, with what happened marked, until the GM starts the next one.
        page.show_odds(odds_before, chart_before)
        page.mark(highlight)
        self._showing_result = True
        show_message(self.status_label, _("Done. Enter new dice for the next one, or close."), error=False)
