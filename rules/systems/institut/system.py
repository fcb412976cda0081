"""Institute as a RuleSystem: summed initiative pools, declared actions, the life pyramid, grenade timers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Final

from rules.encounter import (
    STATUS_LABELS,
    Combatant,
    Encounter,
    JsonValue,
    Slot,
    SlotKind,
    Status,
    Weapon,
    frozen_map,
)
from rules.errors import OperationError, RulesError
from rules.harm import Harm
from rules.history import History, Operation
from rules.recent import Recent
from rules.systems.base import (
    AttributeSpec,
    BudgetItem,
    DiceSpec,
    Hook,
    HookResult,
    OptionKind,
    OptionSpec,
    Reminder,
    RuleSystem,
    TrackSpec,
    track_reading,
)
from rules.systems.institut import arms, move_limit, rounds, typed_harm
from rules.systems.institut.combat import DEFAULT_SIDES, DIE_CHOICES, DIE_LABELS, UNIT_LABELS, DodgeTie, Unit
from rules.systems.institut.move_limit import MOVEMENT_OPTION
from rules.systems.institut.pyramid import (
    CLASS_CONTEXT,
    CLASS_LABELS,
    CLASS_SHORT,
    MORTAL,
    Pyramid,
    Row,
    pyramid_from_rows,
)
from rules.systems.institut.tables import TABLE_KEYS, InstitutTables, default_table, load_tables
from rules.text import N_, NP_, _, ngettext
from rules.turns import delayed_slots

ACTION, HELD_ACTION = "action", "held"

_ATTRIBUTES: Final[tuple[AttributeSpec, ...]] = (
    AttributeSpec("agility", N_("Agility"), 3, 0, 20, N_("Agi")),
    AttributeSpec("thinking", N_("Thinking"), 3, 0, 20, N_("Thi")),
    AttributeSpec("strength", N_("Strength"), 3, 0, 20, N_("Str")),
    AttributeSpec("athletics", N_("Athletics"), 1, 0, 20, N_("Ath")),
    AttributeSpec("shooting", N_("Shooting"), 2, 0, 20, N_("Sho")),
    AttributeSpec("dodge", N_("Dodge"), 2, 0, 20, N_("Dod")),
    AttributeSpec("boxing", N_("Boxing"), 0, 0, 20, N_("Box")),
    AttributeSpec("melee", N_("Melee"), 0, 0, 20, NP_("institut", "Mel"), context="institut"),
    AttributeSpec("fencing", N_("Fencing"), 0, 0, 20, N_("Fen")),
    AttributeSpec("martial_arts", N_("Martial arts"), 0, 0, 20, N_("MA")),
    AttributeSpec("armor", N_("Armor (damage dice)"), 0, 0, 20, NP_("institut", "Arm"), context="institut"),
)

_TABLE_HELP: Final[dict[str, str]] = {
    "pyramid": N_("Default life pyramid: for each class the damage total that enters it, its boxes and the "
                  "penalty dice it gives. Each character may have its own (details panel)."),
    "called_shots": N_("Called shots: dice to hit, damage dice (null: no damage), and whether body armor "
                       "counts there. Add parts as you like; null removes one."),
    "modifiers": N_("Dice modifiers of the rules (−1 is one die fewer)."),
    "weapons": N_("Your weapons, e.g. {\"AK-74\": {\"damage\": 7, \"burst\": \"3/2\", \"magazine\": 30}, "
                  "\"Knife\": {\"kind\": \"melee\", \"damage\": 1, \"one_handed\": true}, "
                  "\"F-1\": {\"kind\": \"grenade\", \"damage\": 8, \"timed\": true, \"radius\": 15, "
                  "\"falloff\": \"3:0, 7:-2, 15:-4\"}}. A melee weapon may name its skill (\"skill\": "
                  "\"fencing\"); a grenade its blast radius in metres and its dice by distance (up to metres: dice "
                  "change, nearest first). The attack dialog offers them under “From the list”."),
}

#: The tables' fields as the settings form names them (the data keeps its keys).
_TABLE_LABELS: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "pyramid": (("from", N_("Damage from")), ("boxes", N_("Boxes")), ("penalty", N_("Penalty dice")),
                *CLASS_LABELS.items()),
    "called_shots": (("hit", N_("Dice to hit")), ("damage", N_("Damage dice")),
                     ("armor", N_("Body armor counts"))),
    "modifiers": (("extra_action", N_("Dice per extra action")),
                  ("extra_action_metres", N_("Metres of movement less per extra action")),
                  ("sprint_multiplier", N_("Sprint: movement times")),
                  ("ambush_hit", N_("Ambush: dice to hit")),
                  ("point_blank_damage", N_("Point blank: damage dice")),
                  ("full_auto_hit", N_("Full auto: dice to hit")),
                  ("full_auto_damage", N_("Full auto: damage dice")),
                  ("full_auto_extra_hits", N_("Full auto: extra hits")),
                  ("full_auto_ammo_multiplier", N_("Full auto: rounds fired times")),
                  ("two_guns_hit", N_("Two guns: dice to hit")),
                  ("suppression_per_bullet", N_("Suppression: difficulty per bullet"))),
    "weapons": (("kind", N_("Kind")), ("damage", N_("Damage dice")), ("hit", N_("Dice to hit")), ("burst", N_("Burst")),
                ("magazine", N_("Magazine")), ("one_handed", N_("One-handed")), ("skill", N_("Skill")),
                ("timed", N_("Timed")), ("radius", N_("Blast radius (m)")), ("falloff", N_("Dice by distance"))),
}

DIE: Final[str] = "die"
LOWERED_AFTER_ROLL: Final[str] = "declared_count_lowered_after_roll"
MODIFIER_UNIT: Final[str] = "modifier_unit"

_OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec("pyramid", N_("Life pyramid"), OptionKind.TABLE, default_table("pyramid"), help=_TABLE_HELP["pyramid"],
               labels=_TABLE_LABELS["pyramid"]),
    OptionSpec("called_shots", N_("Called shots"), OptionKind.TABLE, default_table("called_shots"),
               help=_TABLE_HELP["called_shots"], labels=_TABLE_LABELS["called_shots"]),
    OptionSpec("modifiers", N_("Dice modifiers"), OptionKind.TABLE, default_table("modifiers"),
               help=_TABLE_HELP["modifiers"], labels=_TABLE_LABELS["modifiers"]),
    OptionSpec("weapons", N_("Weapons"), OptionKind.TABLE, default_table("weapons"), help=_TABLE_HELP["weapons"],
               labels=_TABLE_LABELS["weapons"]),
    OptionSpec("dodge_tie", N_("A dodge equal to the attack"), OptionKind.CHOICE, DodgeTie.ATTACKER.value,
               choices=((DodgeTie.ATTACKER.value, N_("does not avoid it (like a block)")),
                        (DodgeTie.DEFENDER.value, N_("avoids it")))),
    # institut.md Decision: "d6, summed (default …; the die size is an option)".
    OptionSpec(DIE, N_("Die of every pool"), OptionKind.CHOICE, str(DEFAULT_SIDES),
               choices=tuple((str(sides), DIE_LABELS[sides]) for sides in DIE_CHOICES),
               help=N_("The rules text names no die type. Initiative, attacks, dodges, damage and throws all roll "
                       "this die, summed; the life pyramid's thresholds are for d6, so change them with the die.")),
    # institut.md Decision: the declared count "cannot be lowered after a roll (default)".
    OptionSpec(LOWERED_AFTER_ROLL, N_("The declared number of actions may be lowered after a roll"), OptionKind.BOOL,
               False, help=N_("Off: once a combatant has rolled for an action this round, it can declare more "
                              "actions but not fewer (the rolls already made were at the declared penalty).")),
    # institut.md Decision: the seed gives an extra action's −1 and full auto's two in dice; "all other
    # modifiers … count in dice too (default …); option: points added to the total".
    OptionSpec(MODIFIER_UNIT, N_("Situational modifiers count in"), OptionKind.CHOICE, Unit.DICE.value,
               choices=tuple((unit.value, label) for unit, label in UNIT_LABELS.items()),
               help=N_("Ambush, point blank, called shots, two guns, a weapon's own modifier to hit, sight, armor "
                       "and cover. An extra action's −1 and full auto's dice are dice either way, as the rules "
                       "text gives them.")),
    MOVEMENT_OPTION,
)


def count_may_be_lowered_after_roll(encounter: Encounter) -> bool:
    """Whether the GM's option lets a declared count go down once the combatant has rolled this round."""
    return encounter.options.get(LOWERED_AFTER_ROLL) is True


