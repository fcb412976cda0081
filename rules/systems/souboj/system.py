"""Soubojový systém as a RuleSystem: 1d6 each round, simultaneous groups, two damage tracks, dying.

Timing hooks are exactly the digest's: the start of the round (after the initiative roll, before the first
action), the start of a creature's turn (at its initiative, before its first action) and the end of the round
(after initiative 0 has been played). After the fight, :class:`~rules.systems.souboj.ops.TimePasses` fires the
round hooks once per 10 seconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Final

from rules.encounter import STATUS_LABELS, Combatant, Encounter, JsonValue, Side, Slot, Status, Weapon, frozen_map
from rules.errors import OperationError
from rules.history import History, Operation
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
)
from rules.systems.souboj import acting, condition, order, weapons
from rules.systems.souboj.combat import ROUNDING_LABELS, Rounding
from rules.systems.souboj.model import (
    ACTION_SHORT_LABELS,
    ACTIONS_PER_ROUND,
    ARMOR,
    ARMOR_VS_THROWN,
    DEXTERITY,
    DYING_LAST_ACTION,
    ENDURANCE,
    GAVE_UP,
    HIT_POINTS,
    INTELLIGENCE,
    LEVEL,
    MINOR_ACTIONS,
    SHADOW,
    STRENGTH,
    WEAPON_DEFENCE,
    WEAPON_STRENGTH,
    WOUNDS,
    Reaction,
    actions_per_round,
    declared_now,
    dying_rounds,
    gave_up_now,
    granted,
    last_action,
    minor_actions,
    moment,
    reactions,
    with_extra,
    with_reactions,
)
from rules.systems.souboj.round_one import (
    ATTACKERS_ONLY,
    NO_SURPRISE,
    OPPONENTS_ATTACK,
    PARTY_ATTACKS,
    REACTIONS_ONLY,
    ROUND_ONE_LABELS,
    SURPRISE,
    SURPRISE_ATTACKERS,
    defends_in_surprise,
    readier_first_now,
    surprise,
)
from rules.systems.souboj.shadow import (
    CLOCK_LABELS,
    SHADOW_CLOCK,
    ShadowClock,
    note_wounds,
    shadow_clock,
    shadow_notes,
)
from rules.systems.souboj.tables import SoubojTables, load_tables
from rules.text import N_, NN_, NP_, _, ngettext, pgettext
from rules.time_units import PhaseWords, TimeUnits
from rules.turns import delayed_slots

ACTION: Final = "action"
MINOR: Final = "minor"

_ATTRIBUTES: Final[tuple[AttributeSpec, ...]] = (
    AttributeSpec(STRENGTH, N_("Strength"), 5, 0, 99, N_("Str")),
    AttributeSpec(DEXTERITY, N_("Dexterity"), 5, 0, 99, N_("Dex")),
    AttributeSpec(INTELLIGENCE, N_("Intelligence"), 5, 0, 99, N_("Int")),
    AttributeSpec(ENDURANCE, N_("Endurance"), 5, 0, 99, N_("End")),
    AttributeSpec(LEVEL, N_("Level"), 1, 1, 99, N_("Lvl")),
    AttributeSpec(HIT_POINTS, N_("Hit points"), 20, 1, 9999, NP_("souboj", "HP"), context="souboj"),
    AttributeSpec(ARMOR, N_("Armor quality"), 0, 0, 99, NP_("souboj", "Arm"), context="souboj"),
    AttributeSpec(ARMOR_VS_THROWN, N_("Armor protects against thrown weapons (1: yes, 0: no)"), 0, 0, 1,
                  NP_("souboj", "vsT"), context="souboj", filled_when_added=False),
    AttributeSpec(WEAPON_STRENGTH, N_("Weapon strength"), 0, 0, 99, N_("WS")),
    AttributeSpec(WEAPON_DEFENCE, N_("Weapon defence"), 0, 0, 99, NP_("souboj", "WD"), context="souboj"),
    AttributeSpec(ACTIONS_PER_ROUND, N_("Major actions per round"), 1, 0, 9, NP_("souboj", "Act"),
                  context="souboj", filled_when_added=False),
    AttributeSpec(MINOR_ACTIONS, N_("Minor actions per round"), 0, 0, 9, NP_("souboj", "Min"), context="souboj",
                  filled_when_added=False),
)

_OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec("shadow_rounding", N_("Shadow damage fading after 60 rounds"), OptionKind.CHOICE, Rounding.DOWN.value,
               choices=tuple((rounding.value, label) for rounding, label in ROUNDING_LABELS.items()),
               help=N_("Three quarters of the shadow damage fade; how the removed part is rounded.")),
    OptionSpec(SHADOW_CLOCK, N_("Shadow damage: from when the 10 minutes run"), OptionKind.CHOICE,
               ShadowClock.PER_WOUND.value,
               choices=tuple((clock.value, label) for clock, label in CLOCK_LABELS.items()),
               help=N_("“3/4 of the shadow damage fade after 10 minutes (60 rounds)”: by default each shadow wound "
                       "has its own clock from the blow; or one clock per creature from its first shadow wound; or "
                       "one from the end of the fight (it runs only while time passes after the rounds).")),
    OptionSpec("shadow_counts_for_death", N_("Shadow damage counts towards death at −(maximum) hit points"),
               OptionKind.BOOL, True),
    OptionSpec(SURPRISE, N_("Surprise round (round 1)"), OptionKind.CHOICE, NO_SURPRISE,
               choices=tuple(ROUND_ONE_LABELS.items()),
               help=N_("“In the first round initiative need not be kept”: the readier side (usually the attacker) "
                       "may act first, or, in an ambush, only the attackers get initiative, or the defenders get "
                       "only reactions. Any score can still be typed in the initiative column.")),
    OptionSpec(SURPRISE_ATTACKERS, N_("Attacking side of the surprise round"), OptionKind.CHOICE, OPPONENTS_ATTACK,
               choices=((OPPONENTS_ATTACK, N_("Opponents")), (PARTY_ATTACKS, N_("Player characters and allies")))),
    OptionSpec(weapons.RELOAD_COSTS_ACTION, N_("Reloading costs the round's action"), OptionKind.BOOL, True,
               help=N_("The rules do not say; by default a creature that reloads has used its action for the "
                       "round.")),
    OptionSpec(DYING_LAST_ACTION, N_("A dying creature can do nothing but its one last action"), OptionKind.BOOL,
               True, help=N_("“It can do nothing; but if it is dying at the start of its turn it may roll Endurance "
                             "for one last action.” Its actions are refused unless you granted that last action, "
                             "once; a blow struck in the simultaneous group it fell in still lands. Off: nothing "
                             "is refused, as in fights saved before this option.")),
    acting.SETTLED_OPTION,
    OptionSpec("tables", N_("Attack, damage and recovery tables"), OptionKind.TABLE, {}),
)


#: Turns are played at the shared initiative score; a round is one run through it, with no passes.
TIME_UNITS: Final[TimeUnits] = TimeUnits(phases=PhaseWords(acts=N_("{name} acts at initiative {phase}."),
                                                           acting=NN_("{names} acts (initiative {phase})",
                                                                      "{names} act (initiative {phase})")))


class SoubojSystem(RuleSystem):
    """Soubojový systém (Czech): per-round 1d6 initiative, simultaneous ties, shadow damage, dying."""

    id = "souboj"
    title = N_("Soubojový systém")

    # --- options ------------------------------------------------------------------------------

    def sample(self) -> History:
        from rules.systems.souboj.sample import sample  # on first use: opening a fight needs no sample

        return sample()

    def option_specs(self) -> Sequence[OptionSpec]:
        return _OPTIONS

    def attribute_specs(self) -> Sequence[AttributeSpec]:
        return _ATTRIBUTES

    def validate_option(self, spec: OptionSpec, value: JsonValue) -> JsonValue:
        value = spec.validate(value)
        if spec.key == "tables" and isinstance(value, Mapping):
            load_tables(value)  # raises a RulesError naming the bad entry
        return value

    # --- combatants ---------------------------------------------------------------------------
    def prepare(self, combatant: Combatant, encounter: Encounter) -> Combatant:
        damage = {WOUNDS: combatant.boxes(WOUNDS), SHADOW: combatant.boxes(SHADOW)}
        return replace(combatant, damage=frozen_map({**combatant.damage, **damage}))

    def tracks(self, combatant: Combatant, encounter: Encounter) -> Sequence[TrackSpec]:
        size = condition.max_hp(combatant)
        return (TrackSpec(WOUNDS, N_("Wounds"), size, "points"), TrackSpec(SHADOW, N_("Shadow damage"), size, "points"))

    def status(self, combatant: Combatant, encounter: Encounter) -> Status:
        return condition.status(combatant, shadow_counts_for_death(encounter))

    def apply_harm(self, combatant: Combatant, track: str, amount: int, encounter: Encounter) -> Combatant:
        if track not in (WOUNDS, SHADOW):
            raise OperationError(_("Damage goes on the wounds or the shadow damage track."))
        hurt = combatant.with_damage(track, max(0, combatant.boxes(track) + amount))
        since = moment(encounter) if acting.dates_dying(encounter) else None
        return condition.settle(combatant, hurt, tables(encounter), shadow_counts_for_death(encounter), since,
                                shadow_clock(encounter))

    def set_damage(self, combatant: Combatant, track: str, value: int, encounter: Encounter) -> Combatant:
        updated = combatant.with_damage(track, value)
        if track == SHADOW and shadow_clock(encounter) is ShadowClock.PER_WOUND:
            updated = note_wounds(combatant, updated, tables(encounter).shadow_recovery_rounds)
        if not acting.dates_dying(encounter):
            return updated  # as fights saved before dyings were dated: they replay unchanged
        return condition.note_dying(combatant, updated, moment(encounter), shadow_counts_for_death(encounter))

    def harm_notation(self) -> str:
        return _("Hit points, e.g. 3; name the track to choose it: 3 shadow")

    def condition_summary(self, combatant: Combatant, encounter: Encounter) -> str:
        """``HP 12/22 · shadow 5``: hit points left (below 0 too) of the maximum, then any shadow damage (it is
        part of the loss, but fades and does not kill)."""
        parts = [_("{hp} {left}/{total}").format(hp=pgettext("souboj", "HP"),
                                                 left=_signed(condition.hit_points(combatant)),
                                                 total=condition.max_hp(combatant))]
        if combatant.boxes(SHADOW) > 0:
            parts.append(_("shadow {points}").format(points=combatant.boxes(SHADOW)))
        return " · ".join(parts)

    def condition_notes(self, combatant: Combatant, encounter: Encounter) -> Sequence[str]:
        notes = [_("Hit points {hp} of {maximum}").format(hp=_signed(condition.hit_points(combatant)),
                                                           maximum=condition.max_hp(combatant))]
        if combatant.boxes(SHADOW) > 0:
            notes.append(_("{hp} without the shadow damage").format(
                hp=_signed(condition.hit_points_without_shadow(combatant))))
        notes += self._status_notes(combatant, encounter)
        notes += _timer_notes(combatant, encounter)
        return notes

    def _status_notes(self, combatant: Combatant, encounter: Encounter) -> list[str]:
        status = self.status(combatant, encounter)
        if status is Status.UNCONSCIOUS:
            return [_("Unconscious, not dying: without the shadow damage the hit points stay above 0")]
        if status is not Status.DYING:
            return [_(STATUS_LABELS[status])] if status is not Status.ACTIVE else []
        left = dying_rounds(combatant)
        notes = [ngettext("Dying: {count} round left", "Dying: {count} rounds left", left).format(count=left)
                 if left is not None else _("Dying: set how many rounds it has left")]
        notes.append(_("Dies at once at {limit} hit points").format(limit=_signed(-condition.max_hp(combatant))))
        return notes

    def can_act(self, combatant: Combatant, encounter: Encounter) -> bool:
        # A dying creature keeps its turn: at its start it may roll Endurance for one last action.
        if self.status(combatant, encounter) not in (Status.ACTIVE, Status.DYING):
            return False
        return not surprised_out(combatant, encounter)

    # --- initiative ---------------------------------------------------------------------------
    def initiative_dice(self, combatant: Combatant, encounter: Encounter) -> DiceSpec:
        return DiceSpec(1, 6, order.modifier_now(combatant, encounter))

    def tiebreak_dice(self) -> int:
        return 0  # ties are not broken: equal scores act together

    def remaining_slots(self, encounter: Encounter) -> list[Slot]:
        if encounter.clock.pass_no == 0:
            return []
        return order.still_to_act(encounter, self.can_act) + delayed_slots(encounter)

    def score_text(self, combatant: Combatant, encounter: Encounter) -> str:
        value = order.score(combatant)
        if value is None or encounter.clock.pass_no == 0:
            return "–" if value is None else _signed(value)
        if value <= -1:
            return _("{score} · loses the round").format(score=_signed(value))
        if gave_up_now(combatant, encounter):
            return _gave_up_text(combatant, encounter, _signed(value))
        parts = [_signed(value)]
        place = order.place_in_group(combatant, encounter, self.can_act)
        if place is not None and place[1] > 1:
            parts.append(f"{place[0]}/{place[1]}")  # its place in the simultaneous group
        declared = declared_now(combatant, encounter)
        if declared is not None:
            parts.append(_(ACTION_SHORT_LABELS[declared.action]))
        if reactions(combatant):
            parts.append(_held_text(combatant))
        return " · ".join(parts)

    # --- timing and the action budget ---------------------------------------------------------
    def time_units(self) -> TimeUnits:
        return TIME_UNITS

    def hooks(self) -> frozenset[Hook]:
        return frozenset({Hook.ROUND_START, Hook.TURN_START, Hook.ROUND_END})

    def on_hook(self, encounter: Encounter, hook: Hook, actors: tuple[str, ...]) -> HookResult:
        if hook is Hook.ROUND_START:
            return self._round_starts(encounter)
        if hook is Hook.TURN_START:
            return HookResult(encounter, self._last_action_reminders(encounter, actors))
        if hook is Hook.ROUND_END:
            return round_ends(encounter)
        return HookResult(encounter)

    def _round_starts(self, encounter: Encounter) -> HookResult:
        state = encounter
        for combatant in encounter.combatants.values():
            if combatant.actions_used:
                state = state.with_combatant(replace(combatant, actions_used=frozen_map()))
        reminders: list[Reminder] = []
        if surprise(state) == REACTIONS_ONLY and state.clock.round == 1 and state.clock.pass_no > 0:
            state, granted = _grant_surprise_reactions(state, self)
            reminders += granted
        if readier_first_now(state) and state.clock.pass_no > 0:
            reminders.append(Reminder(_readier_text(state)))
        return HookResult(state, (*reminders, *self._tie_reminders(state)))

    def _tie_reminders(self, encounter: Encounter) -> tuple[Reminder, ...]:
        reminders = []
        for slot in order.groups(encounter, self.can_act):
            if len(slot.ids) > 1:
                who = ", ".join(encounter.combatant(i).name for i in slot.ids)
                reminders.append(Reminder(_("Score {score}: {names} act simultaneously. Declare their actions: "
                                            "magic, then ranged, then melee.").format(score=slot.phase, names=who)))
        return tuple(reminders)

    def _last_action_reminders(self, encounter: Encounter, actors: tuple[str, ...]) -> tuple[Reminder, ...]:
        dying = [encounter.combatant(i) for i in actors
                 if i in encounter.combatants and self.status(encounter.combatant(i), encounter) is Status.DYING
                 and last_action(encounter.combatant(i)) is None]  # judged once: it is the last
        return tuple(Reminder(_("{name} is dying: roll Endurance ({endurance}) for one last action.").format(
            name=c.name, endurance=c.attribute(ENDURANCE)), c.id) for c in dying)

    def action_budget(self, combatant: Combatant, encounter: Encounter) -> Sequence[BudgetItem]:
        # Having played its turn, or given up its initiative, spends the round's actions too.
        spent = combatant.id in encounter.clock.acted or gave_up_now(combatant, encounter)
        major = _budget_item(combatant, encounter, ACTION, spent)
        minor = _budget_item(combatant, encounter, MINOR, spent)
        return (major, minor) if minor.allowed else (major,)

    def spend_action(self, combatant: Combatant, kind: str, encounter: Encounter) -> Combatant:
        if kind not in (ACTION, MINOR):
            raise OperationError(_("Souboj counts major and minor actions only ({kind!r} is not one).").format(
                kind=kind))
        current = encounter.clock.current
        if current is None or combatant.id not in current.ids:
            raise OperationError(_("{name} can only act at their own initiative.").format(name=combatant.name))
        status = self.status(combatant, encounter)
        judged = acting.verdict(combatant, encounter, status)
        if judged is acting.Verdict.REFUSED:
            raise OperationError(acting.refusal(combatant, status))
        if judged is acting.Verdict.LAST_ACTION:  # "regardless of how many actions it should have had"
            combatant = acting.take_last_action(combatant)
        elif kind == ACTION and self.action_budget(combatant, encounter)[0].left < 1:
            raise OperationError(_("{name} has already acted this round.").format(name=combatant.name))
        elif kind == MINOR and _budget_item(combatant, encounter, MINOR, False).left < 1:
            raise OperationError(_minor_refusal(combatant, encounter))
        used = combatant.actions_used.get(kind, 0) + 1
        return replace(combatant, actions_used=frozen_map({**combatant.actions_used, kind: used}))

    # --- weapons ------------------------------------------------------------------------------
    def weapon_fields(self) -> Sequence[OptionSpec]:
        return weapons.WEAPON_FIELDS

    def check_weapon(self, weapon: Weapon) -> Weapon:
        return weapons.check_weapon(weapon)

    def describe_weapon(self, weapon: Weapon) -> str:
        return weapons.describe_weapon(weapon)

    def reload_action(self, combatant: Combatant, weapon: Weapon, encounter: Encounter) -> str | None:
        # The seed is silent on reloading: a Decision (see weapons.reload_costs), spending the round's one action.
        return ACTION if weapons.reload_costs(combatant, weapon, encounter) else None

    def default_side_order(self) -> tuple[Side, ...]:
        return (Side.PLAYER, Side.ALLY, Side.OPPONENT)

    def outcome_probability(self, operation: Operation, before: Encounter) -> float | None:
        from rules.systems.souboj.outcomes import outcome_probability  # it imports the operations, which import us

        return outcome_probability(operation, before, self)


def _budget_item(combatant: Combatant, encounter: Encounter, kind: str, spent: bool) -> BudgetItem:
    """The creature's major (:data:`ACTION`) or minor actions this round: its own number and what the GM granted."""
    own = actions_per_round(combatant) if kind == ACTION else minor_actions(combatant)
    allowed = own + granted(combatant, encounter, kind)
    used = max(combatant.actions_used.get(kind, 0), allowed if spent else 0)
    if kind == ACTION:
        return BudgetItem(ACTION, N_("action"), used, allowed, N_("{name} takes an action."))
    return BudgetItem(MINOR, N_("minor action"), used, allowed, N_("{name} takes a minor action."))


