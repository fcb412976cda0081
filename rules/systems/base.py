"""The RuleSystem interface: the only way the engine, the app and the window talk to a game.

Nothing outside a game's own module asks which game it is. Where games differ (how initiative is rolled,
how the order is built, what a hit does, which numbers a GM may change) the engine calls a method here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from rules.dice_words import DiceWord
from rules.encounter import Combatant, Delay, Encounter, Initiative, JsonValue, Side, Slot, Status, Weapon
from rules.errors import OperationError, RulesError
from rules.harm import Harm, OwnRoll, read_plain_harm
from rules.text import _, pgettext
from rules.time_units import ROUNDS, TimeUnits

if TYPE_CHECKING:  # history imports this module: these types are only needed by the checker
    from rules.history import History, LogLine, Operation


class Hook(StrEnum):
    """Timing hooks a game exposes; effects expire and remind on them, pools refresh on them."""

    ROUND_START = "round_start"  # after initiative is rolled, before the first action
    ROUND_END = "round_end"  # after the last action of the round
    PASS_START = "pass_start"
    PASS_END = "pass_end"
    TURN_START = "turn_start"  # a combatant's turn (phase) begins
    TURN_END = "turn_end"


@dataclass(frozen=True)
class EffectMeaning:
    """Something an effect can mean to the game's rules (SR3 smoke: a visibility row), offered when adding one.

    ``label`` and ``help`` are English sources, N_-marked; ``key`` is what an :class:`~rules.encounter.Effect`
    stores in ``meaning``.
    """

    key: str
    label: str
    help: str = ""


class OptionKind(StrEnum):
    """How the settings dialog edits an option."""

    BOOL = "bool"
    INT = "int"
    CHOICE = "choice"
    TABLE = "table"  # a data table (JSON object) the GM may override key by key
    TEXT = "text"  # a short text the game reads itself (a weapon's damage code, a dice expression)
    SET = "set"  # some of the choices, any number of them (their values, in the choices' order)


@dataclass(frozen=True)
class OptionSpec:
    """A GM-editable option of a game (every **Decision** of a digest is one of these)."""

    key: str
    label: str  # English source, marked with N_ and translated when shown
    kind: OptionKind
    default: JsonValue
    choices: tuple[tuple[str, str], ...] = ()  # (value, label) for CHOICE and SET
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""
    #: A TABLE's field and entry names as the GM reads them ((data key, English label marked with N_), ...):
    #: the settings form shows these, the data keeps its keys.
    labels: tuple[tuple[str, str], ...] = ()
    #: A weapon field added after weapons were saved: False keeps it only when it differs from the default
    #: (readers use the default), so a fight saved before it replays to the very state it saved.
    filled: bool = True

    def _in_range(self, value: JsonValue) -> bool:
        if isinstance(value, bool) or not isinstance(value, int):
            return False
        return (self.minimum is None or value >= self.minimum) and (self.maximum is None or value <= self.maximum)

    def validate(self, value: JsonValue) -> JsonValue:
        """Return ``value`` if it fits this option, else raise a RulesError naming the option."""
        if self.kind is OptionKind.BOOL and isinstance(value, bool):
            return value
        if self.kind is OptionKind.INT and self._in_range(value):
            return value
        if self.kind is OptionKind.CHOICE and isinstance(value, str) and value in {c for c, _label in self.choices}:
            return value
        if self.kind is OptionKind.TABLE and isinstance(value, Mapping):
            return value
        if self.kind is OptionKind.TEXT and isinstance(value, str):
            return value
        if self.kind is OptionKind.SET and isinstance(value, list | tuple):
            known = [choice for choice, _label in self.choices]
            if all(isinstance(item, str) and item in known for item in value) and len(set(value)) == len(value):
                return tuple(choice for choice in known if choice in value)
        raise RulesError(_("Option “{option}” cannot be {value!r}.").format(option=_(self.label), value=value))


@dataclass(frozen=True)
class AttributeSpec:
    """An attribute a combatant of this game has (what quick-add asks for and the stat line shows)."""

    key: str
    label: str
    default: int
    minimum: int = 0
    maximum: int = 99
    abbreviation: str = ""
    #: Translation context of the abbreviation, for letters two games use for different things ("WD").
    context: str = ""
    #: Whether adding a combatant writes the default when none is given. False for an attribute a game gained
    #: after fights were saved with it: read with its default instead, so an old fight replays to the state saved.
    filled_when_added: bool = True

    def short_name(self) -> str:
        """The abbreviation (or the label) in the GM's language."""
        if self.abbreviation and self.context:
            return pgettext(self.context, self.abbreviation)
        return _(self.abbreviation or self.label)


