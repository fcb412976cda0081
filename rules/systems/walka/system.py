"""Walka as a RuleSystem: Hit Points and Chances, two actions a round, initiative by seat around the table."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Final

from rules.encounter import (
    STATUS_LABELS,
    Combatant,
    Encounter,
    JsonValue,
    Pool,
    Side,
    Slot,
    SlotKind,
    Status,
    Weapon,
    frozen_map,
)
from rules.harm import Harm
from rules.history import History, Operation
from rules.systems.base import (
    AttributeSpec,
    BudgetItem,
    DiceSpec,
    EffectMeaning,
    Hook,
    HookResult,
    OptionKind,
    OptionSpec,
    Reminder,
    RuleSystem,
    TrackSpec,
)
from rules.systems.walka import actions, seating, weapons
from rules.systems.walka.effect_meanings import MEANINGS
from rules.systems.walka.skills import ATTACK_SKILLS, DEFENCE_SKILLS, MELEE, PARRY, Defences, load_defences
from rules.text import N_, NP_, _, ngettext, pgettext
from rules.turns import delayed_slots

HP: Final[str] = "hp"
CHANCE: Final[str] = N_("chance")  # also the pool's shown name, hence marked
INITIATIVE_DIE: Final[int] = 12

REROLL, TEST_DIE, TIE_DEFAULT = "reroll_each_round", "test_die", "gm_tie_default"
AIM_ACTIONS, AIM_LASTS, DEFENCES = "aim_actions", "aim_lasts", "defences"
DOWN_FORBIDS = "down_forbids"
AIM_DOUBLES, AFTER_ARMOR, BEFORE_ARMOR = "aim_doubles", "after_armor", "before_armor"
SUCCESS, AT_OR_UNDER, UNDER = "test_success", "at_or_under", "under"
MOVE_EXACTLY = "move_exactly"
AIM_TWICE, AIM_ONCE, AIM_AGAIN = "aim_twice", "once", "again"
PARRY_WITH, PARRY_WITH_MELEE, PARRY_WITH_OWN = "parry_with", "melee", "parry"
D100_TENS = "100_tens"
CHANCES = "chances"

_OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(REROLL, N_("Re-roll initiative every round"), OptionKind.BOOL, False,
               help=N_("Off: the seats roll once per combat and the order stands.")),
    # walka.md Decision: "the test die is a d20 (option d100 …) (option for d100: an extra tens die)".
    OptionSpec(TEST_DIE, N_("Test die"), OptionKind.CHOICE, "20",
               choices=(("20", N_("d20")), ("100", N_("d100")),
                        (D100_TENS, N_("d100, bonus and penalty dice as tens dice"))),
               help=N_("The rules text names no die. With tens dice, the units die is rolled once and each bonus or "
                       "penalty die is one more tens die beside it.")),
    OptionSpec(SUCCESS, N_("A test succeeds on a roll"), OptionKind.CHOICE, AT_OR_UNDER,
               choices=((AT_OR_UNDER, N_("at or under the skill")), (UNDER, N_("under the skill")))),
    OptionSpec(TIE_DEFAULT, N_("When the GM ties with players for the lowest roll, until the GM decides"),
               OptionKind.CHOICE, seating.PLAYERS,
               choices=((seating.PLAYERS, N_("the players' side goes first")),
                        (seating.GM, N_("the GM's side goes first")))),
    OptionSpec(MOVE_EXACTLY, N_("A Move is exactly 5 squares (10 m)"), OptionKind.BOOL, False,
               help=N_("The seed says “dokładnie 5 kratek” (exactly 5 squares); off: 5 squares is the most, a shorter "
                       "move is always possible.")),
    OptionSpec(AIM_ACTIONS, N_("Actions an aim takes"), OptionKind.INT, 1, minimum=1,
               maximum=actions.ACTIONS_PER_ROUND),
    OptionSpec(AIM_LASTS, N_("Aim doubles the damage pool of the next attack made in"), OptionKind.CHOICE,
               actions.AIM_NEXT_ROUND, choices=((actions.AIM_NEXT_ROUND, N_("the same or the next round")),
                                                (actions.AIM_SAME_ROUND, N_("the same round only")))),
    # walka.md Decision: "a second Aim before the same attack does not double again (default: the seed says
    # doubles, once; option: it does)".
    OptionSpec(AIM_TWICE, N_("A second Aim before the same attack"), OptionKind.CHOICE, AIM_ONCE,
               choices=((AIM_ONCE, N_("does not double the pool again")), (AIM_AGAIN, N_("doubles it again (× 4)"))),
               help=N_("The seed says an Aim “doubles the number of dice in the pool”, once.")),
    OptionSpec(AIM_DOUBLES, N_("Aim doubles the damage pool"), OptionKind.CHOICE, AFTER_ARMOR,
               choices=((AFTER_ARMOR, N_("after armor (the pool is defined after armor)")),
                        (BEFORE_ARMOR, N_("before armor (the weapon's dice and modifiers)")))),
    OptionSpec(DOWN_FORBIDS, N_("A knocked-down character may not, before standing up"), OptionKind.SET,
               actions.DOWN_FORBIDS_DEFAULT,
               choices=tuple((kind, actions.ACTION_LABELS[kind]) for kind in actions.DOWN_FORBIDDABLE),
               help=N_("The seed only says standing up is needed to return to the fight: by default a knocked-down "
                       "character may not attack or aim.")),
    # walka.md Decision: "Parry (rolled with the defender's Melee weapons skill)": "(Broń biała)" names that skill.
    OptionSpec(PARRY_WITH, N_("Parry is rolled with"), OptionKind.CHOICE, PARRY_WITH_MELEE,
               choices=((PARRY_WITH_MELEE, N_("the defender's Melee weapons skill")),
                        (PARRY_WITH_OWN, N_("a Parry skill of its own"))),
               help=N_("The seed writes “Parowaniem (Broń biała)”: parrying with the melee weapons skill.")),
    OptionSpec(DEFENCES, N_("Defences against each attack skill"), OptionKind.TABLE, {},
               help=N_('E.g. {"brawling": ["dodge", "parry"]}; skills not named keep the bundled defences.'),
               labels=(*ATTACK_SKILLS.items(), *DEFENCE_SKILLS.items())),
    weapons.RELOAD_SPEC,
)

_ATTRIBUTES: Final[tuple[AttributeSpec, ...]] = (
    AttributeSpec("hit_points", N_("Hit Points"), 10, 1, 999, NP_("walka", "HP"), context="walka"),
    AttributeSpec(CHANCES, N_("Chances"), 1, 0, 20, N_("Ch")),
    AttributeSpec("armor", N_("Armor class"), 0, 0, 30, N_("AC")),
    AttributeSpec("weapon_dice", N_("Weapon dice"), 2, 0, 30, NP_("walka", "WD"), context="walka"),
    AttributeSpec("firearms", N_("Firearms"), 10, 0, 100, N_("Fir")),
    AttributeSpec("melee", N_("Melee weapons"), 10, 0, 100, NP_("walka", "Mel"), context="walka"),
    AttributeSpec("brawling", N_("Brawling"), 10, 0, 100, N_("Bra")),
    AttributeSpec("interface", N_("Interface"), 10, 0, 100, N_("Int")),
    AttributeSpec("dodge", N_("Dodge"), 10, 0, 100, N_("Dod")),
    AttributeSpec("parry", N_("Parry"), 10, 0, 100, N_("Par")),
    AttributeSpec("concentration", N_("Concentration"), 10, 0, 100, N_("Con")),
)

_ATTACK_LABELS: Final[dict[tuple[bool, bool], str]] = {
    (False, False): N_("attacks"),
    (True, False): N_("attacks with a penalty die"),
    (False, True): N_("attacks with an advantage die"),
    (True, True): N_("attacks, advantage and penalty dice cancel"),
}


class WalkaSystem(RuleSystem):
    """Walka: a Polish cyberpunk game's combat chapter."""

    id = "walka"
    title = N_("Walka")


    def sample(self) -> History:
        from rules.systems.walka.sample import sample  # on first use: opening a fight needs no sample

        return sample()

    def option_specs(self) -> Sequence[OptionSpec]:
        return _OPTIONS

    def attribute_specs(self) -> Sequence[AttributeSpec]:
        return _ATTRIBUTES

    def validate_option(self, spec: OptionSpec, value: JsonValue) -> JsonValue:
        value = spec.validate(value)
        if spec.key == DEFENCES and isinstance(value, Mapping):
            load_defences(value)  # raises a RulesError naming the bad entry
        return value

    # --- options, read with their defaults -----------------------------------------------------
    def reroll_each_round(self, encounter: Encounter) -> bool:
        """Whether the seats roll again every round (option)."""
        return self.option(encounter, REROLL) is True

    def test_die(self, encounter: Encounter) -> int:
        """d20 or d100 (option)."""
        return 100 if self.option(encounter, TEST_DIE) in ("100", D100_TENS) else 20

    def tens_dice(self, encounter: Encounter) -> bool:
        """A d100's bonus and penalty dice are extra tens dice (option)."""
        return self.option(encounter, TEST_DIE) == D100_TENS

    def aim_actions(self, encounter: Encounter) -> int:
        """Actions an aim costs (option)."""
        value = self.option(encounter, AIM_ACTIONS)
        return value if isinstance(value, int) and not isinstance(value, bool) else 1

    def aim_lasts(self, encounter: Encounter) -> str:
        """How long an aim waits for its attack (option)."""
        return actions.AIM_SAME_ROUND if self.option(encounter, AIM_LASTS) == actions.AIM_SAME_ROUND else (
            actions.AIM_NEXT_ROUND)

    def attribute_default(self, spec: AttributeSpec, side: Side) -> int:
        # walka.md Decision: Chances "default 1 for player characters and 0 for NPCs (so that extras simply drop)".
        if spec.key == CHANCES:
            return 1 if side is Side.PLAYER else 0
        return super().attribute_default(spec, side)

    def shown_table(self, encounter: Encounter, key: str) -> JsonValue:
        if key == DEFENCES:  # the option holds the GM's changes only: show the table they change
            return frozen_map({skill: tuple(defences) for skill, defences in self.defences(encounter).items()})
        return super().shown_table(encounter, key)

    def move_exactly(self, encounter: Encounter) -> bool:
        """Whether every Move is the whole 5 squares (option; default: at most 5)."""
        return self.option(encounter, MOVE_EXACTLY) is True

    def strictly_under(self, encounter: Encounter) -> bool:
        """Whether a test must roll under the skill, not at or under it (option)."""
        return self.option(encounter, SUCCESS) == UNDER

    def aim_again(self, encounter: Encounter) -> bool:
        """Whether a second Aim before the same attack doubles the pool again (option; default not)."""
        return self.option(encounter, AIM_TWICE) == AIM_AGAIN

    def aim_before_armor(self, encounter: Encounter) -> bool:
        """Whether an aim doubles the dice before armor is taken off (option; default after)."""
        return self.option(encounter, AIM_DOUBLES) == BEFORE_ARMOR

    def down_forbids(self, encounter: Encounter) -> frozenset[str]:
        """What a knocked-down character may not do before standing up (option)."""
        value = self.option(encounter, DOWN_FORBIDS)
        if isinstance(value, list | tuple):
            return frozenset(str(kind) for kind in value)
        return frozenset(actions.DOWN_FORBIDS_DEFAULT)

    def check_action(self, combatant: Combatant, kind: str, encounter: Encounter) -> None:
        """Refuse ``kind`` if the rules and the options do not allow it now (OperationError saying why)."""
        actions.check_allowed(combatant, kind, encounter, self.aim_actions(encounter), self.down_forbids(encounter))

    def players_first_by_default(self, encounter: Encounter) -> bool:
        """How a tie with the GM is settled until the GM decides (option)."""
        return self.option(encounter, TIE_DEFAULT) != seating.GM

    def defence_skill(self, defender: Combatant, defence: str, encounter: Encounter) -> int:
        """The skill ``defender`` rolls ``defence`` with: Parry with the Melee weapons skill unless the GM's
        option gives it a skill of its own."""
        parry_with = self.option(encounter, PARRY_WITH)
        if defence == PARRY and parry_with != PARRY_WITH_OWN:
            return defender.attribute(MELEE)
        return defender.attribute(defence)

    def defences(self, encounter: Encounter) -> Defences:
        """Attack skill → defence skills, with the GM's overrides (a bad override falls back to the bundle)."""
        overrides = encounter.options.get(DEFENCES)
        try:
            return load_defences(overrides if isinstance(overrides, Mapping) else None)
        except ValueError:
            return load_defences(None)

    # --- weapons (rules.systems.walka.weapons) -------------------------------------------------
    def weapon_fields(self) -> Sequence[OptionSpec]:
        return weapons.FIELDS

    def check_weapon(self, weapon: Weapon) -> Weapon:
        return weapons.check(weapon)

    def describe_weapon(self, weapon: Weapon) -> str:
        return weapons.describe(weapon)

    def reload_action(self, combatant: Combatant, weapon: Weapon, encounter: Encounter) -> str | None:
        """A **Decision** (the chapter never mentions reloading): the action the encounter option names."""
        return weapons.reload_kind(self.option(encounter, weapons.RELOAD_OPTION))

    # --- combatants ---------------------------------------------------------------------------
    def prepare(self, combatant: Combatant, encounter: Encounter) -> Combatant:
        """Chance pool from ``chances``; Hit Points lost never beyond the Hit Points."""
        size = max(0, combatant.attribute("chances"))
        old = combatant.pools.get(CHANCE, Pool(size))
        lost = min(max(0, combatant.boxes(HP)), max_hit_points(combatant))
        return replace(combatant, pools=frozen_map({**combatant.pools, CHANCE: Pool(size, min(old.spent, size))}),
                       damage=frozen_map({**combatant.damage, HP: lost}))

    def tracks(self, combatant: Combatant, encounter: Encounter) -> Sequence[TrackSpec]:
        return (TrackSpec(HP, N_("Hit Points lost"), max_hit_points(combatant)),)

    def status(self, combatant: Combatant, encounter: Encounter) -> Status:
        if hit_points(combatant) > 0 or actions.holding_on(combatant):
            return Status.ACTIVE
        return Status.DYING if actions.dying(combatant) else Status.UNCONSCIOUS

    def apply_harm(self, combatant: Combatant, track: str, amount: int, encounter: Encounter) -> Combatant:
        """Hit Points lost, between none and all; new damage (or healing) ends a Chance's hold."""
        lost = min(max(0, combatant.boxes(HP) + amount), max_hit_points(combatant))
        updated = combatant.with_damage(HP, lost)
        if hit_points(updated) > 0:  # healed: no longer dying (the GM's mark goes with the danger)
            updated = actions.with_extra(updated, actions.DYING, None)
        return actions.with_extra(updated, actions.HOLDING_ON, None) if amount else updated

    def set_damage(self, combatant: Combatant, track: str, value: int, encounter: Encounter) -> Combatant:
        updated = super().set_damage(combatant, track, value, encounter)
        return actions.with_extra(updated, actions.DYING, None) if hit_points(updated) > 0 else updated

    def parse_harm(self, text: str, combatant: Combatant, track: str, encounter: Encounter,
                   heal: bool = False) -> Harm:
        """Hit Points: ``3``, said as what is lost (or back) and what is left."""
        harm = super().parse_harm(text, combatant, track, encounter, heal)
        total = max_hit_points(combatant)
        left = min(total, max(0, hit_points(combatant) + (harm.amount if heal else -harm.amount)))
        if heal:
            meaning = ngettext("{count} Hit Point back: {left} of {total} left",
                               "{count} Hit Points back: {left} of {total} left", harm.amount)
        else:
            meaning = ngettext("{count} Hit Point lost: {left} of {total} left",
                               "{count} Hit Points lost: {left} of {total} left", harm.amount)
        return replace(harm, meaning=meaning.format(count=harm.amount, left=left, total=total))

    def harm_notation(self) -> str:
        return _("Hit Points, e.g. 3")

    def condition_summary(self, combatant: Combatant, encounter: Encounter) -> str:
        """``HP 12/30``: the Hit Points left of the character's Hit Points (the track counts those lost)."""
        return _("{hp} {left}/{total}").format(hp=pgettext("walka", "HP"), left=hit_points(combatant),
                                               total=max_hit_points(combatant))

    def condition_notes(self, combatant: Combatant, encounter: Encounter) -> Sequence[str]:
        notes = [ngettext("{left} of {total} Hit Point left", "{left} of {total} Hit Points left",
                          max_hit_points(combatant)).format(left=hit_points(combatant),
                                                            total=max_hit_points(combatant))]
        notes += self._chance_notes(combatant, encounter)
        notes += self._action_notes(combatant, encounter)
        return notes

    def _chance_notes(self, combatant: Combatant, encounter: Encounter) -> list[str]:
        if actions.holding_on(combatant):
            return [_("Conscious at 0 Hit Points: a Chance was spent")]
        if actions.dying(combatant):
            return [_("Dying (the GM's call): a team-mate may stabilise them with a non-combat action")]
        if self.status(combatant, encounter) is Status.ACTIVE:
            return []
        chances = chances_left(combatant)
        if chances:
            return [_(STATUS_LABELS[Status.UNCONSCIOUS]) + " · " + ngettext(
                "{count} Chance left to stay conscious", "{count} Chances left to stay conscious", chances).format(
                count=chances)]
        return [_(STATUS_LABELS[Status.UNCONSCIOUS])]

    def _down_note(self, encounter: Encounter) -> str:
        forbidden = self.down_forbids(encounter)
        if actions.ATTACK in forbidden:
            return _("Knocked down: must stand up before fighting")
        if not forbidden:
            return _("Knocked down")
        names = ", ".join(_(actions.ACTION_LABELS[kind]) for kind in actions.DOWN_FORBIDDABLE if kind in forbidden)
        return _("Knocked down: must stand up first for {actions}").format(actions=names)

    def _action_notes(self, combatant: Combatant, encounter: Encounter) -> list[str]:
        notes = []
        if actions.knocked_down(combatant):
            notes.append(self._down_note(encounter))
        prepared = actions.prepared_dice(combatant, encounter)
        if prepared > 1:
            notes.append(_("Prepared two actions last round: one advantage die on each"))
        elif prepared:
            notes.append(_("Prepared last round: one advantage die on the prepared action"))
        notes += [_("Prepared for: “{event}”").format(event=event)
                  for event in actions.prepared_events(combatant, encounter)]
        if actions.prepared_this_round(combatant, encounter):
            notes.append(_("Preparing: one advantage die next round"))
        if actions.aimed_now(combatant, encounter, self.aim_lasts(encounter)):
            notes.append(_("Aiming: the next attack's damage pool is doubled"))
        if actions.attack_penalty_dice(combatant):
            notes.append(_("Next attack this round: one penalty die"))
        moved = actions.moved_text(combatant)
        return [*notes, moved] if moved else notes

    # --- initiative ---------------------------------------------------------------------------
    def initiative_dice(self, combatant: Combatant, encounter: Encounter) -> DiceSpec:
        return DiceSpec(1, INITIATIVE_DIE)

    def initiative_group(self, combatant: Combatant, encounter: Encounter) -> str | None:
        """The seat: everyone a seat acts for shares its one d12."""
        return seating.effective_seat(combatant)

    def ally_seats(self, encounter: Encounter) -> Sequence[tuple[str, str]]:
        """walka.md Decision: "a player's allies (drones, followers) in that player's seat": the players' seats
        first (the first of them the default), the GM's last."""
        players = [seat for seat in seating.table_seats(encounter) if seat != seating.GM_SEAT]
        return (*((seat, seating.seat_label(seat)) for seat in players),
                (seating.GM_SEAT, seating.seat_label(seating.GM_SEAT)))

    def initiative_each_round(self, encounter: Encounter) -> bool:
        """By option; also when no round can start from the rolls there are (nobody able, nothing rolled)."""
        return self.reroll_each_round(encounter) or not self.able(encounter) or not self.order(encounter).seats

    def tiebreak_dice(self) -> int:
        return 0  # ties are settled by the seating and the GM, never by dice

    def able(self, encounter: Encounter) -> list[str]:
        """Ids of everyone who can act now."""
        return [c.id for c in encounter.combatants.values() if self.can_act(c, encounter)]

    def order(self, encounter: Encounter) -> seating.TableOrder:
        """The seats in this round's acting order, with the rolls and any tie with the GM."""
        return seating.table_order(encounter, self.able(encounter), self.reroll_each_round(encounter),
                                   self.players_first_by_default(encounter))

    def open_tie(self, encounter: Encounter) -> seating.GmTie | None:
        """A tie with the GM still waiting for the GM's decision."""
        return seating.open_tie(encounter, self.able(encounter), self.reroll_each_round(encounter))

    def remaining_slots(self, encounter: Encounter) -> list[Slot]:
        """One slot per seat still to act, clockwise from the starting seat; yielders at the end."""
        clock = encounter.clock
        able = set(self.able(encounter))
        slots: list[Slot] = []
        later: list[Slot] = []
        for seat in self.order(encounter).seats:
            waiting = [c.id for c in seating.members(encounter, seat) if c.id in able and c.id not in clock.acted]
            now = tuple(i for i in waiting if i not in clock.yielded)
            yielded = tuple(i for i in waiting if i in clock.yielded)
            if now:
                slots.append(Slot(SlotKind.ACTORS, now))
            if yielded:
                later.append(Slot(SlotKind.ACTORS, yielded))
        return slots + later + delayed_slots(encounter)

    def slot_caption(self, slot: Slot, encounter: Encounter) -> str:
        """The seat that acts (a slot of Walka's order is one seat's characters)."""
        present = [encounter.combatants[i] for i in slot.ids if i in encounter.combatants]
        return seating.seat_label(seating.effective_seat(present[0])) if present else ""

    def score_text(self, combatant: Combatant, encounter: Encounter) -> str:
        roll = seating.seat_roll(encounter, seating.effective_seat(combatant), self.able(encounter))
        return "–" if roll is None else str(roll)

    # --- timing and the action budget ---------------------------------------------------------
    def effect_meanings(self) -> Sequence[EffectMeaning]:
        return MEANINGS

    def on_hook(self, encounter: Encounter, hook: Hook, actors: tuple[str, ...]) -> HookResult:
        if hook is Hook.ROUND_START:
            state = _each(encounter, lambda c: actions.new_round(c, encounter.clock.round))
            return HookResult(state, self._round_reminders(state))
        if hook is Hook.ROUND_END and self.reroll_each_round(encounter):
            return HookResult(_each(encounter, lambda c: replace(c, initiative=None) if c.initiative else c))
        return HookResult(encounter)

    def _round_reminders(self, encounter: Encounter) -> tuple[Reminder, ...]:
        reminders = [Reminder(_("{name} prepared an action last round: one advantage die on it now.").format(
            name=c.name), c.id) for c in encounter.combatants.values() if actions.prepared_now(c, encounter)]
        tie = self.open_tie(encounter)
        if tie is not None and (self.reroll_each_round(encounter) or encounter.clock.round == 1):
            first = _("the players' side") if self.players_first_by_default(encounter) else _("the GM's side")
            reminders.insert(0, Reminder(_("The GM ties with {seats} on {roll}: decide which side goes first in "
                                           "the seating order ({first} goes first until then).").format(
                seats=", ".join(tie.player_seats), roll=tie.roll, first=first)))
        return tuple(reminders)

    def action_budget(self, combatant: Combatant, encounter: Encounter) -> Sequence[BudgetItem]:
        left = actions.left(combatant)
        attacks = combatant.actions_used.get(actions.ATTACK, 0)
        penalty = actions.attack_penalty_dice(combatant) > 0
        advantage = actions.prepared_now(combatant, encounter)
        return (BudgetItem(actions.NON_COMBAT, N_("actions"), actions.used(combatant), actions.ACTIONS_PER_ROUND,
                           N_("{name} takes a non-combat action.")),
                BudgetItem(actions.COMBAT_ALIAS, _ATTACK_LABELS[(penalty, advantage)], attacks, attacks + left,
                           N_("{name} takes a combat action.")))

    def spend_action(self, combatant: Combatant, kind: str, encounter: Encounter) -> Combatant:
        kind = actions.check_kind(kind)
        self.check_action(combatant, kind, encounter)
        return actions.record(combatant, kind, encounter, self.aim_actions(encounter), self.aim_again(encounter),
                              self.aim_lasts(encounter))

    def default_side_order(self) -> tuple[Side, ...]:
        return (Side.PLAYER, Side.ALLY, Side.OPPONENT)

    def outcome_probability(self, operation: Operation, before: Encounter) -> float | None:
        from rules.systems.walka.outcomes import outcome_probability  # it imports the operations, which import us

        return outcome_probability(operation, before, self)


def max_hit_points(combatant: Combatant) -> int:
    """The combatant's Hit Points when unhurt (at least 1)."""
    return max(1, combatant.attribute("hit_points", 10))


def hit_points(combatant: Combatant) -> int:
    """Hit Points left."""
    return max(0, max_hit_points(combatant) - combatant.boxes(HP))


def chances_left(combatant: Combatant) -> int:
    """Chances the combatant can still spend."""
    pool = combatant.pools.get(CHANCE)
    return pool.remaining if pool is not None else 0


def _each(encounter: Encounter, change: Callable[[Combatant], Combatant]) -> Encounter:
    """Apply ``change`` to everyone; unchanged combatants stay the same objects (the history's delta stays small)."""
    state = encounter
    for combatant in encounter.combatants.values():
        updated = change(combatant)
        if updated is not combatant:
            state = state.with_combatant(updated)
    return state