def _with_hit(record: JsonValue) -> JsonValue:
    """A weapon record with its dice to hit (0 when it has none), placed after its damage as the form shows it."""
    if not isinstance(record, Mapping) or "hit" in record:
        return record
    fields: dict[str, JsonValue] = {}
    for field, item in record.items():
        fields[field] = item
        if field == "damage":
            fields["hit"] = 0
    fields.setdefault("hit", 0)
    return frozen_map(fields)


class InstitutSystem(RuleSystem):
    """Institute: (Agility + Thinking) d6 initiative, one action a round, the life pyramid."""

    id = "institut"
    title = N_("Institute")


    def sample(self) -> History:
        from rules.systems.institut.sample import sample  # on first use: opening a fight needs no sample

        return sample()

    def option_specs(self) -> Sequence[OptionSpec]:
        return _OPTIONS

    def attribute_specs(self) -> Sequence[AttributeSpec]:
        return _ATTRIBUTES

    def shown_table(self, encounter: Encounter, key: str) -> JsonValue:
        """The weapons with every field the form edits: a weapon saved before it had its own dice to hit shows
        them as 0, so the column is there to fill in."""
        value = self.option(encounter, key)
        if key != "weapons" or not isinstance(value, Mapping):
            return value
        return frozen_map({name: _with_hit(record) for name, record in value.items()})

    def validate_option(self, spec: OptionSpec, value: JsonValue) -> JsonValue:
        if spec.kind is OptionKind.CHOICE and not isinstance(value, str):
            # OptionSpec.validate looks a choice up in a set, which a table value (unhashable) would crash.
            raise RulesError(_("Option “{option}” cannot be {value!r}.").format(option=_(spec.label), value=value))
        value = spec.validate(value)
        if spec.key == "weapons" and isinstance(value, Mapping):
            value = frozen_map({name: arms.without_plain_hit(record) if isinstance(record, Mapping) else record
                                for name, record in value.items()})
        if spec.key in TABLE_KEYS and isinstance(value, Mapping):
            load_tables({spec.key: value})  # raises a RulesError naming the bad entry
        return value

    # --- combatants ---------------------------------------------------------------------------
    def prepare(self, combatant: Combatant, encounter: Encounter) -> Combatant:
        """Every class of the pyramid gets a track (a bad pyramid of the character's own is refused)."""
        try:
            pyramid_for(combatant, encounter)
        except RulesError as problem:
            raise OperationError(_("{name}'s life pyramid: {problem}").format(name=combatant.name,
                                                                              problem=problem)) from None
        damage = {key: combatant.boxes(key) for key in pyramid_for(combatant, encounter).keys}
        return replace(combatant, damage=frozen_map({**combatant.damage, **damage}))

    def tracks(self, combatant: Combatant, encounter: Encounter) -> Sequence[TrackSpec]:
        pyramid = pyramid_for(combatant, encounter)
        # A class the GM named has no short name of its own: the condition column shows its first letters.
        return tuple(TrackSpec(wound.key, wound.label, wound.boxes,
                               abbreviation=CLASS_SHORT.get(wound.key, wound.label[:4]),
                               context=CLASS_CONTEXT if wound.key in CLASS_SHORT else "")
                     for wound in pyramid.classes)

    def status(self, combatant: Combatant, encounter: Encounter) -> Status:
        return combatant_status(combatant, encounter)

    def apply_harm(self, combatant: Combatant, track: str, amount: int, encounter: Encounter) -> Combatant:
        """``amount`` wounds of class ``track`` (each to the first free box, overflowing upwards); < 0 heals."""
        pyramid = pyramid_for(combatant, encounter)
        if amount >= 0:
            filled, _placed = pyramid.place(combatant.damage, track, amount)
            return replace(combatant, damage=frozen_map({**combatant.damage, **filled}))
        return combatant.with_damage(track, max(0, combatant.boxes(track) + amount))

    def harm_presets(self, track: str) -> Sequence[tuple[str, int]]:
        return ((N_("One wound"), 1), (N_("Two wounds"), 2), (N_("Three wounds"), 3))

    def parse_harm(self, text: str, combatant: Combatant, track: str, encounter: Encounter,
                   heal: bool = False) -> Harm:
        """``Heavy``, ``2 Heavy``, ``2`` (on the chosen class) or ``=17`` (off the target's pyramid)."""
        return typed_harm.parse_harm(text, pyramid_for(combatant, encounter), combatant.damage,
                                     self.tracks(combatant, encounter), track, heal)

    def harm_notation(self) -> str:
        return _("A wound class, a number of wounds or a damage total, e.g. {examples}").format(
            examples=typed_harm.notation_examples())

    def shared_harm_note(self, encounter: Encounter) -> str:
        return _("Damage is rolled separately for each creature in a blast, with its own cover: a total typed here "
                 "is read off each target's own pyramid. For a grenade thrown now, use Attack.")

    def condition_summary(self, combatant: Combatant, encounter: Encounter) -> str:
        """The marked wound classes, heaviest first (``Crit 1/1 · Hvy 2/2 · Lgt 2/4``): the worst filled class
        sets the penalty, so it comes first and a narrow cell cuts off only the lightest."""
        tracks = self.tracks(combatant, encounter)
        marked = [track_reading(track, combatant.boxes(track.key)) for track in reversed(tracks)
                  if combatant.boxes(track.key)]
        return " · ".join(marked) if marked else _("Unhurt")

    def condition_notes(self, combatant: Combatant, encounter: Encounter) -> Sequence[str]:
        data = tables(encounter)
        pyramid = pyramid_for(combatant, encounter)
        notes = []
        worst = pyramid.worst(combatant.damage)
        wounds = pyramid.penalty(combatant.damage)
        if worst is not None and wounds:
            notes.append(ngettext("{wound} wound: −{count} die on every action.",
                                  "{wound} wound: −{count} dice on every action.", wounds).format(
                wound=_(pyramid.label(worst)), count=wounds))
        notes.extend(_round_notes(combatant, encounter, data, wounds))
        status = self.status(combatant, encounter)
        if status is Status.DYING:
            notes.append(_("Dying: a box of the {wound} class is filled (the GM decides death).").format(
                wound=_(pyramid.label(pyramid.heaviest))))
        elif status is not Status.ACTIVE:
            notes.append(_(STATUS_LABELS[status]))
        return notes

    # --- initiative ---------------------------------------------------------------------------
    def initiative_dice(self, combatant: Combatant, encounter: Encounter) -> DiceSpec:
        """A pool of Agility + Thinking dice (d6 unless the GM chose another die), summed."""
        return DiceSpec(max(1, combatant.attribute("agility") + combatant.attribute("thinking")), pool_die(encounter))

    def remaining_slots(self, encounter: Encounter) -> list[Slot]:
        clock = encounter.clock
        waiting = [c for c in encounter.combatants.values()
                   if c.id not in clock.acted and c.initiative is not None and self.can_act(c, encounter)
                   and not rounds.skips_this_round(c, encounter)]
        waiting.sort(key=lambda c: order_key(c, encounter), reverse=True)
        actors = [Slot(SlotKind.ACTORS, (c.id,), None) for c in waiting]
        return actors + delayed_slots(encounter) + timer_slots(encounter)

    def score_text(self, combatant: Combatant, encounter: Encounter) -> str:
        if combatant.initiative is None:
            return "–"
        score = str(combatant.initiative.rolled)
        if rounds.goes_first(combatant, encounter):
            return _("{score} (first)").format(score=score)
        if rounds.skips_this_round(combatant, encounter):
            return _("{score} (skips)").format(score=score)
        return score

    # --- timing and the action budget ---------------------------------------------------------
    def on_hook(self, encounter: Encounter, hook: Hook, actors: tuple[str, ...]) -> HookResult:
        if hook is Hook.ROUND_END:
            return _end_round(encounter)
        if hook is Hook.ROUND_START:
            return HookResult(_reset_round(encounter))
        return HookResult(encounter)

    def action_budget(self, combatant: Combatant, encounter: Encounter) -> Sequence[BudgetItem]:
        actions = rounds.round_actions(combatant)
        allowed = actions.declared if not actions.nothing_declared else 1
        penalty = rounds.action_penalty(actions, tables(encounter).modifiers)
        label = N_("actions") if not penalty else _("actions (every roll −{count})").format(count=penalty)
        items = [BudgetItem(ACTION, label, actions.taken, allowed, N_("{name} takes an action."))]
        if actions.held:
            items.append(BudgetItem(HELD_ACTION, N_("held"), actions.held - len(actions.pending), actions.held,
                                    N_("{name} takes a held action.")))
        return items

    def spend_action(self, combatant: Combatant, kind: str, encounter: Encounter) -> Combatant:
        """An action done (declaring one more if every declared one is used); ``held``: the oldest held one."""
        if kind not in (ACTION, HELD_ACTION):
            raise OperationError(_("Unknown action kind {kind!r}: action or held.").format(kind=kind))
        check_may_act(combatant, encounter)
        actions = rounds.round_actions(combatant)
        if kind == HELD_ACTION:
            if not actions.pending:
                raise OperationError(_("{name} holds no action.").format(name=combatant.name))
            return rounds.with_actions(combatant, rounds.after_action(actions, actions.pending[0]))
        return rounds.with_actions(combatant, rounds.after_action(actions))

    # --- weapons ------------------------------------------------------------------------------
    def weapon_fields(self) -> Sequence[OptionSpec]:
        return arms.FIELDS

    def check_weapon(self, weapon: Weapon) -> Weapon:
        return arms.check_weapon(weapon)

    def describe_weapon(self, weapon: Weapon) -> str:
        return arms.describe_weapon(weapon)

    def reload_action(self, combatant: Combatant, weapon: Weapon, encounter: Encounter) -> str | None:
        """One action, while a round runs (before the fight, reloading costs nothing the app counts).

        The seed lists changing a magazine among the single actions of a turn: "Во время своего хода игрок может
        заявить одно любое единичное действие — выстрелить, увернуться от атаки, пробежать некоторое
        расстояние, сменить магазин в оружии, зарядить и бросить гранату и так далее." So it is counted like
        any other action: one more declared if the declared ones are used up, −1 die on every roll this round.
        """
        return ACTION if rounds.round_running(encounter) else None

    def outcome_probability(self, operation: Operation, before: Encounter) -> float | None:
        from rules.systems.institut.outcomes import outcome_probability  # it imports the operations, which import us

        return outcome_probability(operation, before, self)