@dataclass(frozen=True)
class TrackSpec:
    """A condition track to draw: boxes (SR3 monitors), points (hit points) or a counter."""

    key: str
    label: str
    size: int
    kind: str = "boxes"
    #: The game's own short name for the track (SR3 "P"), for the initiative table's condition text.
    abbreviation: str = ""
    #: Translation context of the abbreviation (one letter means different things in different games).
    context: str = ""

    def short_name(self) -> str:
        """The abbreviation (or the label) in the GM's language."""
        if self.abbreviation and self.context:
            return pgettext(self.context, self.abbreviation)
        return _(self.abbreviation or self.label)


def track_reading(track: TrackSpec, marked: int) -> str:
    """``P 6/10``: a track's short name and its boxes marked of its size; past the size, ``P 10/10 +2``."""
    if marked > track.size:
        return _("{track} {marked}/{size} +{overflow}").format(track=track.short_name(), marked=track.size,
                                                              size=track.size, overflow=marked - track.size)
    return _("{track} {marked}/{size}").format(track=track.short_name(), marked=marked, size=track.size)


@dataclass(frozen=True)
class DiceSpec:
    """What to roll (or type in) for something: ``count`` dice with ``sides`` sides, plus ``base``."""

    count: int
    sides: int
    base: int = 0

    def describe(self) -> str:
        """E.g. ``6 + 2d6`` (no dice: the base alone)."""
        if self.count == 0:
            return str(self.base)
        dice = f"{self.count}d{self.sides}"
        return f"{self.base} + {dice}" if self.base else dice


@dataclass(frozen=True)
class InitiativeInput:
    """A number the GM chooses for one combatant as initiative is rolled (Člověk: the mental dice risked).

    ``counts_dice``: the number of faces typed for the combatant sets it too (each face is one die rolled).
    """

    key: str
    label: str  # English source, marked with N_ and translated when shown
    value: int  # what it is now (the roll uses it unless the GM picks another)
    minimum: int
    maximum: int
    counts_dice: bool = False
    help: str = ""


@dataclass(frozen=True)
class BudgetItem:
    """One kind of action and how many the actor has used / may use in the current turn or phase.

    ``spent`` is the log sentence when one is used (English source, ``{name}`` the actor: "{name} takes a simple
    action."); empty, the log names the ``label`` (a game's label may be a plural or a state, "actions").
    """

    key: str
    label: str
    used: int
    allowed: int
    spent: str = ""

    @property
    def left(self) -> int:
        """How many remain."""
        return max(0, self.allowed - self.used)


@dataclass(frozen=True)
class Reminder:
    """Something the GM should be told now (an effect ticking, a delayed action lost, a timer going off).

    ``offers_effect``: what it tells of may call for an effect on ``combatant`` (Souboj's critical wound: "the GM may
    add effects, bleeding, amputation…"), so the window offers to add one there and then.
    """

    text: str
    combatant: str | None = None
    offers_effect: bool = False


@dataclass(frozen=True)
class HookResult:
    """What firing a hook did: the new state plus reminders for the GM."""

    encounter: Encounter
    reminders: tuple[Reminder, ...] = field(default_factory=tuple)


