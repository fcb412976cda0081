"""Shadowrun Third Edition as a RuleSystem: monitors, pools, passes, delays, the per-phase action budget."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from enum import StrEnum
from typing import Final, TypeVar

from rules.dice import DiceWord
from rules.encounter import (
    STATUS_LABELS,
    Combatant,
    Delay,
    Encounter,
    JsonValue,
    Pool,
    Side,
    Slot,
    Status,
    Weapon,
    frozen_map,
)
from rules.errors import OperationError
from rules.harm import Harm, OwnRoll
from rules.history import History, Operation
from rules.recent import Recent
from rules.systems.base import (
    AttributeSpec,
    BudgetItem,
    DiceSpec,
    EffectMeaning,
    Hook,
    HookResult,
    OptionKind,
    OptionSpec,
    RuleSystem,
    TrackSpec,
)
from rules.systems.sr3 import delays, dice, initiative, monitor, tie_scores, typed_harm, weapons
from rules.systems.sr3.aim import without_aim
from rules.systems.sr3.effect_meanings import MEANINGS
from rules.systems.sr3.levels import LEVEL_BOXES, LEVEL_LABELS, LEVELS
from rules.systems.sr3.pools import combat_pool
from rules.systems.sr3.position import is_prone
from rules.systems.sr3.surprise import (
    barred_entirely,
    left_out_of_pass,
    lifted_at_pass_end,
    lifted_at_phase,
    lifted_for,
    surprise_in_force,
)
from rules.systems.sr3.tables import MeleeStaging, ReachRule, Sr3Tables, TieRule, load_tables
from rules.systems.sr3.time_units import TIME_UNITS
from rules.text import N_, NP_, _, pgettext
from rules.time_units import TimeUnits

R = TypeVar("R", bound=StrEnum)

COMBAT_POOL: Final[str] = N_("combat")  # also the pool's shown name, hence marked
#: sr3.md: "Karma pool (seed): refreshes every 24 h or when the GM decides, never per turn".
KARMA_POOL: Final[str] = N_("karma")
KARMA_ATTRIBUTE: Final[str] = "karma_pool"
RUN_MULTIPLIER: Final[str] = "run_multiplier"
DERMAL_ARMOR: Final[str] = "dermal_armor"
FREE, SIMPLE, COMPLEX = "free", "simple", "complex"
#: Kept with the phase's action counts: the rounds fired full auto in this phase (one complex action fires them).
FULL_AUTO_ROUNDS: Final[str] = "full_auto_rounds"
ACTION_LABELS: Final[dict[str, str]] = {FREE: N_("free"), SIMPLE: N_("simple"), COMPLEX: N_("complex")}
#: Translation context of the monitors' letters (the extractor needs it spelt out in each NP_: S is also Strength).
MONITOR: Final[str] = "sr3 monitor"
#: What a reload spends (:meth:`Sr3System.reload_action` names one; :meth:`Sr3System.spend_action` spends its
#: actions in turn), and the rule said when they are not left. The seed's "Jednoduché akce": "Vyjmutí zásobníku …
#: zahrnuje odstranění zásobníku z připravené střelné zbraně … Uchopení nového zásobníku a jeho zaražení do zbraně
#: vyžaduje další jednoduchou akci" (taking the clip out is a simple action; grabbing a new one and pushing it in
#: another); its "Volné akce": "Postava, která ovládá pomocí příslušného bodywarového rozhraní zbraň se
#: zabudovaným smartgunem, z ní může pomocí jednoduchého kybernetického příkazu vyhodit zásobník. Zasunutí nového
#: zásobníku ovšem vyžaduje jednoduchou akci" (through a smartlink the clip is ejected by a free action; the new one
#: still takes a simple action); its "Komplexní akce": "Zbraně, které nemají vyjímatelný zásobník, musí být nabity
#: prostřednictvím komplexní akce" (a weapon without a detachable clip is loaded by a complex action).
RELOAD_CLIP, RELOAD_SMARTLINK, RELOAD_INTERNAL = "reload_clip", "reload_smartlink", "reload_internal"
RELOADS: Final[dict[str, tuple[tuple[str, ...], str]]] = {
    RELOAD_CLIP: ((SIMPLE, SIMPLE), N_("Reloading a detachable clip takes two simple actions: the old clip out, "
                                       "the new one in.")),
    RELOAD_SMARTLINK: ((FREE, SIMPLE), N_("Reloading a smartgun through a smartlink takes a free action (the clip "
                                          "is ejected) and a simple one (the new clip in).")),
    RELOAD_INTERNAL: ((COMPLEX,), N_("Loading a weapon without a detachable clip takes a complex action.")),
}
#: The log line when one is used (the panel's buttons).
SPENT_TEXTS: Final[dict[str, str]] = {FREE: N_("{name} takes a free action."),
                                      SIMPLE: N_("{name} takes a simple action."),
                                      COMPLEX: N_("{name} takes a complex action.")}

_ATTRIBUTES: Final[tuple[AttributeSpec, ...]] = (
    AttributeSpec("body", N_("Body"), 3, 1, 30, N_("B")),
    AttributeSpec("quickness", N_("Quickness"), 3, 1, 30, N_("Q")),
    AttributeSpec("strength", N_("Strength"), 3, 1, 30, N_("S")),
    AttributeSpec("charisma", N_("Charisma"), 3, 1, 30, N_("C")),
    AttributeSpec("intelligence", N_("Intelligence"), 3, 1, 30, N_("I")),
    AttributeSpec("willpower", N_("Willpower"), 3, 1, 30, N_("W")),
    AttributeSpec("reaction", N_("Reaction (modified)"), 3, 1, 40, N_("R")),
    AttributeSpec("reaction_natural", N_("Reaction (natural)"), 3, 1, 40, N_("nR")),
    AttributeSpec("initiative_dice", N_("Initiative dice"), 1, 1, 5, N_("Init")),
    AttributeSpec("ballistic", N_("Ballistic armor"), 0, 0, 30, N_("Bal")),
    AttributeSpec("impact", N_("Impact armor"), 0, 0, 30, N_("Imp")),
    AttributeSpec(KARMA_ATTRIBUTE, N_("Karma pool"), 0, 0, 99, N_("Karma"), filled_when_added=False),
    # sr3.md, Movement: "run = Quickness × 3 (dwarf × 2)"; the races' multipliers are data (movement.run_multiplier).
    AttributeSpec(RUN_MULTIPLIER, N_("Run multiplier (dwarf 2)"), 3, 1, 10, N_("Run×"), filled_when_added=False),
    # sr3.md, Ranged combat, step 5: "modified Body (dermal armor included)"; it also cancels flechette's extra level.
    AttributeSpec(DERMAL_ARMOR, N_("Dermal armor"), 0, 0, 10, N_("Derm"), filled_when_added=False),
)

DELAYING, FREE_ELSEWHERE, MELEE_TIE, REACH_MODE, TABLES = (
    "delaying", "free_actions_in_other_phases", "melee_tie", "reach_mode", "tables")
MELEE_STAGING = "melee_staging"
CALLED_THROWS_AND_MELEE = "called_shots_throws_and_melee"
FREE_NEEDS_PHASE = "free_actions_need_a_phase"
POOL_AT_MOST_SKILL = "pool_at_most_skill"

_OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(DELAYING, N_("Allow delaying actions (optional rule)"), OptionKind.BOOL, True),
    OptionSpec(FREE_ELSEWHERE, N_("Free actions in other characters' phases"), OptionKind.BOOL, True),
    # sr3.md Decision: "no phase this turn (score ≤ 0, completely surprised) = no free actions".
    OptionSpec(FREE_NEEDS_PHASE, N_("No free actions without a phase this turn (an initiative of 0 or less)"),
               OptionKind.BOOL, True),
    # The melee choices are the melee rules' own values (tables.TieRule, tables.ReachRule): the option is their
    # only source, read in one place, tables() below.
    OptionSpec(MELEE_TIE, N_("Melee tie"), OptionKind.CHOICE, TieRule.NOBODY.value,
               choices=((TieRule.NOBODY.value, N_("Nobody is hurt")),
                        (TieRule.ATTACKER.value, N_("Attacker hits with base damage")))),
    OptionSpec(REACH_MODE, N_("Reach advantage"), OptionKind.CHOICE, ReachRule.BONUS.value,
               choices=((ReachRule.BONUS.value, N_("−1 TN for the one with reach")),
                        (ReachRule.PENALTY.value, N_("+1 TN for the opponent")))),
    # sr3.md Decision: "net and resistance successes are compared once, 2 per level, as in ranged combat
    # (default), or staged twice".
    OptionSpec(MELEE_STAGING, N_("A melee hit's level"), OptionKind.CHOICE, MeleeStaging.ONCE.value,
               choices=((MeleeStaging.ONCE.value, N_("net minus resistance successes, 2 per level, as for a shot")),
                        (MeleeStaging.TWICE.value, N_("staged up by the net successes, then down by the "
                                                      "resistance successes")))),
    # sr3.md, Ties: the Decision for step 1, and the option "previous pass's scores" (tie_scores.py); the default
    # is what fights saved before the option did, a new fight starts with the Decision (default_options).
    OptionSpec(tie_scores.TIE_SCORES, N_("Tied initiative, first step: the higher of"), OptionKind.CHOICE,
               tie_scores.TieScores.ROLLED.value, choices=tie_scores.CHOICES),
    # sr3.md Decision: "throws and melee may be called too (default), option: not".
    OptionSpec(CALLED_THROWS_AND_MELEE, N_("Called shots with throws and in melee"), OptionKind.BOOL, True),
    # sr3.md, Success tests: "Limits: another chapter (SR3 core: pool dice per test at most the skill's rating)".
    # The seed itself does not state the limit: off unless the GM plays the core book's rule.
    OptionSpec(POOL_AT_MOST_SKILL, N_("Combat pool dice per attack test at most the skill's rating (SR3 core)"),
               OptionKind.BOOL, False,
               help=N_("The seed leaves the pool's limits to another chapter; the SR3 core book allows no more pool "
                       "dice in a test than the skill's rating.")),
    OptionSpec(TABLES, N_("Range, visibility and modifier tables"), OptionKind.TABLE, {}),
)
_SPECS: Final[dict[str, OptionSpec]] = {spec.key: spec for spec in _OPTIONS}


class Sr3System(RuleSystem):
    """Shadowrun, Third Edition."""

    id = "sr3"
    title = N_("Shadowrun, Third Edition")


    def sample(self) -> History:
        from rules.systems.sr3.sample import sample  # on first use: opening a fight needs no sample

        return sample()

    def option_specs(self) -> Sequence[OptionSpec]:
        return _OPTIONS

    def attribute_specs(self) -> Sequence[AttributeSpec]:
        return _ATTRIBUTES

    def default_options(self) -> dict[str, JsonValue]:
        """A new fight's options: the tie Decision, where a file without the option keeps the rolled results."""
        return {**super().default_options(), tie_scores.TIE_SCORES: tie_scores.TieScores.TURN_START.value}

    def option(self, encounter: Encounter, key: str) -> JsonValue:
        """The encounter's value of an option; one it does not hold (a fight saved before it) reads the spec's
        default, which for the tie option differs from a new fight's (:meth:`default_options`)."""
        return encounter.options[key] if key in encounter.options else _SPECS[key].default

    def validate_option(self, spec: OptionSpec, value: JsonValue) -> JsonValue:
        value = spec.validate(value)
        if spec.key == TABLES and isinstance(value, Mapping):
            load_tables(value)  # raises a RulesError naming the bad entry
        return value

    # --- combatants ---------------------------------------------------------------------------
    def prepare(self, combatant: Combatant, encounter: Encounter) -> Combatant:
        """Combat pool = (Quickness + Intelligence + Willpower) ÷ 2 unless the GM typed ``combat_pool``."""
        size = combatant.attributes.get("combat_pool")
        if size is None:
            size = combat_pool(max(0, combatant.attribute("quickness")), max(0, combatant.attribute("intelligence")),
                               max(0, combatant.attribute("willpower")), tables(encounter))
        old = combatant.pools.get(COMBAT_POOL, Pool(size))
        damage = {monitor.PHYSICAL: combatant.boxes(monitor.PHYSICAL), monitor.STUN: combatant.boxes(monitor.STUN)}
        pools = {**combatant.pools, COMBAT_POOL: Pool(size, min(old.spent, size))}
        karma = combatant.attribute(KARMA_ATTRIBUTE)
        if karma > 0 or KARMA_POOL in pools:  # a karma pool only for those who have one
            spent = pools[KARMA_POOL].spent if KARMA_POOL in pools else 0
            pools[KARMA_POOL] = Pool(karma, min(spent, karma))
        return replace(combatant, pools=frozen_map(pools), damage=frozen_map({**combatant.damage, **damage}))

    def tracks(self, combatant: Combatant, encounter: Encounter) -> Sequence[TrackSpec]:
        return (TrackSpec(monitor.PHYSICAL, N_("Physical"), monitor.BOXES,
                          abbreviation=NP_("sr3 monitor", "P"), context=MONITOR),
                TrackSpec(monitor.STUN, N_("Stun"), monitor.BOXES, abbreviation=NP_("sr3 monitor", "S"),
                          context=MONITOR))

    def status(self, combatant: Combatant, encounter: Encounter) -> Status:
        return initiative.standing(combatant).status  # monitor.status, worked out once per combatant object

    def apply_harm(self, combatant: Combatant, track: str, amount: int, encounter: Encounter) -> Combatant:
        physical, stun = combatant.boxes(monitor.PHYSICAL), combatant.boxes(monitor.STUN)
        if track == monitor.STUN:
            physical, stun = monitor.add_stun(physical, stun, amount)
        else:
            physical = monitor.add_physical(physical, amount, combatant.attribute("body"))
        return combatant.with_damage(monitor.PHYSICAL, physical).with_damage(monitor.STUN, stun)

    def harm_presets(self, track: str) -> Sequence[tuple[str, int]]:
        return tuple((LEVEL_LABELS[level], LEVEL_BOXES[level]) for level in LEVELS)

    def parse_harm(self, text: str, combatant: Combatant, track: str, encounter: Encounter,
                   heal: bool = False) -> Harm:
        """``6S``, ``S``, ``6M Stun``: the level's boxes, unresisted; ``3``: boxes (:mod:`.typed_harm`)."""
        return typed_harm.parse_harm(text, self.tracks(combatant, encounter), track, heal)

    def own_roll(self, text: str, combatant: Combatant, track: str, encounter: Encounter) -> OwnRoll | None:
        """A damage code (``10S``): Body and combat pool against Power − impact armor (:mod:`.resistance`)."""
        from rules.systems.sr3 import resistance  # it builds on this module's tables and pools

        code = typed_harm.typed_code(text, self.tracks(combatant, encounter), track)
        return None if code is None else resistance.resistance(code, combatant, encounter)

    def harm_notation(self) -> str:
        return _("A damage level, a damage code or boxes, e.g. {examples}").format(
            examples=typed_harm.notation_examples())

    def shared_harm_note(self, encounter: Encounter) -> str:
        serious = pgettext("sr3 damage level", "S")  # the GM's language's letters: Czech writes Serious V
        return _("In a blast each target resists on its own: a damage code ({code}) is resisted with each target's "
                 "Body, combat pool and impact armor; a level alone ({level}) is marked unresisted. A target who may "
                 "dodge the throw: use Attack for that target.").format(code=f"10{serious}", level=serious)

    def condition_notes(self, combatant: Combatant, encounter: Encounter) -> Sequence[str]:
        tn, init = monitor.wound_modifiers(combatant.boxes(monitor.PHYSICAL), combatant.boxes(monitor.STUN))
        notes = [_("TN +{tn}, initiative {init}").format(tn=tn, init=f"−{-init}")] if tn else []
        if is_prone(combatant):
            notes.append(_("Prone"))
        status = self.status(combatant, encounter)
        if status is not Status.ACTIVE:
            notes.append(_(STATUS_LABELS[status]))
        overflow = combatant.boxes(monitor.PHYSICAL) - monitor.BOXES
        if overflow > 0:
            notes.append(_("{count} overflow boxes of {body}").format(count=overflow,
                                                                     body=combatant.attribute("body")))
        return notes

    def can_act(self, combatant: Combatant, encounter: Encounter) -> bool:
        if self.status(combatant, encounter) is not Status.ACTIVE:
            return False
        return not _completely_surprised(combatant, encounter)

    # --- initiative ---------------------------------------------------------------------------
    def with_initiative_inputs(self, combatant: Combatant, values: Mapping[str, int],
                               encounter: Encounter) -> Combatant:
        """Also notes the wounds initiative is rolled with, which the first tie-breaker subtracts."""
        chosen = super().with_initiative_inputs(combatant, values, encounter)
        return tie_scores.noted_at_roll(chosen, tie_scores.tie_scores(_option(encounter, tie_scores.TIE_SCORES)))

    def initiative_dice(self, combatant: Combatant, encounter: Encounter) -> DiceSpec:
        return DiceSpec(max(1, combatant.attribute("initiative_dice", 1)), 6, combatant.attribute("reaction"))

    def remaining_slots(self, encounter: Encounter) -> list[Slot]:
        acted = encounter.clock.acted
        actors = [slot for slot in _pass_actors(encounter) if slot.ids[0] not in acted]
        timers = initiative.timer_slots(encounter)
        held = delays.end_of_pass(encounter)  # in the order of tied initiative
        return _merge_by_phase(actors, timers) + held + [t for t in timers if not t.phase]

    def has_next_pass(self, encounter: Encounter) -> bool:
        next_pass = encounter.clock.pass_no + 1
        return any((initiative.score(c, next_pass) or 0) > 0 and self.status(c, encounter) is Status.ACTIVE
                   for c in encounter.combatants.values()) or any(
            d.into_next_pass and d.pass_no == encounter.clock.pass_no for d in encounter.delays.values())

    def pass_phase(self, combatant: Combatant, encounter: Encounter, pass_no: int) -> int | None:
        value = initiative.score(combatant, pass_no)
        return value if value is not None and value > 0 else None

    def score_text(self, combatant: Combatant, encounter: Encounter) -> str:
        scores = initiative.pass_scores(combatant)
        if combatant.initiative is None:
            return "–"
        return " → ".join(str(s) for s in scores) if scores else str(initiative.score(combatant, 1))

    # --- timing and the action budget ---------------------------------------------------------
    def time_units(self) -> TimeUnits:
        return TIME_UNITS

    def hooks(self) -> frozenset[Hook]:
        return frozenset(Hook)

    def effect_meanings(self) -> Sequence[EffectMeaning]:
        return MEANINGS

    def on_hook(self, encounter: Encounter, hook: Hook, actors: tuple[str, ...]) -> HookResult:
        if hook is Hook.ROUND_START:
            return HookResult(_refresh_pools(encounter))
        phase = encounter.clock.current.phase if encounter.clock.current is not None else None
        if hook is Hook.TURN_START:
            state = _reset_actions(delays.replacing_the_pass_action(encounter))
            return HookResult(lifted_at_phase(state, phase, ended=False) if surprise_in_force(state) else state)
        if hook is Hook.PASS_START:
            rule = tie_scores.tie_scores(_option(encounter, tie_scores.TIE_SCORES))
            return HookResult(tie_scores.noted_at_pass_start(encounter, rule))
        if hook is Hook.TURN_END and surprise_in_force(encounter):
            return HookResult(lifted_at_phase(lifted_for(encounter, actors), phase, ended=True))
        if hook is Hook.PASS_END and surprise_in_force(encounter):
            return HookResult(lifted_at_pass_end(encounter))
        return HookResult(encounter)

    def delay_refusal(self, combatant: Combatant, encounter: Encounter, into_next_pass: bool) -> str | None:
        """Delaying is an optional rule ("Odkládání akcí (volitelné)"): with it off, no delay of either kind."""
        if self.option(encounter, DELAYING):
            return None
        return _("{name} cannot delay: delaying actions is an optional rule, and “{rule}” is off in the "
                 "encounter settings.").format(name=combatant.name, rule=_(_SPECS[DELAYING].label))

    def yield_refusal(self, combatant: Combatant, encounter: Encounter) -> str | None:
        """"of several who try, only the one who would go first may": once one of a tied score has let the others
        go first, no other of that score may."""
        pass_no = encounter.clock.pass_no
        own = initiative.score(combatant, pass_no)
        first = next((other for other_id in sorted(encounter.clock.yielded)
                      if other_id != combatant.id and (other := encounter.combatants.get(other_id)) is not None
                      and initiative.score(other, pass_no) == own), None)
        if first is None:
            return None
        return _("{name} cannot let the others go first: {first}, with the same score, already did, and of several "
                 "who try only the one who would go first may.").format(name=combatant.name, first=first.name)

    def pay_for_delay(self, combatant: Combatant, encounter: Encounter) -> Combatant:
        """The seed's "Odložení akcí": the character "si je může odložit tak, že obětuje volnou akci" (holds its
        actions by giving up a free action): spent like any free action (an aim is lost with it)."""
        try:
            return self._spend_one(combatant, FREE, encounter)
        except OperationError as refusal:
            raise OperationError(" ".join((str(refusal), _("Delaying costs a free action.")))) from None

    def action_budget(self, combatant: Combatant, encounter: Encounter) -> Sequence[BudgetItem]:
        used = combatant.actions_used
        free, simple, complex_ = used.get(FREE, 0), used.get(SIMPLE, 0), used.get(COMPLEX, 0)
        if barred_entirely(encounter, combatant.id):  # completely surprised: "no actions at all"
            return tuple(BudgetItem(kind, ACTION_LABELS[kind], count, 0, SPENT_TEXTS[kind])
                         for kind, count in ((FREE, free), (SIMPLE, simple), (COMPLEX, complex_)))
        free_allowed = 0 if _free_actions_barred(combatant, encounter) else _free_allowed(
            simple, complex_, _in_own_phase(combatant, encounter))
        return (BudgetItem(FREE, ACTION_LABELS[FREE], free, free_allowed, SPENT_TEXTS[FREE]),
                BudgetItem(SIMPLE, ACTION_LABELS[SIMPLE], simple, _simple_allowed(free, complex_), SPENT_TEXTS[SIMPLE]),
                BudgetItem(COMPLEX, ACTION_LABELS[COMPLEX], complex_, 0 if simple or free > 1 else 1,
                           SPENT_TEXTS[COMPLEX]))

    def spend_action(self, combatant: Combatant, kind: str, encounter: Encounter) -> Combatant:
        """One free, simple or complex action; a reload's kind (:data:`RELOADS`) spends each of its actions."""
        if kind not in RELOADS:
            return self._spend_one(combatant, kind, encounter)
        actions, rule = RELOADS[kind]
        try:
            for action in actions:
                combatant = self._spend_one(combatant, action, encounter)
        except OperationError as refusal:
            raise OperationError(f"{refusal} {_(rule)}") from None
        return combatant

    def _spend_one(self, combatant: Combatant, kind: str, encounter: Encounter) -> Combatant:
        if kind not in ACTION_LABELS:
            raise OperationError(_("Unknown action kind {kind!r}: free, simple or complex.").format(kind=kind))
        _check_may_act_now(combatant, kind, encounter)
        budget = {item.key: item for item in self.action_budget(combatant, encounter)}
        if budget[kind].left < 1:
            raise OperationError(_("{name} has no {kind} action left in this phase.").format(
                name=combatant.name, kind=_(ACTION_LABELS[kind])))
        used = combatant.actions_used.get(kind, 0) + 1
        # Any other action, free ones included, loses an aim (Sr3Aim aims again after spending its simple one).
        return replace(without_aim(combatant), actions_used=frozen_map({**combatant.actions_used, kind: used}))

    # --- weapons ------------------------------------------------------------------------------
    def weapon_fields(self) -> Sequence[OptionSpec]:
        return weapons.weapon_fields()

    def check_weapon(self, weapon: Weapon) -> Weapon:
        return weapons.check_weapon(weapon)

    def shown_weapon_value(self, key: str, value: JsonValue) -> JsonValue:
        return weapons.shown_value(key, value)

    def typed_weapon_value(self, key: str, text: str) -> JsonValue:
        return weapons.typed_value(key, text)

    def describe_weapon(self, weapon: Weapon) -> str:
        return weapons.describe_weapon(weapon)

    def reload_action(self, combatant: Combatant, weapon: Weapon, encounter: Encounter) -> str | None:
        """The seed's actions for a reload (:data:`RELOADS`); none while no phase is under way (before initiative,
        between fights: **Decision**, the rules time actions only within a combat turn)."""
        if encounter.clock.current is None:
            return None
        if weapons.loading(weapon) is weapons.Loading.INTERNAL:
            return RELOAD_INTERNAL
        return RELOAD_SMARTLINK if weapons.smart_system(weapon) is weapons.Smart.SMARTLINK else RELOAD_CLIP

    def dice_words(self) -> Sequence[DiceWord]:
        return dice.DICE_WORDS

    def lost_delays(self, encounter: Encounter, slot: Slot) -> Sequence[Delay]:
        return delays.lost_at(encounter, slot)

    def default_side_order(self) -> tuple[Side, ...]:
        return (Side.PLAYER, Side.ALLY, Side.OPPONENT)

    def outcome_probability(self, operation: Operation, before: Encounter) -> float | None:
        from rules.systems.sr3.outcomes import outcome_probability  # it imports the operations, which import us

        return outcome_probability(operation, before, self)