def pool_die(encounter: Encounter) -> int:
    """The sides of the die every pool rolls (the encounter's option; RulesError for a value no setting has)."""
    value = encounter.options.get(DIE, str(DEFAULT_SIDES))
    if isinstance(value, str) and value.isdigit() and int(value) in DIE_CHOICES:
        return int(value)
    raise RulesError(_("Option “{option}” cannot be {value!r}.").format(option=_("Die of every pool"), value=value))


def modifier_unit(encounter: Encounter) -> Unit:
    """What the situational modifiers count in (the GM's option; RulesError for a value no setting has)."""
    value = encounter.options.get(MODIFIER_UNIT, Unit.DICE.value)
    if isinstance(value, str) and value in {unit.value for unit in Unit}:
        return Unit(value)
    raise RulesError(_("Option “{option}” cannot be {value!r}.").format(option=_("Situational modifiers count in"),
                                                                        value=value))


def in_points(encounter: Encounter) -> bool:
    """Whether the GM's option counts the situational modifiers in points (a damaged value reads as dice, the
    default)."""
    try:
        return modifier_unit(encounter) is Unit.POINTS
    except RulesError:
        return False


def dodge_tie(encounter: Encounter) -> DodgeTie:
    """The GM's rule for a dodge equal to the attack; RulesError for a value no setting has (a damaged file)."""
    value = encounter.options.get("dodge_tie", DodgeTie.ATTACKER.value)  # the option's default
    if isinstance(value, str) and value in {tie.value for tie in DodgeTie}:
        return DodgeTie(value)
    raise RulesError(_("Option “{option}” cannot be {value!r}.").format(option=_("A dodge equal to the attack"),
                                                                        value=value))