class RuleSystem(ABC):
    """A game. Implementations are stateless: every decision is a function of the encounter."""

    id: str
    title: str  # English source, N_-marked

    # --- options and data -------------------------------------------------------------------
    @abstractmethod
    def option_specs(self) -> Sequence[OptionSpec]:
        """Every option the GM may change in the encounter's settings, with the digest's default."""

    def default_options(self) -> dict[str, JsonValue]:
        """Options of a new encounter."""
        return {spec.key: spec.default for spec in self.option_specs()}

    def validate_option(self, spec: OptionSpec, value: JsonValue) -> JsonValue:
        """Check a new option value; games override this to validate data tables in depth."""
        return spec.validate(value)

    def option(self, encounter: Encounter, key: str) -> JsonValue:
        """The encounter's value of an option, falling back to the default."""
        if key in encounter.options:
            return encounter.options[key]
        return self.default_options()[key]

    def shown_table(self, encounter: Encounter, key: str) -> JsonValue:
        """A TABLE option as it applies, for the settings form to show: an option holding only the GM's changes to
        bundled data (Walka's defences) shows the bundled table with them. Default: the option's value."""
        return self.option(encounter, key)

    # --- combatants ---------------------------------------------------------------------------
    @abstractmethod
    def attribute_specs(self) -> Sequence[AttributeSpec]:
        """The attributes a combatant has in this game."""

    def attribute_name(self, key: str) -> str:
        """An attribute's name in the GM's language (the key itself when the game has none by that key)."""
        spec = next((spec for spec in self.attribute_specs() if spec.key == key), None)
        return _(spec.label) if spec is not None else key

    def attribute_default(self, spec: AttributeSpec, side: Side) -> int:
        """What a new combatant of ``side`` starts with (the add dialogs' boxes): the spec's default, unless the
        game gives a side its own (Walka: Chances 1 for player characters, 0 for NPCs)."""
        del side
        return spec.default

    @abstractmethod
    def prepare(self, combatant: Combatant, encounter: Encounter) -> Combatant:
        """Fill in what follows from the attributes (pools, tracks) when a combatant joins or changes."""

    @abstractmethod
    def tracks(self, combatant: Combatant, encounter: Encounter) -> Sequence[TrackSpec]:
        """The condition tracks to show for ``combatant``."""

    @abstractmethod
    def status(self, combatant: Combatant, encounter: Encounter) -> Status:
        """Active, unconscious, dying or dead, from the tracks."""

    @abstractmethod
    def apply_harm(self, combatant: Combatant, track: str, amount: int, encounter: Encounter) -> Combatant:
        """Mark ``amount`` on ``track`` (negative heals), following the game's overflow rules."""

    def set_damage(self, combatant: Combatant, track: str, value: int, encounter: Encounter) -> Combatant:
        """``combatant`` with ``track`` set to ``value`` by hand (a box clicked on the monitor). A game refuses
        (OperationError, saying why) a change its rules forbid (Člověk: stun does not heal while a long action of
        its type runs) or keeps what goes with the track in step (Walka: healed above 0, no longer dying).
        Default: the value, as set."""
        del encounter
        return combatant.with_damage(track, value)

    def harm_presets(self, track: str) -> Sequence[tuple[str, int]]:
        """Quick amounts for the damage dialog, as (label, amount) (SR3: Light 1 … Deadly 10)."""
        return ()

    def parse_harm(self, text: str, combatant: Combatant, track: str, encounter: Encounter,
                   heal: bool = False) -> Harm:
        """Read what the GM typed in the Damage (``heal``: Heal) dialog for ``combatant``, in the game's notation.

        ``track`` is the track chosen in the dialog; the text may name another. The result says what will be
        marked, in words, before anything is applied; a text the game cannot read raises a RulesError saying why
        (translated). Default: a whole number of marks, optionally followed by words naming a track (``3 stun``).
        """
        return read_plain_harm(text, self.tracks(combatant, encounter), track, heal)

    def own_roll(self, text: str, combatant: Combatant, track: str, encounter: Encounter) -> OwnRoll | None:
        """What ``combatant`` rolls on its own against the hit typed in the Damage dialog, or None: marked as read.

        SR3: a damage code (``10S``) is resisted, Body and combat pool against Power − impact armor, every target
        of a blast with its own; a level alone (``S``) is marked as typed. Called only for a text
        :meth:`parse_harm` reads, never for healing. Default: None (the game has each target take the typed hit).
        """
        return None

    def harm_notation(self) -> str:
        """What the damage dialog's amount field accepts, as translated examples (shown as its hint)."""
        return _("A whole number, e.g. 3")

    def shared_harm_note(self, encounter: Encounter) -> str:
        """What the game says when several combatants take the same hit (a grenade), translated, or "".

        The dialog shows it with the targets' readings (SR3: each target resists on its own)."""
        return ""

    def condition_notes(self, combatant: Combatant, encounter: Encounter) -> Sequence[str]:
        """Short, translated notes on what the condition does now (SR3: "TN +2, initiative −2")."""
        return ()

    def condition_summary(self, combatant: Combatant, encounter: Encounter) -> str:
        """The condition in a few characters, in the game's own terms, for a table cell (SR3: ``P 6/10 · S 2/10``).

        The status (unconscious, dying, dead) is not part of it: the window shows that beside it. Default, from
        :meth:`tracks`: each marked track as its short name and boxes marked of its size (overflow as ``+n``),
        "Unhurt" when none is marked. A game whose numbers read otherwise (hit points left rather than lost)
        overrides this.
        """
        tracks = self.tracks(combatant, encounter)
        marked = [track_reading(track, combatant.boxes(track.key)) for track in tracks if combatant.boxes(track.key)]
        if not marked:
            return _("Unhurt") if tracks else ""
        return " · ".join(marked)

    def can_act(self, combatant: Combatant, encounter: Encounter) -> bool:
        """Whether the combatant gets turns at all now (the turn engine skips it otherwise)."""
        return self.status(combatant, encounter) is Status.ACTIVE

    # --- initiative and turn order ------------------------------------------------------------
    @abstractmethod
    def initiative_dice(self, combatant: Combatant, encounter: Encounter) -> DiceSpec:
        """What this combatant rolls for initiative (the app rolls it or the GM types the faces)."""

    def initiative_from_total(self, combatant: Combatant, encounter: Encounter, total: int) -> Initiative:
        """What to store when the GM types the total the player announces instead of the faces rolled.

        Default, from :meth:`initiative_dice`: a single die becomes the face that makes the total (so every rule
        reading faces still works); with several dice the total replaces the fixed part plus the dice (stored as
        the fixed part, with no faces). A total the dice cannot make raises a RulesError naming what they can.
        The tie-break dice are added by the caller.
        """
        spec = self.initiative_dice(combatant, encounter)
        low, high = spec.base + spec.count, spec.base + spec.count * spec.sides
        if not low <= total <= high:
            raise RulesError(_("{name} rolls {dice} for initiative: the total is {low} to {high}, not {total}.")
                             .format(name=combatant.name, dice=spec.describe(), low=low, high=high, total=total))
        if spec.count == 1:
            return Initiative(spec.base, (total - spec.base,))
        return Initiative(total)

    def initiative_inputs(self, combatant: Combatant, encounter: Encounter) -> Sequence[InitiativeInput]:
        """What the GM may choose for ``combatant`` in the Roll initiative dialog. Default: nothing."""
        return ()

    def with_initiative_inputs(self, combatant: Combatant, values: Mapping[str, int],
                               encounter: Encounter) -> Combatant:
        """``combatant`` with the GM's choices (keys of :meth:`initiative_inputs`) made; RulesError if one does not
        fit. A game with inputs overrides :meth:`store_initiative_inputs`, which gets the values checked."""
        inputs = {spec.key: spec for spec in self.initiative_inputs(combatant, encounter)}
        for key, value in values.items():
            spec = inputs.get(key)
            if spec is None:
                raise RulesError(_("{name} has no initiative choice {key!r}.").format(name=combatant.name, key=key))
            if isinstance(value, bool) or not isinstance(value, int) or not spec.minimum <= value <= spec.maximum:
                raise RulesError(_("{name}: “{choice}” must be {minimum} to {maximum}, not {value}.").format(
                    name=combatant.name, choice=_(spec.label), minimum=spec.minimum, maximum=spec.maximum,
                    value=value))
        return self.store_initiative_inputs(combatant, values, encounter) if values else combatant

    def store_initiative_inputs(self, combatant: Combatant, values: Mapping[str, int],
                                encounter: Encounter) -> Combatant:
        """Record checked initiative choices on ``combatant`` (only games with :meth:`initiative_inputs`)."""
        return combatant

    def initiative_group(self, combatant: Combatant, encounter: Encounter) -> str | None:
        """Combatants with the same key share one initiative roll (grunt groups; Walka's seats)."""
        return combatant.group

    def ally_seats(self, encounter: Encounter) -> Sequence[tuple[str, str]]:
        """The seats an ally may act in, as (seat, label), the default first; empty in a game without seats (Walka:
        "a player's allies (drones, followers) in that player's seat")."""
        return ()

    def initiative_each_round(self, encounter: Encounter) -> bool:
        """Whether initiative is rolled again at the start of every round."""
        return True

    def typed_faces(self, text: str, spec: DiceSpec, encounter: Encounter) -> str:
        """Initiative faces as the GM typed them, in the spelling :func:`rules.initiative_text.read_initiative`
        reads (Člověk's two-digit d10s: "10, 50" is "1, 5"); DiceError for what no die shows. Default: as typed."""
        return text

    def rolls_initiative(self, encounter: Encounter) -> bool:
        """Whether starting a round rolls initiative (Člověk's turns by alternation or by the conflict's logic do
        not: the log then names no one's roll)."""
        return True

    def score_edit(self, combatant: Combatant, text: str, encounter: Encounter) -> Operation | None:
        """The operation a text typed in the table's initiative column makes, or None for the GM's score
        (:class:`~rules.turns.SetInitiative`); RulesError says why the text is wrong."""
        return None

    def tiebreak_dice(self) -> int:
        """How many dice (of :meth:`tiebreak_sides`) to roll up front to settle ties nothing else settles."""
        return 4

    def tiebreak_sides(self) -> int:
        """The die the tie-break dice are (a d6 unless the game's text names another)."""
        return 6

    def tie_lines(self, encounter: Encounter) -> Sequence[LogLine]:
        """Log lines saying how the tie-break dice just rolled for initiative settle ties (default: none)."""
        return ()

    @abstractmethod
    def remaining_slots(self, encounter: Encounter) -> list[Slot]:
        """Who still acts in the current pass, in order (recomputed after every change)."""

    def has_next_pass(self, encounter: Encounter) -> bool:
        """Whether another pass follows the current one within this round."""
        return False

    def pass_phase(self, combatant: Combatant, encounter: Encounter, pass_no: int) -> int | None:
        """The phase (score) at which ``combatant`` acts in ``pass_no`` of the current round as things stand.

        None when it has no turn in that pass. Games whose turns have no phase numbers keep the default (None);
        the initiative chart reads the turns still to come in later passes from here.
        """
        return None

    def slot_caption(self, slot: Slot, encounter: Encounter) -> str:
        """A short label for a step of the order (Walka: the seat; Souboj: the shared score), or ""."""
        return "" if slot.phase is None else str(slot.phase)

    def score_text(self, combatant: Combatant, encounter: Encounter) -> str:
        """The initiative as shown in the order (SR3: ``27 → 17 → 7``)."""
        if combatant.initiative is None:
            return "–"
        return str(combatant.initiative.rolled)

    # --- turns, budget, timing ----------------------------------------------------------------
    def time_units(self) -> TimeUnits:
        """What this game calls its round, its passes and the number a turn is played at (the words every
        generic text uses). Default: rounds of turns, no passes, no phase numbers."""
        return ROUNDS

    def hooks(self) -> frozenset[Hook]:
        """The timing hooks this game has."""
        return frozenset({Hook.ROUND_START, Hook.ROUND_END, Hook.TURN_START, Hook.TURN_END})

    def effect_meanings(self) -> Sequence[EffectMeaning]:
        """What an effect may mean to this game's attack dialog, in the order the GM is offered them (a name
        that fits several picks the first). Default: none, effects are reminders only."""
        return ()

    def on_hook(self, encounter: Encounter, hook: Hook, actors: tuple[str, ...]) -> HookResult:
        """Game-specific bookkeeping at a hook (refresh pools, reset the action budget...)."""
        return HookResult(encounter)

    def action_budget(self, combatant: Combatant, encounter: Encounter) -> Sequence[BudgetItem]:
        """What the actor may still do in its current turn or phase."""
        return ()

    def delay_refusal(self, combatant: Combatant, encounter: Encounter, into_next_pass: bool) -> str | None:
        """Why ``combatant`` may not delay its action now (translated, shown to the GM), or None: it may.

        ``into_next_pass``: the delay is to the next pass rather than a later phase of this one. The engine
        asks this before every delay; games where delaying is an optional rule refuse it here when it is off.
        """
        return None

    def yield_refusal(self, combatant: Combatant, encounter: Encounter) -> str | None:
        """Why ``combatant`` may not let the others with its score go first now (translated), or None: it may.
        Asked before every yield. Default: anyone may."""
        return None

    def pay_for_delay(self, combatant: Combatant, encounter: Encounter) -> Combatant:
        """``combatant`` after paying what holding its action costs (SR3: a free action); raise OperationError
        saying why it cannot pay. Asked after :meth:`delay_refusal`. Default: a delay costs nothing."""
        return combatant

    def weapon_fields(self) -> Sequence[OptionSpec]:
        """The fields of this game's weapons and attacks, in the order a form shows them (none: the game keeps no
        weapons). The keys ``magazine`` and ``rounds`` mean the same in every game (:mod:`rules.weapons`)."""
        return ()

    def check_weapon(self, weapon: Weapon) -> Weapon:
        """``weapon`` (its fields already checked) if its values mean something in this game, normalised (a
        damage code upper-cased); raise RulesError saying what is wrong."""
        return weapon

    def shown_weapon_value(self, key: str, value: JsonValue) -> JsonValue:
        """A weapon field's stored value as the GM reads and types it in their language (SR3: a damage code in the
        level letters of their book); the value itself by default."""
        return value

    def typed_weapon_value(self, key: str, text: str) -> JsonValue:
        """What the GM typed into a text field of a weapon, as it is stored (the inverse of
        :meth:`shown_weapon_value`); text it cannot read stays as typed, for :meth:`check_weapon` to refuse."""
        return text

    def describe_weapon(self, weapon: Weapon) -> str:
        """One line for a weapon picker: its name and the numbers a GM recognises it by (translated)."""
        return weapon.name

    def reload_action(self, combatant: Combatant, weapon: Weapon, encounter: Encounter) -> str | None:
        """The action kind reloading ``weapon`` costs (passed to :meth:`spend_action`), or None: it costs none
        this game tracks."""
        return None

    def spend_action(self, combatant: Combatant, kind: str, encounter: Encounter) -> Combatant:
        """Record one action of ``kind``; raise OperationError if the budget does not allow it."""
        raise OperationError(_("This game does not track actions of kind {kind!r}.").format(kind=kind))

    def lost_delays(self, encounter: Encounter, slot: Slot) -> Sequence[Delay]:
        """Held actions that lapse as ``slot`` comes up (the engine drops and logs them). Default: none is lost.

        Called before the turn engine enters ``slot``, with the state before it; a game whose held actions expire
        at some moment of the order (SR3: a delay into the next pass, at the actor's own phase there) says so here.
        """
        return ()

    def default_side_order(self) -> tuple[Side, ...]:
        """Sides in the order the roster lists them."""
        return (Side.PLAYER, Side.ALLY, Side.OPPONENT)

    # --- the dice line -------------------------------------------------------------------------
    def dice_words(self) -> Sequence[DiceWord]:
        """The words this game adds to the dice line (SR3: ``tn``); the generic forms need none. Default: none."""
        return ()

    # --- the printed summary --------------------------------------------------------------------
    def outcome_probability(self, operation: Operation, before: Encounter) -> float | None:
        """How unlikely the outcome of a roll ``operation`` was, given the state ``before`` it was applied.

        The chance of an outcome at least this extreme on the game's own scale of outcomes (miss … deadly
        hit), counted from the end the outcome lies on: min(P(X ≤ x), P(X ≥ x)), computed by the game's odds
        functions from the dice counts and numbers stored in the operation. None: the operation rolls no dice
        whose odds the game knows (the summary then leaves it out of its notable moments).
        """
        return None

    # --- the shipped sample ---------------------------------------------------------------------
    def sample(self) -> History:
        """The game's sample fight, built by replaying its operations (a game that ships none does not override
        this). Pure: the same history every time, so the shipped file can be checked against it."""
        raise RulesError(_("{game} ships no sample fight.").format(game=_(self.title)))