def resisting_body(combatant: Combatant) -> int:
    """The Body that resists damage: "modified Body (dermal armor included)" (sr3.md, Ranged combat, step 5)."""
    return combatant.attribute("body") + combatant.attribute(DERMAL_ARMOR)


def tables(encounter: Encounter) -> Sr3Tables:
    """The SR3 data tables with this encounter's GM overrides (option ``tables``) merged in, and its melee options
    (``melee_tie``, ``reach_mode``) as the melee rules: every calculator gets the encounter's rules from here."""
    overrides = encounter.options.get(TABLES)
    data = load_tables(overrides if isinstance(overrides, Mapping) else None)
    tie = _melee_rule(encounter, MELEE_TIE, TieRule, data.melee.tie_rule)
    reach = _melee_rule(encounter, REACH_MODE, ReachRule, data.melee.reach_rule)
    staging = _melee_rule(encounter, MELEE_STAGING, MeleeStaging, data.melee.staging)
    # Off here, or in the tables the GM overrode (called_shot.throws_and_melee): either refuses them.
    if data.called_shot_throws_and_melee and not _option(encounter, CALLED_THROWS_AND_MELEE):
        data = replace(data, called_shot_throws_and_melee=False)
    if (tie, reach, staging) == (data.melee.tie_rule, data.melee.reach_rule, data.melee.staging):
        return data
    return replace(data, melee=replace(data.melee, tie_rule=tie, reach_rule=reach, staging=staging))