#: The tables built for the last few sets of overrides: every cell of the initiative table and every attack asks
#: for them, and merging and checking the GM's tables again each time was most of a table's repaint.
_RECENT_TABLES: Recent[InstitutTables] = Recent()


def tables(encounter: Encounter) -> InstitutTables:
    """The data tables with this encounter's GM overrides merged in."""
    overrides = tuple(encounter.options.get(key) for key in TABLE_KEYS)  # option values are immutable
    return _RECENT_TABLES.get(overrides, lambda: load_tables(
        {key: encounter.options[key] for key in TABLE_KEYS if key in encounter.options}))


def pyramid_for(combatant: Combatant, encounter: Encounter) -> Pyramid:
    """The character's own pyramid if the GM gave it one, else the encounter's default pyramid."""
    own = combatant.extra.get(rounds.PYRAMID)
    if own is None:
        return tables(encounter).pyramid
    return pyramid_from_rows(*_rows(own))


def stored_pyramid(rows: Sequence[Row], names: Sequence[str] | None) -> JsonValue:
    """A character's own pyramid as its extra data keeps it: rows of (threshold, boxes, penalty), each led by the
    class's name when the GM named the classes."""
    if names is None:
        return tuple(rows)
    return tuple((name, *row) for name, row in zip(names, rows, strict=True))


