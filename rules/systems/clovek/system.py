"""Člověk as a RuleSystem: banks from attributes, stun and wound tracks per type, initiative, the turn's budget.

Round timing (clovek.md): initiative is rolled at the start of every round with the mental dice each character
chose to risk; those dice stay spent for the round (charged at ROUND_START, when the round's initiative is in).
At ROUND_END every bank refills, the round's actions and burn count are forgotten and the initiative is cleared
(it is rolled again, with fresh dice, for the next round).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Final

from rules.dice import DiceWord
from rules.encounter import (
    Combatant,
    Encounter,
    Initiative,
    JsonValue,
    Pool,
    Slot,
    SlotKind,
    Status,
    Weapon,
    frozen_map,
)
from rules.errors import OperationError, RulesError
from rules.harm import Harm
from rules.history import History, LogLine, Operation
from rules.systems.base import (
    AttributeSpec,
    BudgetItem,
    DiceSpec,
    Hook,
    HookResult,
    InitiativeInput,
    OptionKind,
    OptionSpec,
    RuleSystem,
    TrackSpec,
)
from rules.systems.clovek.banks import (
    ARMOR,
    BANK_CONTEXT,
    BANK_SHORT,
    BANK_TITLES,
    BANK_WORDS,
    BANKS,
    COMPOSURE,
    INITIATIVE_DICE,
    MENTAL,
    PHYSICAL,
    STUN,
    TRACK_KINDS,
    TRACK_LABELS,
    WOUNDS,
    bank,
    bank_size,
    bundled_track_sizes,
    check_capacity_names,
    initiative_dice_chosen,
    read_track_sizes,
    refilled,
    split_track,
    track_key,
    track_sizes,
    with_extra,
    with_spent,
)
from rules.systems.clovek.dice import DICE_WORDS, read_clovek_faces
from rules.systems.clovek.economy import OFF_HAND_BURNS, action_type, new_round, spend_dice, take_action
from rules.systems.clovek.long_actions import healing_blocked, long_actions
from rules.systems.clovek.order import (
    BY_ALTERNATION,
    BY_INITIATIVE,
    BY_LOGIC,
    TURN_ORDER,
    SetTurnPlace,
    gm_order,
    round_places,
    turn_order,
)
from rules.systems.clovek.rolls import (
    D10_FACES,
    FACES_PLAIN,
    FACES_TWO_DIGIT,
    FLOOR_EVERY_SKILL,
    FLOOR_SUPERNATURAL,
    REROLL_LITERAL,
    REROLL_SUCCESSES,
    SUCCESS_FLOOR,
    SUPERNATURAL_REROLL,
)
from rules.systems.clovek.weapons import (
    ONE_PHYSICAL_DIE,
    RELOAD_OPTION,
    RELOAD_SPEC,
    WEAPON_FIELDS,
    check_weapon,
    describe_weapon,
    reload_kind,
)
from rules.text import N_, NP_, _, pgettext
from rules.turns import delayed_slots

ACTION_LABELS: Final[dict[str, str]] = {PHYSICAL: N_("physical action"), "social": N_("social action"),
                                        MENTAL: N_("mental action")}
#: The log line when one is used (the panel's buttons).
SPENT_TEXTS: Final[dict[str, str]] = {PHYSICAL: N_("{name} takes a physical action."),
                                      "social": N_("{name} takes a social action."),
                                      MENTAL: N_("{name} takes a mental action.")}

_ATTRIBUTES: Final[tuple[AttributeSpec, ...]] = (
    AttributeSpec("agility", N_("Agility"), 2, 0, 20, N_("Agi")),
    AttributeSpec("charm", N_("Charm"), 2, 0, 20, N_("Cha")),
    AttributeSpec("intelligence", N_("Intelligence"), 2, 0, 20, N_("Int")),
    AttributeSpec("constitution", N_("Constitution"), 2, 0, 20, N_("Con")),
    AttributeSpec("social_capacity", N_("Social capacity"), 2, 0, 20, N_("SCap")),
    AttributeSpec("mental_capacity", N_("Mental capacity"), 2, 0, 20, N_("MCap")),
    AttributeSpec(COMPOSURE, N_("Composure"), 2, 0, 20, N_("Comp")),
    # clovek.md: "Armor (from the examples): a power penalty on incoming attacks (light armor −2)".
    AttributeSpec(ARMOR, N_("Armor (power penalty)"), 0, 0, 20, NP_("clovek", "Arm"), context="clovek",
                  filled_when_added=False),
)

NOTE_ONLY, UNCONSCIOUS = "note", "unconscious"
#: clovek.md Decision: the banks refill at the end of the round (default) or, by option, at the start of the next.
REFILL, REFILL_AT_END, REFILL_AT_START = "banks_refill", "end", "start"


def _options() -> tuple[OptionSpec, ...]:
    sizes = frozen_map({name: frozen_map(kinds) for name, kinds in bundled_track_sizes().items()})
    return (
        OptionSpec("track_sizes", N_("Stun and wound track sizes"), OptionKind.TABLE, sizes,
                   help=N_("Boxes per track, by bank and kind, e.g. {\"physical\": {\"stun\": 12}} (default 10 "
                           "each)."), labels=(("stun", N_("Stun")), ("wounds", N_("Wounds")), *BANK_TITLES.items())),
        OptionSpec("capacity_names", N_("Names of the social and mental capacity attributes"), OptionKind.TABLE,
                   frozen_map({"social": "", "mental": ""}),
                   help=N_("What your campaign calls them, e.g. {\"social\": \"Will\"}; a character may have its "
                           "own names. Empty: Social capacity, Mental capacity."),
                   labels=(("social", N_("Social capacity")), ("mental", N_("Mental capacity")))),
        OptionSpec(SUCCESS_FLOOR, N_("The minimum success number 5 binds"), OptionKind.CHOICE, FLOOR_EVERY_SKILL,
                   choices=((FLOOR_EVERY_SKILL, N_("every roll (a die succeeds on 10 − skill, at least 5)")),
                            (FLOOR_SUPERNATURAL, N_("supernatural skills only (others succeed on 10 − skill)"))),
                   help=N_("The text gives the minimum 5 for supernatural skills, the summary for every roll; the "
                           "designer calls these the rules for skills of 6 or more. Power rolls follow it as "
                           "skills that are not supernatural.")),
        OptionSpec(SUPERNATURAL_REROLL, N_("A supernatural skill of 11 or more rerolls"), OptionKind.CHOICE,
                   REROLL_SUCCESSES,
                   choices=((REROLL_SUCCESSES, N_("only its successful dice")),
                            (REROLL_LITERAL, N_("every die at 15 − skill or more, a failed one too"))),
                   help=N_("A supernatural skill rerolls from 15 − skill; from skill 11 that is below the success "
                           "number. The reroll is “for further successes”, so by default only successes reroll. "
                           "A 1 never rerolls.")),
        OptionSpec(D10_FACES, N_("The table's d10s show"), OptionKind.CHOICE, FACES_PLAIN,
                   choices=((FACES_PLAIN, N_("0 to 9 (a typed 10 is a ten)")),
                            (FACES_TWO_DIGIT, N_("00 to 90 (a typed 10 is a one, 00 a ten)"))),
                   help=N_("On d10s with two-digit faces the second digit is ignored: 10 is 1, 20 is 2, 00 is 10. "
                           "Faces typed as 00 or 20–90 are read so either way; only 10 needs this choice.")),
        OptionSpec("power_critical_range", N_("Critical range of power rolls (highest face)"), OptionKind.INT, 2,
                   minimum=1, maximum=4,
                   help=N_("The rules say 1–2; the seed's Cesare example (2, 5, 4 is no critical failure) reads "
                           "as 1.")),
        OptionSpec(REFILL, N_("The dice banks refill at"), OptionKind.CHOICE, REFILL_AT_END,
                   choices=((REFILL_AT_END, N_("the end of the round")),
                            (REFILL_AT_START, N_("the start of the next round"))),
                   help=N_("The designer was unsure (“na konci či začátku kola”); the rules say the end "
                           "throughout.")),
        OptionSpec("full_physical_wounds", N_("A full physical wound track means"), OptionKind.CHOICE, NOTE_ONLY,
                   choices=((NOTE_ONLY, N_("Only a note (the rules say nothing)")),
                            (UNCONSCIOUS, N_("Unconscious")))),
        OptionSpec(OFF_HAND_BURNS, N_("The off-hand action of a physical conflict burns a stun wound"),
                   OptionKind.BOOL, False,
                   help=N_("The rules' example counts the off-hand action's dice and names no burn (default: it "
                           "burns none); tick for one stun wound, as for other extra actions.")),
        OptionSpec(TURN_ORDER, N_("Turns in a round go"), OptionKind.CHOICE, BY_INITIATIVE,
                   choices=((BY_INITIATIVE, N_("by initiative: each may risk mental dice")),
                            (BY_ALTERNATION, N_("by alternation, no initiative roll: a player, then an opponent, "
                                                "each side in the GM's order")),
                            (BY_LOGIC, N_("by the conflict's logic, no initiative roll: in the order the GM "
                                          "arranges"))),
                   help=N_("The rules order a conflict's turns by alternation, by its logic or by initiative. "
                           "Without initiative, Roll initiative only starts the round (no mental dice are risked) "
                           "and the Initiative column shows each one's place in the GM's order: type a place there to "
                           "move someone; it holds for the whole conflict.")),
        RELOAD_SPEC,
    )


_OPTIONS: Final[tuple[OptionSpec, ...]] = _options()


def initiative_score(initiative: Initiative) -> int:
    """The GM's score if set, else the best die plus Composure (no dice: Composure alone)."""
    if initiative.override is not None:
        return initiative.override
    return initiative.base + max(initiative.dice, default=0)