def pool_at_most_skill(encounter: Encounter) -> bool:
    """Whether this encounter caps the combat pool dice of an attack test at the skill's rating (SR3 core)."""
    return bool(_option(encounter, POOL_AT_MOST_SKILL))


def _option(encounter: Encounter, key: str) -> JsonValue:
    """The encounter's value of an SR3 option, or its default (as RuleSystem.option, for module functions)."""
    return encounter.options.get(key, _SPECS[key].default)


def _melee_rule(encounter: Encounter, key: str, rule: type[R], from_tables: R) -> R:
    """The melee rule the option chose; at the option's default, the one the ``tables`` option names.

    Fights saved before the option was the rule's only source may override ``melee.tie_rule`` or
    ``melee.reach_rule`` in their tables (the option then did nothing): that override was the rule they were
    played with, so it stays in force until the GM picks the option's other value.
    """
    chosen = {member.value: member for member in rule}.get(str(_option(encounter, key)))
    return from_tables if chosen is None or chosen.value == _SPECS[key].default else chosen


def _free_allowed(simple: int, complex_: int, own_phase: bool) -> int:
    """"Free: one per phase, also in others' phases"; in the own phase "Místo jednoduché akce je možné také
    provést volnou akci" (instead of a simple action a free one may be taken): each simple action not taken may
    be one more free action, up to three with no simple one."""
    if not own_phase or complex_:
        return 1
    return 1 + max(0, 2 - simple)