def _rows(value: JsonValue) -> tuple[list[Row], list[str] | None]:
    """A pyramid stored in extra data (:func:`stored_pyramid`): its rows and names (RulesError for anything
    else)."""
    if not isinstance(value, tuple) or not value or not all(isinstance(row, tuple) for row in value):
        raise RulesError(_("A pyramid is rows of (damage that enters the class, boxes, penalty)."))
    rows: list[Row] = []
    names: list[str] = []
    for stored in value:
        assert isinstance(stored, tuple)
        numbers = stored
        if len(stored) == 4 and isinstance(stored[0], str):
            names.append(stored[0])
            numbers = stored[1:]
        if len(numbers) != 3:
            raise RulesError(_("A pyramid is rows of (damage that enters the class, boxes, penalty)."))
        rows.append((_whole(numbers[0]), _whole(numbers[1]), _whole(numbers[2])))
    if names and len(names) != len(rows):
        raise RulesError(_("Give every class a name."))
    return rows, names or None


def _whole(value: JsonValue) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(_("A pyramid is rows of (damage that enters the class, boxes, penalty)."))
    return value


def wound_penalty(combatant: Combatant, encounter: Encounter) -> int:
    """Dice the combatant's wounds take off every action (positive)."""
    return pyramid_for(combatant, encounter).penalty(combatant.damage)