def _refuse_blocked_healing(combatant: Combatant, bank: str, kind: str) -> None:
    """clovek.md: stun of a long action's type does not heal while it runs (OperationError naming the action)."""
    blocker = healing_blocked(combatant, bank) if kind == STUN else None
    if blocker is not None:
        raise OperationError(_("{name}'s {bank} stun wounds do not heal while “{action}” goes on.").format(
            name=combatant.name, bank=_(BANK_WORDS[bank]), action=blocker.name))


class ClovekSystem(RuleSystem):
    """Člověk: three banks of d10, one action type per turn, reactions at any time, burning stun for dice."""

    id = "clovek"
    title = N_("Člověk")


    def sample(self) -> History:
        from rules.systems.clovek.sample import sample  # on first use: opening a fight needs no sample

        return sample()

    def dice_words(self) -> Sequence[DiceWord]:
        return DICE_WORDS

    def option_specs(self) -> Sequence[OptionSpec]:
        return _OPTIONS

    def validate_option(self, spec: OptionSpec, value: JsonValue) -> JsonValue:
        if spec.kind is OptionKind.CHOICE and not isinstance(value, str):
            # OptionSpec.validate looks a choice up in a set, which a table value (unhashable) would crash.
            raise RulesError(_("Option “{option}” cannot be {value!r}.").format(option=_(spec.label), value=value))
        value = spec.validate(value)
        if spec.key == "track_sizes":
            read_track_sizes(value)
        elif spec.key == "capacity_names":
            check_capacity_names(value)
        return value

    def attribute_specs(self) -> Sequence[AttributeSpec]:
        return _ATTRIBUTES

    # --- combatants ---------------------------------------------------------------------------
    def prepare(self, combatant: Combatant, encounter: Encounter) -> Combatant:
        """Banks of 2 × Agility / Charm / Intelligence (spent dice kept), and all six tracks."""
        pools = dict(combatant.pools)
        for name in BANKS:
            size = bank_size(combatant, name)
            pools[name] = Pool(size, min(bank(combatant, name).spent, size))
        damage = {track_key(name, kind): combatant.boxes(track_key(name, kind)) for name in BANKS
                  for kind in TRACK_KINDS}
        return replace(combatant, pools=frozen_map(pools), damage=frozen_map({**combatant.damage, **damage}))

    def tracks(self, combatant: Combatant, encounter: Encounter) -> Sequence[TrackSpec]:
        sizes = track_sizes(encounter)
        return tuple(TrackSpec(track_key(name, kind), TRACK_LABELS[name, kind], sizes[name, kind])
                     for name in BANKS for kind in TRACK_KINDS)

    def status(self, combatant: Combatant, encounter: Encounter) -> Status:
        if self.option(encounter, "full_physical_wounds") != UNCONSCIOUS:
            return Status.ACTIVE
        full = combatant.boxes(track_key(PHYSICAL, WOUNDS)) >= track_sizes(encounter)[PHYSICAL, WOUNDS]
        return Status.UNCONSCIOUS if full else Status.ACTIVE

    def apply_harm(self, combatant: Combatant, track: str, amount: int, encounter: Encounter) -> Combatant:
        """Marks on the track, kept within it; stun of a long action's type does not heal while it runs."""
        parts = split_track(track)
        if parts is None:
            raise OperationError(_("{name} has no condition track {track!r}.").format(name=combatant.name,
                                                                                     track=track))
        name, kind = parts
        if amount < 0:
            _refuse_blocked_healing(combatant, name, kind)
        size = track_sizes(encounter)[name, kind]
        return combatant.with_damage(track, min(size, max(0, combatant.boxes(track) + amount)))

    def set_damage(self, combatant: Combatant, track: str, value: int, encounter: Encounter) -> Combatant:
        """A stun box clicked clear heals it: refused while a long action of its type runs, as the Heal dialog is."""
        parts = split_track(track)
        if parts is not None and value < combatant.boxes(track):
            _refuse_blocked_healing(combatant, *parts)
        return super().set_damage(combatant, track, value, encounter)

    def parse_harm(self, text: str, combatant: Combatant, track: str, encounter: Encounter,
                   heal: bool = False) -> Harm:
        """The power of what hit (as many marks), on the chosen track or the one named: ``3``, ``3 social stun``.

        A power of 0 or less is the digest's "succeeded without lasting effect": nothing to mark, said so."""
        first = (text.split(maxsplit=1) or [""])[0]
        power = first.replace("−", "-")
        if not heal and power.lstrip("-").isdigit() and int(power) <= 0:
            raise RulesError(_("Power {power}: the action succeeds without lasting effect, nothing to mark.").format(
                power=first))
        harm = super().parse_harm(text, combatant, track, encounter, heal)
        if heal:
            return harm
        return replace(harm, meaning=_("Power {power}: {marks}").format(power=harm.amount, marks=harm.meaning))

    def harm_notation(self) -> str:
        return _("The power (as many wounds), e.g. 3, 3 social or 2 mental stun")

    def condition_summary(self, combatant: Combatant, encounter: Encounter) -> str:
        """Bank by bank, the stun wounds and wounds marked: ``Phys: stun 2/10, wounds 7/10 · Ment: stun 1/10``
        (banks without a mark are left out; "Unhurt" when none has one)."""
        sizes = track_sizes(encounter)
        words = {STUN: N_("stun {marked}/{size}"), WOUNDS: N_("wounds {marked}/{size}")}
        banks = []
        for name in BANKS:
            marks = [_(words[kind]).format(marked=combatant.boxes(track_key(name, kind)), size=sizes[name, kind])
                     for kind in TRACK_KINDS if combatant.boxes(track_key(name, kind))]
            if marks:
                banks.append(_("{bank}: {tracks}").format(bank=pgettext(BANK_CONTEXT, BANK_SHORT[name]),
                                                          tracks=", ".join(marks)))
        return " · ".join(banks) if banks else _("Unhurt")

    def condition_notes(self, combatant: Combatant, encounter: Encounter) -> Sequence[str]:
        notes = [_("Dice left: {banks}").format(banks=", ".join(
            f"{_(BANK_WORDS[name])} {bank(combatant, name).remaining}/{bank(combatant, name).size}"
            for name in BANKS))]
        chosen = action_type(combatant)
        if chosen is not None:
            notes.append(_("This round's actions: {bank}").format(bank=_(BANK_WORDS[chosen])))
        notes += self._full_tracks(combatant, encounter)
        for action in long_actions(combatant):
            if action.blocks_healing:
                notes.append(_("{bank} stun does not heal: “{action}” {power}/{target}").format(
                    bank=_(BANK_TITLES[action.bank]), action=action.name, power=action.power, target=action.target))
        return notes

    def _full_tracks(self, combatant: Combatant, encounter: Encounter) -> list[str]:
        sizes = track_sizes(encounter)
        return [_("{track} track is full").format(track=_(TRACK_LABELS[name, kind])) for name in BANKS
                for kind in TRACK_KINDS if combatant.boxes(track_key(name, kind)) >= sizes[name, kind]]

    # --- initiative ---------------------------------------------------------------------------
    def turn_order(self, encounter: Encounter) -> str:
        """How the round's turns are ordered (option): by initiative, by alternation or by the conflict's logic."""
        return turn_order(self, encounter)

    def rolls_initiative(self, encounter: Encounter) -> bool:
        """Only turns by initiative roll it; alternation and the conflict's logic follow the GM's order."""
        return self.turn_order(encounter) == BY_INITIATIVE

    def initiative_dice(self, combatant: Combatant, encounter: Encounter) -> DiceSpec:
        """The mental dice the character chose to risk (as many as are left), best die + Composure; none when the
        turns go without an initiative roll."""
        rolled = self.turn_order(encounter) == BY_INITIATIVE
        count = min(initiative_dice_chosen(combatant), bank(combatant, MENTAL).remaining) if rolled else 0
        return DiceSpec(count, 10, combatant.attribute(COMPOSURE))

    def initiative_from_total(self, combatant: Combatant, encounter: Encounter, total: int) -> Initiative:
        """The best die is the total less Composure (the other dice risked count only as spent mental dice)."""
        spec = self.initiative_dice(combatant, encounter)
        if spec.count == 0:
            if total != spec.base:
                raise RulesError(_("{name} risks no mental dice: the initiative is Composure, {composure}, "
                                   "not {total}.").format(name=combatant.name, composure=spec.base, total=total))
            return Initiative(spec.base)
        if not 1 <= total - spec.base <= spec.sides:
            raise RulesError(_("{name}'s initiative is the best die plus Composure {composure}: {low} to {high}, "
                               "not {total}.").format(name=combatant.name, composure=spec.base, low=spec.base + 1,
                                                      high=spec.base + spec.sides, total=total))
        return Initiative(spec.base, (total - spec.base,))

    def initiative_inputs(self, combatant: Combatant, encounter: Encounter) -> Sequence[InitiativeInput]:
        """The mental dice to risk, up to those left in the bank (typing faces says how many were rolled); none
        when the turns go without an initiative roll."""
        if self.turn_order(encounter) != BY_INITIATIVE:
            return ()
        left = bank(combatant, MENTAL).remaining
        return (InitiativeInput(INITIATIVE_DICE, N_("Mental dice risked"), min(initiative_dice_chosen(combatant), left),
                                0, left, counts_dice=True,
                                help=N_("Best die + Composure; the dice stay spent for the round.")),)

    def typed_faces(self, text: str, spec: DiceSpec, encounter: Encounter) -> str:
        """Mental dice typed as two-digit dice show them, read as faces (a total, "=12" or a lone number for
        several dice, stays as typed)."""
        numbers = text.replace(",", " ").replace(";", " ").split()
        if text.strip().startswith("=") or (len(numbers) == 1 and "+" not in text and spec.count != 1):
            return text
        return read_clovek_faces(text, self.option(encounter, D10_FACES) == FACES_TWO_DIGIT)

    def store_initiative_inputs(self, combatant: Combatant, values: Mapping[str, int],
                                encounter: Encounter) -> Combatant:
        """The dice risked are kept for the next rounds, as if set in the dice banks panel."""
        return with_extra(combatant, INITIATIVE_DICE, values[INITIATIVE_DICE])

    def tiebreak_sides(self) -> int:
        """clovek.md Decision: ties "go to the higher Composure, then a d10 roll-off" (the dice rolled up front
        are that roll-off, rolled again while it ties)."""
        return 10

    def tie_lines(self, encounter: Encounter) -> Sequence[LogLine]:
        """One line per tie that the same Composure leaves to the roll-off: the d10s each rolled, winner first."""
        if self.turn_order(encounter) != BY_INITIATIVE:
            return ()
        ties: dict[tuple[int, int], list[Combatant]] = {}
        for combatant in encounter.combatants.values():
            if combatant.initiative is not None and self.can_act(combatant, encounter):
                ties.setdefault((_score(combatant), combatant.attribute(COMPOSURE)), []).append(combatant)
        return tuple(_roll_off_line(score, composure, tied) for (score, composure), tied in ties.items()
                     if len(tied) > 1)

    def remaining_slots(self, encounter: Encounter) -> list[Slot]:
        clock = encounter.clock
        taking_part = [c for c in encounter.combatants.values()
                       if c.initiative is not None and self.can_act(c, encounter)]
        waiting = [c for c in taking_part if c.id not in clock.acted]
        if self.turn_order(encounter) != BY_INITIATIVE:
            places = round_places(self, encounter, taking_part)
            waiting.sort(key=lambda c: places[c.id])
        else:
            waiting.sort(key=lambda c: _tie_key(c, clock.yielded), reverse=True)
        # No phase numbers: Člověk's turns follow the order, and "phase 9" would be Shadowrun talk.
        actors = [Slot(SlotKind.ACTORS, (c.id,)) for c in waiting]
        return actors + delayed_slots(encounter)

    def score_text(self, combatant: Combatant, encounter: Encounter) -> str:
        """The initiative score; without initiative, the place in the GM's order (1 first; alternating, the sides
        take turns in it)."""
        if self.turn_order(encounter) != BY_INITIATIVE:
            ordered = [c.id for c in gm_order(list(encounter.combatants.values()))]
            return str(ordered.index(combatant.id) + 1)
        return "–" if combatant.initiative is None else str(initiative_score(combatant.initiative))

    def score_edit(self, combatant: Combatant, text: str, encounter: Encounter) -> Operation | None:
        """Without initiative a number typed in the order column is the combatant's new place in the GM's order."""
        if self.turn_order(encounter) == BY_INITIATIVE:
            return None
        typed = text.strip()
        if not typed.isascii() or not typed.isdigit():
            raise RulesError(_("Type the place in the turn order, 1 for the first."))
        return SetTurnPlace(combatant.id, int(typed))

    # --- timing and the turn ------------------------------------------------------------------
    def on_hook(self, encounter: Encounter, hook: Hook, actors: tuple[str, ...]) -> HookResult:
        at_start = self.option(encounter, REFILL) == REFILL_AT_START
        if hook is Hook.ROUND_START:
            return HookResult(_charge_initiative_dice(_refill_all(encounter) if at_start else encounter, self))
        if hook is Hook.ROUND_END:
            return HookResult(_end_round(encounter, refill=not at_start))
        return HookResult(encounter)

    def action_budget(self, combatant: Combatant, encounter: Encounter) -> Sequence[BudgetItem]:
        """Before acting: one action of any type with dice left; after: only that type (bonus actions apart)."""
        chosen = action_type(combatant)
        if chosen is not None:
            used = combatant.actions_used.get(chosen, 0)
            return (BudgetItem(chosen, ACTION_LABELS[chosen], used, used, SPENT_TEXTS[chosen]),)
        return tuple(BudgetItem(name, ACTION_LABELS[name], 0, 1 if bank(combatant, name).remaining else 0,
                                SPENT_TEXTS[name]) for name in BANKS)

    # --- weapons ----------------------------------------------------------------------------------
    def weapon_fields(self) -> Sequence[OptionSpec]:
        return WEAPON_FIELDS

    def check_weapon(self, weapon: Weapon) -> Weapon:
        return check_weapon(weapon)

    def describe_weapon(self, weapon: Weapon) -> str:
        return describe_weapon(weapon)

    def reload_action(self, combatant: Combatant, weapon: Weapon, encounter: Encounter) -> str | None:
        """What the encounter's reload option says (a **Decision**: the seed is silent on reloading)."""
        return reload_kind(self.option(encounter, RELOAD_OPTION))

    def spend_action(self, combatant: Combatant, kind: str, encounter: Encounter) -> Combatant:
        """An action of type ``kind`` with the one die every activity needs at least (``physical_die``: that
        die alone, no action taken: a reload the GM counts like a reaction)."""
        if kind == ONE_PHYSICAL_DIE:
            return spend_dice(combatant, PHYSICAL, 1)
        if kind not in BANKS:
            raise OperationError(_("Unknown action type {kind!r}: physical, social or mental.").format(kind=kind))
        acted, _burnt = take_action(combatant, kind, encounter)
        return spend_dice(acted, kind, 1)

    def outcome_probability(self, operation: Operation, before: Encounter) -> float | None:
        from rules.systems.clovek.outcomes import outcome_probability  # it imports the operations, which import us

        return outcome_probability(operation, before, self)