def _simple_allowed(free: int, complex_: int) -> int:
    return 0 if complex_ else 2 - max(0, free - 1)


def _in_own_phase(combatant: Combatant, encounter: Encounter) -> bool:
    current = encounter.clock.current
    return current is not None and combatant.id in current.ids


def _free_actions_barred(combatant: Combatant, encounter: Encounter) -> bool:
    """Another character's phase, and the GM has turned off free actions there, or the character has no phase
    this turn; or a surprise test leaves the character no actions at all."""
    if barred_entirely(encounter, combatant.id):
        return True
    if _in_own_phase(combatant, encounter):
        return False
    return not _option(encounter, FREE_ELSEWHERE) or _without_a_phase(combatant, encounter)


def _without_a_phase(combatant: Combatant, encounter: Encounter) -> bool:
    """The digest's Decision, an option: a character whose initiative is 0 or less has no phase this turn, so no
    free actions either (one who acted this pass had a phase, whatever wounds came after)."""
    if not _option(encounter, FREE_NEEDS_PHASE) or combatant.id in encounter.clock.acted:
        return False
    first_pass_score = initiative.score(combatant, 1)
    return first_pass_score is None or first_pass_score <= 0


def _check_may_act_now(combatant: Combatant, kind: str, encounter: Encounter) -> None:
    if barred_entirely(encounter, combatant.id):
        raise OperationError(_("{name} is completely surprised: no actions at all, not even free ones, until their "
                               "next phase has passed.").format(name=combatant.name))
    if _in_own_phase(combatant, encounter):
        return
    if kind != FREE:
        raise OperationError(_("{name} can take simple and complex actions only in their own phase.").format(
            name=combatant.name))
    if not _option(encounter, FREE_ELSEWHERE):
        raise OperationError(_("{name} cannot take a free action in another character's phase: “{rule}” is off "
                               "in the encounter settings.").format(name=combatant.name,
                                                                     rule=_(_SPECS[FREE_ELSEWHERE].label)))
    clock = encounter.clock
    if clock.pass_no <= 1 and combatant.id not in clock.acted:
        raise OperationError(_("{name} cannot take free actions before their first phase.").format(
            name=combatant.name))
    if _without_a_phase(combatant, encounter):
        raise OperationError(_("{name} has no phase this turn (an initiative of 0 or less), so no free actions "
                               "either.").format(name=combatant.name))