def _minor_refusal(combatant: Combatant, encounter: Encounter) -> str:
    allowed = _budget_item(combatant, encounter, MINOR, False).allowed
    return ngettext("{name} has {count} minor action a round and has used it: actions per round, major and minor, "
                    "are the creature's own numbers. The GM may grant one more (This round).",
                    "{name} has {count} minor actions a round and has used them: actions per round, major and "
                    "minor, are the creature's own numbers. The GM may grant one more (This round).",
                    allowed).format(name=combatant.name, count=allowed)


# --- options the other modules read -------------------------------------------------------------------------
def tables(encounter: Encounter) -> SoubojTables:
    """The data tables with this encounter's GM overrides (option ``tables``) merged in."""
    overrides = encounter.options.get("tables")
    return load_tables(overrides if isinstance(overrides, Mapping) else None)


def rounding(encounter: Encounter) -> Rounding:
    """How the fading part of the shadow damage is rounded (default: down)."""
    value = encounter.options.get("shadow_rounding", Rounding.DOWN.value)
    return Rounding(value) if value in set(Rounding) else Rounding.DOWN


def shadow_counts_for_death(encounter: Encounter) -> bool:
    """Whether shadow damage counts when a dying creature's hit points are compared with −(maximum)."""
    return encounter.options.get("shadow_counts_for_death", True) is not False


