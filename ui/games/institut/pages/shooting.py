"""The Institute's shooting and melee page: one attack against a dodge, a block or a difficulty.

The form becomes a :class:`~rules.systems.institut.combat.Shot`; the pools come from :func:`attack_pool`,
:func:`defence_pool` and :func:`damage_pool`, the odds from :func:`attack_outcome_distribution`, and Resolve
applies one :class:`~rules.systems.institut.ops.InstitutAttack`.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from PySide6.QtWidgets import QCheckBox, QFormLayout, QGroupBox, QLabel, QLineEdit, QTabWidget, QVBoxLayout, QWidget

from app.i18n import _, ngettext
from rules.dice import Roller
from rules.encounter import Combatant, frozen_map
from rules.encounter import Weapon as SavedWeapon
from rules.errors import RulesError
from rules.history import Operation
from rules.systems.institut import rounds
from rules.systems.institut.arms import (
    DAMAGE,
    HIT,
    ONE_HANDED,
    describe_weapon,
    table_values,
    weapon_burst,
    weapon_kind,
    weapon_mode,
    weapon_skill,
)
from rules.systems.institut.combat import (
    DEFENCE_LABELS,
    FIRE_MODE_LABELS,
    WEAPON_KIND_LABELS,
    Defence,
    FireMode,
    Pool,
    Shot,
    Unit,
    attack_pool,
    blade_pool,
    check_mode,
    damage_pool,
    damage_rolls,
    defence_pool,
    hits,
    rounds_fired,
    wounds_per_hit,
)
from rules.systems.institut.odds import MISS_LABELS, attack_outcome_distribution
from rules.systems.institut.ops import (
    InstitutAttack,
    attack_penalties,
    can_defend,
    declaring,
    defence_penalties,
    may_declare_now,
)
from rules.systems.institut.tables import (
    Burst,
    InstitutTables,
    Weapon,
    WeaponKind,
    called_shot_label,
    parse_burst,
)
from rules.weapons import fire
from ui.games.institut.odds import attack_chart
from ui.games.institut.pages.blocking import BLOCK_SKILLS, SKILLS, check_block
from ui.games.institut.pages.page import (
    NO_DICE,
    Context,
    Page,
    dice_expression,
    entry_total,
    flat_faces,
    held_items,
    no_dice,
    pool_html,
    side_by_side,
    wound_rows,
)
from ui.games.institut.pages.second_gun import SecondGun
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import Choice, spin_box
from ui.widgets.layout import column as _column
from ui.widgets.layout import row as _row
from ui.widgets.messages import text_label

# --- shooting and melee ------------------------------------------------------------------------------------


def weapon_item(weapon: Weapon) -> str:
    """How the weapon list shows a weapon: its name and what it rolls ("AK-74 (7 dice, burst 3/2)"), as the
    weapon picker shows a saved one."""
    return describe_weapon(SavedWeapon(weapon.key, frozen_map(table_values(weapon))))


@dataclass(frozen=True)
class AttackSheet:
    """What the rules make of the attack form."""

    shot: Shot
    attack: Pool
    defence: Defence
    defence_pool: Pool | None
    difficulty: int
    damage: Pool | None
    blade: Pool | None  # a punch blocked with a blade: the blade's damage to the puncher
    wounds: int
    rolls: int
    rounds: int
    second_gun: str = ""  # two guns: the second one, firing ``second_rounds`` from its own magazine
    second_rounds: int = 0


class AttackPage(Page):
    """Shooting (single, burst, full auto, two guns) and melee, against a dodge, a block or a difficulty."""

    def __init__(self, roller: Roller, data: InstitutTables) -> None:
        super().__init__(roller)
        self._sheet: AttackSheet | None = None
        self._problem = ""
        self._prefill_skill = False  # the skill chosen changed: read its dice from the attacker
        self._defence_shown: Defence | None = None
        self._nothing_to_defend_with = False  # the defence was set to a difficulty because of that, not by the GM
        self._unit = Unit.DICE  # what the situational modifiers count in (the GM's option), as the labels say
        self.weapon_hit_label = QLabel()
        self.armor_label = QLabel()
        self.cover_label = QLabel()
        self.preset = Choice[str | None]()
        self.name = QLineEdit(placeholderText=_("e.g. AK-74"))
        self.kind = Choice((_(label), kind) for kind, label in WEAPON_KIND_LABELS.items())
        self.skill_name = Choice((_(label), key) for key, label in SKILLS)
        self.skill = spin_box(0, 40)
        self.damage = spin_box(-40, 40)
        self.damage_label = QLabel()
        self.weapon_hit = spin_box(-40, 40)
        self.weapon_hit.setToolTip(_("The weapon's own modifier to the attack roll, from its description."))
        self.mode = Choice((_(label), mode) for mode, label in FIRE_MODE_LABELS.items())
        self.burst = QLineEdit()
        self.burst.setPlaceholderText(_("e.g. 3/2"))
        self.burst.setToolTip(_("The weapon's burst: rounds fired / rounds that hit."))
        self.identical = QCheckBox(_("Identical guns (otherwise one bullet misses)"))
        self.identical.setChecked(True)
        self.one_handed = QCheckBox(_("One-handed (pistol, submachine gun)"))
        self.one_handed.setToolTip(_("Only guns held in one hand may be fired two at once."))
        self.one_handed.setChecked(True)
        self.second_gun = SecondGun()
        self.point_blank = QCheckBox()
        self.called = Choice[str | None]()
        self.ambush = QCheckBox()
        self.visibility = spin_box(-20, 20)
        self.visibility.setToolTip(_("Not seeing the target well, or its natural cover: fewer dice to hit."))
        self._make_defence_inputs()
        self.sheet_label = text_label(rich=True)
        self.attack_entry = DiceEntry(_("Attack"), roller)
        self.defence_entry = DiceEntry(_("Defence"), roller)
        self.damage_entries = (DiceEntry(_("Damage"), roller), DiceEntry(_("Second gun's damage"), roller))
        self.blade_entry = DiceEntry(_("Blade against the fist"), roller)
        self.set_tables(data)
        self._build_layout()
        self.edits.watch(self.name, self.kind, self.skill, self.damage, self.weapon_hit, self.mode, self.burst,
                         self.identical, self.one_handed, self.point_blank, self.called, self.ambush, self.visibility,
                         self.attacker_held, self.defence, self.unseen, self.defence_skill, self.difficulty,
                         self.target_held, self.target_declares, self.block_skill, self.blade, self.blade_dice,
                         self.armor, self.cover, self.second_gun.gun, self.second_gun.bursts, *self.entries())
        self.kind.currentIndexChanged.connect(self._on_kind)
        self.skill_name.currentIndexChanged.connect(self._on_skill_name)
        self.preset.currentIndexChanged.connect(self._on_preset)
        self.defence.currentIndexChanged.connect(self._on_defence)

    def _make_defence_inputs(self) -> None:
        """The attacker's and the target's actions and everything the defence is rolled with."""
        self.attacker_held = Choice[str]()
        self.defence = Choice((_(label), kind) for kind, label in DEFENCE_LABELS.items())
        self.defence.setToolTip(_("A block uses Boxing, Melee or Fencing and must beat the attack; Melee and "
                                  "Fencing need something in hand, and a shot can be blocked only with a "
                                  "suitable object already in hand."))
        self.unseen = QCheckBox(_("The target cannot see the attacker (no dodge)"))
        self.defence_skill = spin_box(0, 40)
        self.block_skill = Choice((_(label), key) for key, label in SKILLS if key in BLOCK_SKILLS)
        self.block_skill.setToolTip(_("Fencing and Melee cannot block with empty hands."))
        self._block_skill_shown = ""
        self.difficulty = spin_box(0, 200)
        self.difficulty.setToolTip(_("For an immobile or unaware target: set by its size."))
        self.target_held = Choice[str]()
        # institut.md Decision: one who has not had its turn yet may declare its count at the moment of its dodge.
        # Declaring one action changes nothing (the dodge is that action): the count starts at two.
        self.target_declares = spin_box(1, rounds.MAX_DECLARED, 1, special=_("no declaration"))
        self.target_declares.setToolTip(_("The target declares its actions for the round now, before it dodges "
                                          "(only while its turn is still to come); with nothing declared, an "
                                          "out-of-turn dodge is its only action this round."))
        self.blade = QCheckBox(_("Blocks with a blade: a fist it stops takes the blade's damage"))
        self.blade_dice = spin_box(-40, 40)
        self.blade_dice.setToolTip(_("The blade's modifier to the defender's Strength, as for its own blows."))
        self.armor = spin_box(0, 40)
        self.armor.setToolTip(_("Not counted for a called shot at a part the armor does not cover (see the "
                                "called-shot table); put a helmet's dice under Cover then."))
        self.cover = spin_box(0, 40)
        self.cover.setToolTip(_("A car door, a tree, a comrade's back: damage dice off."))

    def set_tables(self, data: InstitutTables) -> None:
        """Offer the GM's weapons and called-shot parts."""
        self._data = data
        weapons = [(weapon_item(data.weapons[key]), key) for key in sorted(data.weapons, key=str.casefold)
                   if data.weapons[key].kind is not WeaponKind.GRENADE]  # thrown on the Grenade page
        self.preset.set_items([(_("Type the weapon in"), None), *weapons])
        parts = [(_("Not called"), None), *((called_shot_label(key), key) for key in sorted(data.called_shots))]
        self.called.set_items(parts)
        self._label_modifiers()

    def set_unit(self, unit: Unit) -> None:
        """Word the modifiers' inputs in the unit the GM's option counts them in ("dice" or "points")."""
        if unit is not self._unit:
            self._unit = unit
            self._label_modifiers()

    def _label_modifiers(self) -> None:
        modifiers = self._data.modifiers
        if self._unit is Unit.POINTS:
            self.point_blank.setText(_("Point blank (+{count} damage points)").format(
                count=modifiers.point_blank_damage))
            self.ambush.setText(_("Ambush, first round (+{count} points to hit)").format(count=modifiers.ambush_hit))
            self.weapon_hit_label.setText(_("Weapon's points to hit"))
            self.armor_label.setText(_("Body armor (points)"))
            self.cover_label.setText(_("Cover (points)"))
            return
        self.point_blank.setText(_("Point blank (+{count} damage dice)").format(count=modifiers.point_blank_damage))
        self.ambush.setText(_("Ambush, first round (+{count} dice to hit)").format(count=modifiers.ambush_hit))
        self.weapon_hit_label.setText(_("Weapon's dice to hit"))
        self.armor_label.setText(_("Body armor (dice)"))
        self.cover_label.setText(_("Cover (dice)"))

    def _build_layout(self) -> None:
        weapon = QGroupBox(_("Weapon"))
        form = QFormLayout(weapon)
        form.addRow(_("From the list"), self.preset)
        form.addRow(_("Name"), self.name)
        form.addRow(_("Kind"), self.kind)
        form.addRow(_("Skill"), _row(self.skill_name, self.skill))
        form.addRow(self.damage_label, self.damage)
        form.addRow(self.weapon_hit_label, self.weapon_hit)
        form.addRow(_("Firing"), self.mode)
        form.addRow(_("Burst"), self.burst)
        form.addRow(self.one_handed)
        form.addRow(self.identical)
        form.addRow(_("Second gun"), self.second_gun.gun)
        form.addRow(self.second_gun.bursts)
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
        form.addRow(_("Blocks with"), self.block_skill)
        form.addRow(_("Dodge or block dice"), self.defence_skill)
        form.addRow(_("Difficulty"), self.difficulty)
        form.addRow(_("Target's action"), self.target_held)
        form.addRow(_("Target declares now"), self.target_declares)
        form.addRow(self.blade)
        form.addRow(_("Blade (+ Strength)"), self.blade_dice)
        form.addRow(self.armor_label, self.armor)
        form.addRow(self.cover_label, self.cover)
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
        side_by_side(self, _column(weapon, situation), _column(defence, self.sheet_tabs), _column(dice, result))

    def entries(self) -> list[DiceEntry]:
        return [self.attack_entry, self.defence_entry, *self.damage_entries, self.blade_entry]

    # --- reacting --------------------------------------------------------------------------------
    def _on_kind(self) -> None:
        kind = self.kind.value()
        with self.edits.quietly():
            self.skill_name.select({WeaponKind.FIREARM: "shooting", WeaponKind.MELEE: "melee",
                                    WeaponKind.UNARMED: "boxing"}[kind])
        self.sync()
        self.edits.edited()

    def _on_skill_name(self) -> None:
        self._prefill_skill = True
        self.edits.edited()

    def _on_preset(self) -> None:
        key = self.preset.value()
        weapon = self._data.weapons.get(key) if key else None
        if weapon is None:
            return
        self._fill_from(SavedWeapon(weapon.key, frozen_map(table_values(weapon))))
        self.weapon_typed.emit()  # the GM's list, not the attacker's saved weapon
        self.edits.edited()

    def fits(self, weapon: SavedWeapon) -> bool:
        return weapon_kind(weapon) is not WeaponKind.GRENADE

    def apply_weapon(self, weapon: SavedWeapon, context: Context) -> None:
        if self.fits(weapon):
            with self.edits.quietly():
                self.preset.select(None)
            self._fill_from(weapon)

    def _fill_from(self, weapon: SavedWeapon) -> None:
        """Every weapon input from ``weapon``'s values; the skill's dice are read from the attacker again."""
        burst = weapon_burst(weapon)
        with self.edits.quietly():
            self.name.setText(weapon.name)
            self.kind.select(weapon_kind(weapon))
            self.skill_name.select(weapon_skill(weapon))
            self.damage.setValue(weapon.number(DAMAGE))
            self.weapon_hit.setValue(weapon.number(HIT))
            self.burst.setText(burst.text() if burst is not None else "")
            self.mode.select(weapon_mode(weapon))
            self.one_handed.setChecked(weapon.value(ONE_HANDED) is True)
        self._prefill_skill = True
        self.sync()

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
        self.one_handed.setEnabled(firearm)
        self.identical.setEnabled(firearm and mode is FireMode.TWO_GUNS)
        self.second_gun.set_enabled(firearm and mode is FireMode.TWO_GUNS)
        defence = self.defence.value()
        self.defence_skill.setEnabled(defence is not Defence.DIFFICULTY)
        self.target_held.setEnabled(defence is not Defence.DIFFICULTY)
        self.difficulty.setEnabled(defence is Defence.DIFFICULTY)
        self.unseen.setEnabled(defence is Defence.DODGE)
        self.block_skill.setEnabled(defence is Defence.BLOCK)
        punch_blocked = self.kind.value() is WeaponKind.UNARMED and defence is Defence.BLOCK
        self.blade.setEnabled(punch_blocked)
        self.blade_dice.setEnabled(punch_blocked and self.blade.isChecked())
        self.damage_entries[1].setVisible(self._sheet is not None and self._sheet.rolls > 1)
        self.blade_entry.setVisible(self._sheet is not None and self._sheet.blade is not None)

    def prefill(self, context: Context) -> None:
        attacker, target = context.attacker, context.target
        with self.edits.quietly():
            if attacker is not None:
                self.skill.setValue(attacker.attribute(self.skill_name.value()))
                self.ambush.setChecked(rounds.flag(attacker, rounds.AMBUSH) and context.state.clock.round <= 1)
            if target is not None:
                self.armor.setValue(target.attribute("armor"))
                self._choose_defence(target, context)
                self._prefill_defence(target)
        self._prefill_skill = False

    def _choose_defence(self, target: Combatant, context: Context) -> None:
        """A target with nothing left to dodge or block with is shot at against a difficulty (a dodge would be
        refused); once another target can defend again, back to a dodge, unless the GM chose meanwhile."""
        able = can_defend(target, context.state)
        defence = self.defence.value()
        if not able and defence is not Defence.DIFFICULTY:
            self.defence.select(Defence.DIFFICULTY)
            self._nothing_to_defend_with = True
        elif able and self._nothing_to_defend_with and defence is Defence.DIFFICULTY:
            self.defence.select(Defence.DODGE)
        self._nothing_to_defend_with = not able and self._nothing_to_defend_with

    def _on_defence(self) -> None:
        if not self.edits.quiet:
            self._nothing_to_defend_with = False  # the GM's own choice

    def _prefill_defence(self, target: Combatant) -> None:
        self._prefill_blade(target)
        if self.defence.value() is Defence.BLOCK:
            if self.block_skill.value() == self._block_skill_shown or not self._block_skill_shown:
                self.block_skill.select(max(BLOCK_SKILLS, key=target.attribute))  # the target's best
            self._block_skill_shown = self.block_skill.value()
            self.defence_skill.setValue(target.attribute(self.block_skill.value()))
        else:
            self.defence_skill.setValue(target.attribute("dodge"))

    def _prefill_blade(self, target: Combatant) -> None:
        """A target carrying a melee weapon blocks a punch with it: the weapon's modifier to its Strength."""
        blades = [weapon for weapon in target.weapons if weapon_kind(weapon) is WeaponKind.MELEE]
        self.blade.setChecked(bool(blades))
        self.blade_dice.setValue(blades[0].number(DAMAGE) if blades else 0)

    def refresh(self, context: Context) -> None:
        self.set_unit(context.unit())
        with self.edits.quietly():
            if self._prefill_skill and context.attacker is not None:
                self.skill.setValue(context.attacker.attribute(self.skill_name.value()))
                self._prefill_skill = False
            self.attacker_held.set_items(held_items(context.attacker))
            self._offer_second_gun(context)
            self.target_held.set_items(held_items(context.target))
            block_skill_changed = (self.defence.value() is Defence.BLOCK
                                   and self.block_skill.value() != self._block_skill_shown)
            if (self.defence.value() is not self._defence_shown or block_skill_changed) and context.target is not None:
                self._prefill_defence(context.target)
            self._defence_shown = self.defence.value()
        self._sheet, self._problem = None, ""
        try:
            self._sheet = self._work_out(context)
        except RulesError as problem:
            self._problem = str(problem)
        self._offer_block(context)
        self._offer_declaring(context)
        self.sync()
        self._show(context)

    def _offer_second_gun(self, context: Context) -> None:
        """The attacker's other firearms as the second gun; a new pick says whether the two guns are identical."""
        self.second_gun.offer(context.attacker, self.saved_weapon(context))
        same = self.second_gun.identical_suggestion(context.attacker, self.saved_weapon(context))
        if same is not None:
            self.identical.setChecked(same)

    def _offer_declaring(self, context: Context) -> None:
        """The target may declare its count now only while its turn is still to come (and it rolls a defence)."""
        target = context.target
        able = (target is not None and rounds.round_running(context.state)
                and self.defence.value() is not Defence.DIFFICULTY and may_declare_now(target, context.state))
        self.target_declares.setEnabled(able)
        if not able and self.declares_now():
            with self.edits.quietly():
                self.target_declares.setValue(1)

    def declares_now(self) -> int:
        """The count the target declares at its dodge (0: none; the spin box's lowest value)."""
        value = self.target_declares.value()
        return value if value > 1 else 0

    def _offer_block(self, context: Context) -> None:
        """Block is offered against a shot only to a target with a suitable object in hand, saying why not."""
        target = context.target
        firearm = self.kind.value() is WeaponKind.FIREARM
        able = target is None or not firearm or rounds.flag(target, rounds.IN_HAND)
        self.defence.set_enabled(Defence.BLOCK, able)
        tip = (_("A block uses Boxing, Melee or Fencing and must beat the attack; Melee and Fencing need something "
                 "in hand.") if able or target is None else
               _("{name} has nothing in hand to block a shot with: a shot can be blocked only with a suitable object "
                 "already in hand.").format(name=target.name))
        # Escaped rich text: a name that looks like markup is shown as typed, never rendered.
        self.defence.setToolTip(f"<p>{html.escape(tip)}</p>")

    def _shot(self, context: Context) -> Shot:
        attacker = context.attacker
        assert attacker is not None
        wounds, actions = attack_penalties(attacker, context.state, self.attacker_held.value())
        burst_text = self.burst.text().strip()
        burst: Burst | None = parse_burst(burst_text) if burst_text else None
        return Shot(kind=self.kind.value(), mode=self.mode.value(), skill=self.skill.value(),
                    damage=self.damage.value(), weapon_hit=self.weapon_hit.value(),
                    strength=attacker.attribute("strength"),
                    martial_arts=attacker.attribute("martial_arts"), burst=burst,
                    identical_guns=self.identical.isChecked(), one_handed=self.one_handed.isChecked(),
                    second_gun=bool(self.second_gun.gun.value()), bursts=self.second_gun.bursts.isChecked(),
                    point_blank=self.point_blank.isChecked(),
                    called=self._data.called_shots.get(self.called.value() or ""), armor=self.armor.value(),
                    cover=self.cover.value(), wound_penalty=wounds, action_penalty=actions,
                    ambush=self.ambush.isChecked(), visibility=self.visibility.value(), unit=context.unit())

    def _work_out(self, context: Context) -> AttackSheet:
        if context.attacker is None or context.target is None:
            raise RulesError(_("Choose an attacker and a target."))
        shot = self._shot(context)
        check_mode(shot)
        defence = self.defence.value()
        if defence is Defence.DODGE and self.unseen.isChecked():
            raise RulesError(_("An unseen attacker cannot be dodged: attack against a difficulty."))
        if defence is Defence.BLOCK:
            check_block(shot, context.target, self.block_skill.value())
        defending = None
        if defence is not Defence.DIFFICULTY:
            declared = declaring(context.target, self.declares_now())
            wounds, actions = defence_penalties(declared, context.state, self.target_held.value())
            defending = defence_pool(self.defence_skill.value(), wounds, actions)
        modifiers = context.data.modifiers
        used = rounds_fired(shot, modifiers)
        fire(context.state, context.attacker.id, self.saved_weapon(context), used)  # refused: too few loaded
        second = self.second_gun.work_out(context.attacker, self.saved_weapon(context), context.state)
        punch_blocked = shot.kind is WeaponKind.UNARMED and defence is Defence.BLOCK and self.blade.isChecked()
        blade = (blade_pool(context.target.attribute("strength"), self.blade_dice.value()) if punch_blocked
                 else None)
        return AttackSheet(shot, attack_pool(shot, modifiers), defence, defending, self.difficulty.value(),
                           damage_pool(shot, modifiers), blade, wounds_per_hit(shot, modifiers),
                           damage_rolls(shot), used, *second)

    def _show(self, context: Context) -> None:
        sheet = self._sheet
        if sheet is None:
            self.sheet_label.setText("")
            pyramid = context.pyramid(context.target) if context.target is not None else context.data.pyramid
            self.show_unknown([_("Miss"), _("No wound"), *(_(wound.label) for wound in pyramid.classes)])
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
        if sheet.blade is not None:
            parts.append(pool_html(_("Blade against the fist, if the block stops it"), sheet.blade))
        notes = []
        if self._nothing_to_defend_with and context.target is not None and sheet.defence_pool is None:
            notes.append(_("{name} has no action left to dodge or block with: the attack is rolled against a "
                           "difficulty (set it by the target's size).").format(name=context.target.name))
        if self._only_action(context, sheet) and context.target is not None:
            notes.append(_("{name} has declared nothing and its turn is still to come: this defence is its only "
                           "action this round, unless it declares its count now.").format(name=context.target.name))
        if sheet.wounds > 1:
            notes.append(ngettext("A hit puts {count} wound of the rolled class.",
                                  "A hit puts {count} wounds of the rolled class.", sheet.wounds).format(
                count=sheet.wounds))
        if sheet.rolls > 1:
            notes.append(_("Two damage rolls, one per gun."))
        if sheet.rounds:
            notes.append(ngettext("Uses {count} round.", "Uses {count} rounds.", sheet.rounds).format(
                count=sheet.rounds))
        if sheet.second_gun:
            notes.append(ngettext("{weapon} fires {count} round from its own magazine.", "{weapon} fires {count} "
                                  "rounds from its own magazine.", sheet.second_rounds).format(
                weapon=sheet.second_gun, count=sheet.second_rounds))
        if notes:
            parts.append("<i>{}</i>".format("<br>".join(html.escape(note) for note in notes)))
        self.sheet_label.setText("<br>".join(parts))
        self._show_odds(context, sheet)
        self._set_expressions(context, sheet)

    def _only_action(self, context: Context, sheet: AttackSheet) -> bool:
        """Whether the target's defence will be its only action this round (institut.md: "If the character has not
        declared more than one action …, an out-of-turn dodge is its only action this round")."""
        target, state = context.target, context.state
        if target is None or sheet.defence_pool is None or self.declares_now() or self.target_held.value():
            return False
        current = state.clock.current
        in_turn = current is not None and target.id in current.ids
        return (rounds.round_running(state) and not in_turn and target.id not in state.clock.acted
                and rounds.round_actions(target).nothing_declared)

    def _show_odds(self, context: Context, sheet: AttackSheet) -> None:
        assert context.target is not None
        opposing = sheet.defence_pool.dice if sheet.defence_pool is not None else sheet.difficulty
        damage = sheet.damage.dice if sheet.damage is not None else None
        pyramid = context.pyramid(context.target)
        odds = attack_outcome_distribution(sheet.attack.dice, sheet.defence, opposing, damage,
                                           pyramid, context.tie(), sides=context.sides(),
                                           attack_points=sheet.attack.points,
                                           damage_points=sheet.damage.points if sheet.damage is not None else 0)
        rows = [(_(MISS_LABELS[sheet.defence]), odds["miss"])]
        if damage is None:
            rows.append((_("Hit"), odds["hit"]))
        else:
            classes = wound_rows({None: odds["none"], **{k: odds[k] for k in pyramid.keys}}, sheet.wounds, pyramid)
            rows += [(_("Hit, no wound") if index == 0 else label, p) for index, (label, p) in enumerate(classes)]
        self.show_odds(rows, attack_chart(rows, damage, context.sides()))

    def _set_expressions(self, context: Context, sheet: AttackSheet) -> None:
        with self.edits.quietly():
            self.attack_entry.set_expression(dice_expression(sheet.attack.dice, context.sides(), sheet.attack.points),
                                             _(NO_DICE) if not sheet.attack.points else no_dice(sheet.attack.points))
            if sheet.defence_pool is None and self._nothing_to_defend_with and context.target is not None:
                self.defence_entry.set_expression(None, _("{name} has no action left to dodge with.").format(
                    name=context.target.name))
            elif sheet.defence_pool is None:
                self.defence_entry.set_expression(None, _("The target rolls nothing against a difficulty."))
            else:
                self.defence_entry.set_expression(dice_expression(sheet.defence_pool.dice, context.sides()), _(NO_DICE))
            hit = self._hit(context, sheet)
            if sheet.blade is None or hit:
                self.blade_entry.set_expression(None, _("Not needed: the block did not stop the blow."))
            else:
                self.blade_entry.set_expression(dice_expression(sheet.blade.dice, context.sides()), _(NO_DICE))
            for number, entry in enumerate(self.damage_entries):
                if number >= sheet.rolls:
                    entry.set_expression(None, _("Only one gun's bullet."))
                elif hit is False:
                    entry.set_expression(None, _("Not needed: the attack did not get through."))
                elif sheet.damage is None:
                    entry.set_expression(None, _("No damage roll: a hit there wounds nobody."))
                else:
                    entry.set_expression(dice_expression(sheet.damage.dice, context.sides(), sheet.damage.points),
                                         _(NO_DICE) if not sheet.damage.points else no_dice(sheet.damage.points))

    def _hit(self, context: Context, sheet: AttackSheet) -> bool | None:
        """Whether the attack got through (None while its dice are missing)."""
        attack = entry_total(self.attack_entry, sheet.attack.points)
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
            self.target_held.value() if sheet.defence_pool is not None else "", self.saved_weapon(context),
            flat_faces(self.blade_entry) if sheet.blade is not None and hit is False else (),
            sheet.attack.points, sheet.damage.points if sheet.damage is not None else 0,
            self.declares_now() if sheet.defence_pool is not None else 0, sheet.second_gun, sheet.second_rounds)

    def outcome(self, operation: Operation, context: Context) -> str | None:
        sheet = self._sheet
        if sheet is None or not isinstance(operation, InstitutAttack) or context.target is None:
            return None
        if not self._hit(context, sheet):
            return _(MISS_LABELS[sheet.defence])
        if not operation.damage_rolls:
            return _("Hit")
        pyramid = context.pyramid(context.target)
        wound = pyramid.classify(sum(operation.damage_rolls[0]) + operation.damage_points)
        if wound is None:
            return _("Hit, no wound")
        label = _(pyramid.label(wound))
        return _("{wound} ×{count}").format(wound=label, count=sheet.wounds) if sheet.wounds > 1 else label