#: The last few passes' actors (:func:`_pass_actors`).
_PASS_ACTORS: Recent[list[Slot]] = Recent()
#: The last order worked out, re-keyed for the combatants a change touched (:class:`initiative.PassOrder`).
_PASS_ORDER = initiative.PassOrder()


def _pass_actors(encounter: Encounter) -> list[Slot]:
    """Everyone who may act in the current pass, in its order, whether or not they have acted yet.

    The order does not depend on who has acted, and the order of a pass is asked on every change (twice: as it
    stands and as if nobody had acted), so it is worked out again only when the combatants, the options, the pass
    or who yielded changed: a turn (Next) within a pass costs a filter, not a sort of every combatant (~10 ms at
    1,000). can_act is read for everyone at once: the surprise test once, not once a combatant.
    """
    clock = encounter.clock
    surprised = left_out_of_pass(encounter)
    return _PASS_ACTORS.get((encounter.combatants, encounter.options, clock.pass_no, clock.yielded, surprised),
                            lambda: _actors_in_order(encounter, surprised))


def _actors_in_order(encounter: Encounter, surprised: frozenset[str]) -> list[Slot]:
    clock = encounter.clock
    return _PASS_ORDER.slots(encounter.combatants, clock.pass_no, clock.yielded, surprised, encounter.options)