def check_may_act(combatant: Combatant, encounter: Encounter) -> None:
    """Refuse an action by someone who gave up the round, is dying or dead, or keeps up suppression fire."""
    if rounds.skips_this_round(combatant, encounter):
        raise OperationError(_("{name} gave up this round and does nothing in it.").format(name=combatant.name))
    if combatant_status(combatant, encounter) is not Status.ACTIVE:
        raise OperationError(_("{name} cannot act now.").format(name=combatant.name))
    if rounds.suppression(combatant, encounter) is not None:
        raise OperationError(_("Suppression fire is {name}'s only action this round.").format(name=combatant.name))


def combatant_status(combatant: Combatant, encounter: Encounter) -> Status:
    """Dead if the GM said so, dying with a filled box of the heaviest (Mortal) class, else active."""
    if rounds.flag(combatant, rounds.DEAD):
        return Status.DEAD
    try:
        heaviest = pyramid_for(combatant, encounter).heaviest
    except RulesError:  # a damaged pyramid (prepare refuses one): the default's Mortal row
        heaviest = MORTAL
    return Status.DYING if combatant.boxes(heaviest) > 0 else Status.ACTIVE


def order_key(combatant: Combatant, encounter: Encounter) -> tuple[int, ...]:
    """Sort key, highest first: gave up the last round, score, not yielded, then the pre-rolled tie dice."""
    initiative = combatant.initiative
    assert initiative is not None
    return (1 if rounds.goes_first(combatant, encounter) else 0, initiative.rolled,
            0 if combatant.id in encounter.clock.yielded else 1, *initiative.tiebreak)