def surprised_out(combatant: Combatant, encounter: Encounter) -> bool:
    """Only the attackers get initiative in round 1: a defender neither rolls for it nor acts in it."""
    if surprise(encounter) != ATTACKERS_ONLY or not defends_in_surprise(combatant, encounter):
        return False
    clock = encounter.clock
    return clock.round == 0 or (clock.round == 1 and clock.pass_no > 0)


def _readier_text(encounter: Encounter) -> str:
    """Round 1 played with the readier side first, as the round's reminder says it."""
    if encounter.options.get(SURPRISE_ATTACKERS, OPPONENTS_ATTACK) == PARTY_ATTACKS:
        return _("Round 1: the player characters and allies are readier and act first, then the opponents, each "
                 "side by its scores.")
    return _("Round 1: the opponents are readier and act first, then the player characters and allies, each side "
             "by its scores.")


def _grant_surprise_reactions(encounter: Encounter, system: RuleSystem) -> tuple[Encounter, list[Reminder]]:
    """The defenders get only reactions in round 1: each gives up its initiative for one."""
    state = encounter
    granted = []
    for combatant in encounter.combatants.values():
        if combatant.initiative is None or not defends_in_surprise(combatant, encounter):
            continue
        if not system.can_act(combatant, encounter):
            continue
        held = with_reactions(combatant, (*reactions(combatant), Reaction(1, surprise=True)))
        state = state.with_combatant(with_extra(held, GAVE_UP, 1))
        granted.append(combatant.name)
    if not granted:
        return state, []
    return state, [Reminder(_("Surprise round: {names} get only reactions.").format(names=", ".join(granted)))]