def _merge_by_phase(actors: list[Slot], timers: list[Slot]) -> list[Slot]:
    """Actors and timers by phase, highest first; a timer goes off before actors of its phase."""
    phased = [t for t in timers if t.phase]
    if not phased:
        return actors
    ordered = [(slot.phase or 0, 1, index, slot) for index, slot in enumerate(phased)]
    ordered += [(slot.phase or 0, 0, index, slot) for index, slot in enumerate(actors)]
    ordered.sort(key=lambda item: (-item[0], -item[1], item[2]))
    return [item[3] for item in ordered]


def _refresh_pools(encounter: Encounter) -> Encounter:
    """Every pool but karma refreshes at the start of a combat turn; unused dice never carry over. The karma pool
    refreshes only when the GM says (:class:`~rules.systems.sr3.karma.RefreshKarma`)."""
    state = encounter
    for combatant in encounter.combatants.values():
        if any(pool.spent for key, pool in combatant.pools.items() if key != KARMA_POOL):
            pools = frozen_map({key: pool if key == KARMA_POOL else Pool(pool.size)
                                for key, pool in combatant.pools.items()})
            state = state.with_combatant(replace(combatant, pools=pools))
    return state


def _reset_actions(encounter: Encounter) -> Encounter:
    """A new phase: everyone's per-phase action counts (free actions in others' phases too) start over."""
    state = encounter
    for combatant in encounter.combatants.values():
        if combatant.actions_used:
            state = state.with_combatant(replace(combatant, actions_used=frozen_map()))
    return state


def _completely_surprised(combatant: Combatant, encounter: Encounter) -> bool:
    """Surprised against every opponent, in the pass whose phase that costs: the turn engine skips them (a test
    before the turn: the first pass; a mid-turn test: the pass of their next phase, :func:`lost_pass`)."""
    if encounter.clock.pass_no < 1:
        return False  # rolling initiative: the completely surprised roll too
    return combatant.id in left_out_of_pass(encounter)