def _score(combatant: Combatant) -> int:
    return initiative_score(combatant.initiative) if combatant.initiative is not None else 0


def _tie_key(combatant: Combatant, yielded: frozenset[str]) -> tuple[int, ...]:
    """Highest score first; one who yielded goes after its ties; then the higher Composure; then the tie-break
    dice rolled with it (clovek.md Decision: "ties (the seed is silent) go to the higher Composure, then a d10
    roll-off": the dice rolled up front are that roll-off, the same for every tie of the round)."""
    initiative = combatant.initiative
    tiebreak = initiative.tiebreak if initiative is not None else ()
    return (_score(combatant), 0 if combatant.id in yielded else 1, combatant.attribute(COMPOSURE), *tiebreak)


def _roll_off_line(score: int, composure: int, tied: list[Combatant]) -> LogLine:
    """"Tie at 4, Composure 4 too: the d10 roll-off gives Cesare 6; Adriana 1" (as many dice as it took)."""
    dice = [c.initiative.tiebreak if c.initiative is not None else () for c in tied]
    shown = next((length for length in range(1, max(map(len, dice), default=0) + 1)
                  if len({faces[:length] for faces in dice}) == len(dice)), max(map(len, dice), default=0))
    ranked = sorted(zip(tied, dice, strict=True), key=lambda pair: pair[1], reverse=True)
    rolls = "; ".join(f"{c.name} {', '.join(map(str, faces[:shown]))}" for c, faces in ranked)
    return LogLine("Tie at {score}, Composure {composure} too: the d10 roll-off gives {rolls}.",
                   {"score": score, "composure": composure, "rolls": rolls})