def round_ends(encounter: Encounter) -> HookResult:
    """After initiative 0: countdowns tick, shadow damage may fade, unkept reactions and the scores go."""
    state = encounter
    reminders: list[Reminder] = []
    data, fade, counts = tables(encounter), rounding(encounter), shadow_counts_for_death(encounter)
    clock, in_round = shadow_clock(encounter), encounter.clock.pass_no > 0  # Time passes ticks outside the rounds
    for combatant in encounter.combatants.values():
        passed = condition.round_passes(combatant, data, fade, counts, clock, in_round)
        updated, note = _drop_reaction(passed.combatant, encounter)
        reminders += _round_reminders(passed, note)
        if updated.initiative is not None:
            updated = replace(updated, initiative=None)  # rolled again next round
        if updated != combatant:
            state = state.with_combatant(updated)
    return HookResult(state, tuple(reminders))


def _drop_reaction(combatant: Combatant, encounter: Encounter) -> tuple[Combatant, Reminder | None]:
    """At the round's end the reactions that do not carry over are lost; those that do stay beside new ones."""
    held = reactions(combatant)
    kept = tuple(item for item in held if item.carries_over)
    lost = len(held) - len(kept)
    if not lost:
        return combatant, None
    text = ngettext("{name}'s held reaction is lost.", "{count} held reactions of {name} are lost.", lost).format(
        name=combatant.name, count=lost)
    return with_reactions(combatant, kept), Reminder(text, combatant.id)


