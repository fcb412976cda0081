"""The SR3 attack dialog's form: weapon, situation, the target's defence, the dice, and the sheet as text.

Each group box hands the dialog its inputs (every change recomputes the sheet) and reads back as plain values;
:class:`~ui.games.sr3.attack_dice.DiceBox` (the dice) decides which tests the dice entries need once the attack's dice
are in.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Final, TypeVar

from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QWidget,
)

from app.i18n import N_, _, ngettext
from rules.dice import DiceExpression
from rules.encounter import Combatant, Weapon
from rules.errors import RulesError
from rules.systems.sr3.damage import (
    AMMO_LABELS,
    CALLED_SHOT_LABELS,
    FIRING_MODE_LABELS,
    Ammo,
    CalledShotEffect,
    DamageCode,
    describe_damage_code,
    read_typed_damage_code,
)
from rules.systems.sr3.dice import TargetNumberTest
from rules.systems.sr3.levels import LEVEL_LABELS
from rules.systems.sr3.monitor import PHYSICAL, STUN, wound_modifiers
from rules.systems.sr3.pools import pool_cap, pool_over_skill
from rules.systems.sr3.ranged import (
    MODIFIER_LABELS,
    RANGE_LABELS,
    VISION_LABELS,
    AttackerMovement,
    RangedAttack,
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
    BLAST_FALLOFF,
    COMPENSATION,
    DAMAGE,
    DAMAGE_CODE_HELP,
    SPREAD_POWER,
    WEAPON_KIND_LABELS,
    Smart,
    ammunition,
    firing_modes,
    shown_value,
    smart_system,
    weapon_class,
    weapon_kind,
)
from ui.games.sr3.attack_target import HitRow
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import Choice, signed, spin_box
from ui.widgets.layout import row as _row

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


def attack_pool_limit(combatant: Combatant | None, skill: int, at_most_skill: bool) -> tuple[int, str, str]:
    """The most combat pool dice the attack test may add, the note beside the field, and why (the encounter's SR3
    core option caps them at the skill's rating)."""
    if combatant is None:
        return 0, "", ""
    left = pool_left(combatant)
    cap = pool_cap(skill, left, at_most_skill)
    if cap >= left:
        return cap, _("{left} left").format(left=left), ""
    # As short as "{left} left": a longer note would widen the dice column past a laptop screen.
    why = ". ".join((_("{left} left").format(left=left), pool_over_skill(skill, left)))
    return cap, _("at most {cap}").format(cap=cap), why


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


def damage_code_problem(text: str) -> str:
    """Why the damage code typed cannot be read ("": it can)."""
    try:
        read_typed_damage_code(text)
    except RulesError as problem:
        return str(problem)
    return ""


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


def _lowered_text(base: DamageCode, inputs: ShotInputs) -> str:
    """The code a blast's distance or a shotgun's spread lowered, naming why."""
    why = []
    if inputs.falloff and inputs.blast_metres:
        why.append(_("{metres} m from the blast").format(metres=inputs.blast_metres))
    if inputs.spread_power and inputs.defence.shotgun_spread:
        why.append(_("spread {steps}").format(steps=inputs.defence.shotgun_spread))
    return _("{code} ({why})").format(code=describe_damage_code(base), why=", ".join(why))


def damage_html(sheet: ShotSheet, inputs: ShotInputs) -> str:
    """The damage code step by step (mode, ammunition, called shot), the resistance and dodge TNs."""
    mode = inputs.attack.mode
    codes = [describe_damage_code(sheet.base)]
    if sheet.weapon_code is not None:  # "Power falling with distance … level unchanged", or spread shot
        codes[:1] = [describe_damage_code(sheet.weapon_code), _lowered_text(sheet.base, inputs)]
    if sheet.mode_code != (sheet.base.power, sheet.base.level):
        rounds = ngettext("{count} round", "{count} rounds", inputs.attack.rounds or 1).format(
            count=inputs.attack.rounds or 1)
        if sheet.wasted:
            rounds = ngettext("{rounds}, {count} wasted", "{rounds}, {count} wasted", sheet.wasted).format(
                rounds=rounds, count=sheet.wasted)
        codes.append(_("{code} ({mode}, {rounds})").format(code=_code_text(*sheet.mode_code), mode=mode.value,
                                                         rounds=rounds))
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
        self.falloff = spin_box(0, 20, special=_("none"), name=_("Power lost per metre"))
        self.falloff.setToolTip(_("A grenade's or other blast's fall-off: its Power drops by this much for each metre "
                                  "between the blast and the target, the level unchanged."))
        self.spread_power = spin_box(0, 20, special=_("none"), name=_("Power lost per spread step"))
        self.spread_power.setToolTip(_("A shotgun's shot spreads with range and choke: each step of spread at the "
                                       "target (the target's defence) lowers the Power by this much."))
        self.code_error = QLabel()
        self.code_error.setWordWrap(True)
        self.mode: Choice[FiringMode] = _choice(())
        self.offer_modes(None)
        self.rounds = spin_box(1, 1, 1)
        self.fired = spin_box(0, 99)
        self.fired.setToolTip(_("Rounds this attacker already fired in this phase (recoil adds up)."))
        self.switch_metres = spin_box(0, 99, special=_("no change"), suffix=_(" m"),
                                      name=_("Metres from the previous target"))
        self.switch_metres.setToolTip(_("Full auto at a later target of the burst: metres from the previous target. "
                                        "Changing target wastes 1 round per metre between targets (never with a "
                                        "smartgun); the wasted rounds leave the clip and add to the recoil."))
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
        form.addRow(_("Damage code"), _row(self.code, _("Power − per m"), self.falloff))
        form.addRow("", self.code_error)
        form.addRow(_("Firing mode"), _row(self.mode, _("rounds"), self.rounds))
        form.addRow(_("Rounds fired this phase"), _row(self.fired, _("target change"), self.switch_metres))
        form.addRow(_("Recoil compensation"), _row(self.compensation, _("gyro"), self.gyro))
        form.addRow(_("Weapon class"), _row(self.weapon_class, _("Power − per spread"), self.spread_power))
        form.addRow(_("Range"), _row(self.range, self.distance))
        form.addRow(_("Ammunition"), self.ammo)
        form.addRow(_("Weapon kind"), self.kind)
        form.addRow(_row(self.heavy, self.smartgun))

    def inputs(self) -> list[QWidget]:
        """Inputs whose every change recomputes the sheet (mode and class have their own slot)."""
        return [self.name, self.code, self.falloff, self.spread_power,
                self.rounds, self.fired, self.switch_metres, self.compensation, self.gyro, self.range,
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
        self.falloff.setValue(weapon.number(BLAST_FALLOFF))
        self.spread_power.setValue(weapon.number(SPREAD_POWER))
        self.smartgun.setChecked(smart_system(weapon) is not Smart.NONE)

    def limit_rounds(self, data: Sr3Tables) -> None:
        """Rounds within what the mode fires; only full auto lets the GM choose."""
        rule = data.firing_modes[self.firing_mode()]
        self.rounds.setRange(rule.min_rounds, rule.max_rounds)
        self.rounds.setEnabled(rule.max_rounds > rule.min_rounds)
        full_auto = self.firing_mode() is FiringMode.FA
        if not full_auto:
            self.switch_metres.setValue(0)  # only a full-auto burst moves between targets
        self.switch_metres.setEnabled(full_auto)


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
        self.hit = HitRow(COMBO_LENGTH)
        self._build_layout()

    def _build_layout(self) -> None:
        form = QFormLayout(self)
        form.addRow(_("Visibility"), self.visibility)
        form.addRow(_("Vision"), self.vision)
        # Difficult terrain beside the movement: its row went to what the shot hits (the dialog must not grow).
        form.addRow(_("Attacker"), _row(self.attacker_movement, self.difficult))
        form.addRow(_("Shooting at"), self.hit)
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
                self.wounds, self.magnification, self.gm, self.quick_draw, self.holstered, *self.hit.inputs()]

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
        self.blast_metres = spin_box(0, 999, suffix=_(" m"), name=_("Metres from the blast"))
        self.blast_metres.setToolTip(_("Metres between the blast and the target: a blast's Power falls with them "
                                       "(the weapon's Power lost per metre)."))
        grid = QGridLayout(self)
        _two_pairs_a_row(grid, ((_("Ballistic armor"), self.ballistic), (_("Impact armor"), self.impact),
                                (_("Wound modifier"), self.wounds),
                                (_(MODIFIER_LABELS["shotgun_spread"]), self.spread),
                                (_(MODIFIER_LABELS["cramped"]), self.cramped)))
        grid.addWidget(self.area, 2, 2)
        grid.addWidget(self.blast_metres, 2, 3)

    def inputs(self) -> list[QWidget]:
        """Inputs whose every change recomputes the sheet."""
        return [self.ballistic, self.impact, self.wounds, self.spread, self.cramped, self.area, self.blast_metres]

    def values(self) -> Defence:
        """The defence as the rules take it."""
        return Defence(self.ballistic.value(), self.impact.value(), self.wounds.value(), self.spread.value(),
                       self.cramped.value(), self.area.isChecked())


def ranged_attack(weapon: WeaponBox, place: SituationBox, aim_actions: int, skill: int,
                  strength: int | None) -> RangedAttack:
    """The attack as the weapon and situation boxes set it (``aim_actions`` as the aim counts for this shot,
    ``strength`` what a Strength-scaled range row uses)."""
    distance = weapon.distance.value()
    return RangedAttack(
        range_category=weapon.range.value(), distance=distance or None,
        weapon_class=weapon.weapon_class.value(), strength=strength,
        magnification=place.magnification.value(), visibility=place.visibility.value(),
        vision=place.vision.value(), attacker_movement=place.attacker_movement.value(),
        difficult_terrain=place.difficult.isChecked(), target_movement=place.target_movement.value(),
        partial_cover=place.cover.isChecked(), blind_fire=place.blind.isChecked(),
        melee_opponents=place.melee.value(), target_index=place.target_index.value(),
        smartgun=weapon.smartgun.isChecked(), smartlink=place.smartlink.isChecked(),
        smartgoggles=place.goggles.isChecked(), laser_sight=place.laser.isChecked(),
        aim_actions=aim_actions, skill=skill, called_shot=place.called.isChecked(), weapon_kind=weapon.kind.value(),
        second_firearm=place.second.isChecked(), other_firearm_recoil=place.other_recoil.value(),
        wound_modifier=place.wounds.value(), mode=weapon.firing_mode(), rounds=weapon.rounds.value(),
        rounds_fired_before=weapon.fired.value(), recoil_compensation=weapon.compensation.value(),
        gyro=weapon.gyro.value(), heavy_weapon=weapon.heavy.isChecked(), gm_modifier=place.gm.value())