def _charge_initiative_dice(encounter: Encounter, system: ClovekSystem) -> Encounter:
    """The mental dice rolled for initiative stay spent; keep only the best die (the score counts no other).

    As many are spent as the character risked (the faces typed or rolled are that many; an announced total keeps
    only its best die)."""
    state = encounter
    for combatant in encounter.combatants.values():
        rolled = combatant.initiative
        if rolled is None or not rolled.dice:
            continue
        risked = max(len(rolled.dice), system.initiative_dice(combatant, encounter).count)
        charged = with_spent(combatant, MENTAL, bank(combatant, MENTAL).spent + risked)
        best = replace(rolled, dice=(max(rolled.dice),))
        state = state.with_combatant(replace(charged, initiative=best))
    return state


def _end_round(encounter: Encounter, refill: bool) -> Encounter:
    """The round's actions, burn count and initiative are over; the banks refill (``refill``, the default)."""
    state = encounter
    for combatant in encounter.combatants.values():
        ended = replace(new_round(refilled(combatant) if refill else combatant), initiative=None)
        if ended != combatant:
            state = state.with_combatant(ended)
    return state


def _refill_all(encounter: Encounter) -> Encounter:
    """Every bank full again (the option's round start, before the initiative dice risked are charged)."""
    state = encounter
    for combatant in encounter.combatants.values():
        full = refilled(combatant)
        if full != combatant:
            state = state.with_combatant(full)
    return state