def _round_reminders(passed: condition.RoundPassed, dropped: Reminder | None) -> list[Reminder]:
    combatant = passed.combatant
    reminders = [dropped] if dropped is not None else []
    if passed.faded:
        reminders.append(Reminder(_("{count} shadow damage of {name} fades.").format(
            count=passed.faded, name=combatant.name), combatant.id))
    if passed.died:
        reminders.append(Reminder(_("{name} dies.").format(name=combatant.name), combatant.id))
    if passed.woke:
        reminders.append(Reminder(_("{name} wakes up.").format(name=combatant.name), combatant.id))
    return reminders


def _timer_notes(combatant: Combatant, encounter: Encounter) -> list[str]:
    notes = shadow_notes(combatant, shadow_clock(encounter), tables(encounter), rounding(encounter))
    for held in reactions(combatant):
        notes.append(_("Reaction held, carries over to the next round") if held.carries_over
                     else _("Reaction held"))
    modifier = order.modifier_now(combatant, encounter)
    if modifier:
        notes.append(_("Initiative {modifier} from effects").format(modifier=_signed(modifier, plus=True)))
    return notes


def _held_text(combatant: Combatant) -> str:
    """"reaction held", "3 reactions held"."""
    count = len(reactions(combatant))
    return _("reaction held") if count == 1 else ngettext("{count} reaction held", "{count} reactions held",
                                                          count).format(count=count)


def _gave_up_text(combatant: Combatant, encounter: Encounter, score: str) -> str:
    if reactions(combatant):
        return _("{score} · {held}").format(score=score, held=_held_text(combatant))
    current = encounter.clock.current
    if current is not None and combatant.id in current.ids:
        return _("{score} · reacting").format(score=score)
    return _("{score} · gave up the initiative").format(score=score)


def _signed(value: int, plus: bool = False) -> str:
    """−3 with a real minus sign; +2 when ``plus``."""
    if value < 0:
        return f"−{-value}"
    return f"+{value}" if plus and value > 0 else str(value)