def timer_slots(encounter: Encounter) -> list[Slot]:
    """Timed grenades due in this round: they go off at its end, after everyone has acted."""
    now = encounter.clock.round
    return [Slot(SlotKind.TIMER, (effect.id,), None) for effect in encounter.effects.values()
            if effect.due is not None and effect.due[0] <= now]


def _round_notes(combatant: Combatant, encounter: Encounter, data: InstitutTables, wounds: int) -> list[str]:
    actions = rounds.round_actions(combatant)
    modifiers = data.modifiers
    notes = []
    declared = actions.total_declared
    extra = rounds.action_penalty(actions, modifiers)
    if extra:
        notes.append(_("Actions declared: {count}; every roll this round −{penalty}.").format(
            count=declared, penalty=extra))
    if extra and wounds:
        notes.append(ngettext("Every roll this round: −{count} die.", "Every roll this round: −{count} dice.",
                              extra + wounds).format(count=extra + wounds))
    agility, athletics = combatant.attribute("agility"), combatant.attribute("athletics")
    metres = rounds.movement(agility, athletics, actions.total_declared, modifiers)
    notes.append(_("Movement: {metres} m this round; sprinting as the only action: {sprint} m.").format(
        metres=metres, sprint=rounds.sprint(agility, athletics, modifiers)))
    notes.extend(move_limit.moved_notes(combatant, encounter))
    notes.extend(_("Held: {condition}").format(condition=condition) for condition in actions.pending)
    if rounds.skips_this_round(combatant, encounter):
        notes.append(_("Gave up this round: acts first next round."))
    elif rounds.goes_first(combatant, encounter):
        notes.append(_("Gave up the last round: acts first in this one."))
    if rounds.flag(combatant, rounds.AMBUSH) and encounter.clock.round <= 1:
        text = (_("Ambush: +{count} points to hit in the first round.") if in_points(encounter)
                else _("Ambush: +{count} dice to hit in the first round."))
        notes.append(text.format(count=modifiers.ambush_hit))
    suppressing = combatant.extra.get(rounds.SUPPRESSION)
    if isinstance(suppressing, Mapping):
        notes.append(_("Keeps {area} under suppression fire (difficulty {difficulty}).").format(
            area=suppressing.get("area", ""), difficulty=suppressing.get("difficulty", 0)))
    return notes


def _reset_round(encounter: Encounter) -> Encounter:
    """A fresh round: no actions declared or done, no held declarations, no suppression fire."""
    state = encounter
    for combatant in encounter.combatants.values():
        cleared = rounds.with_actions(combatant, rounds.RoundActions())
        cleared = rounds.set_extra(cleared, rounds.SUPPRESSION, None)
        if cleared != combatant:
            state = state.with_combatant(cleared)
    return state


def _end_round(encounter: Encounter) -> HookResult:
    """Held declarations whose condition never came are used up; the round's counters start over."""
    reminders = []
    for combatant in encounter.combatants.values():
        for condition in rounds.round_actions(combatant).pending:
            reminders.append(Reminder(_("{name}'s held action lapses: {condition}").format(
                name=combatant.name, condition=condition), combatant.id))
    return HookResult(_reset_round(encounter), tuple(reminders))
