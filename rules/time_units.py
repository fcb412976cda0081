"""How a game names its units of time, so that generic code never speaks one game's language.

Every game has rounds (SR3 calls its round a combat turn); some split a round into passes (SR3's initiative
passes) and number the moment a turn is played at (SR3's phase, Souboj's shared initiative score). A game
describes this with one :class:`TimeUnits` (:meth:`RuleSystem.time_units`); the turn engine, the log headings,
the status line, the initiative table, the summary and the charts take their words from it.

The words are whole English templates, marked for extraction with ``N_`` (counted ones as ngettext pairs) and
translated when shown: a sentence built from translated fragments would not decline in Czech, Polish or Russian.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.text import N_, NN_, ngettext


@dataclass(frozen=True)
class Counted:
    """A unit counted: ngettext's English singular and plural, each with ``{count}`` (mark them with ``NN_``)."""

    singular: str
    plural: str

    def text(self, count: int) -> str:
        """E.g. "3 rounds of combat" in the GM's language, with its plural forms."""
        return ngettext(self.singular, self.plural, count).format(count=count)


@dataclass(frozen=True)
class PassWords:
    """What a game whose rounds split into passes calls them; each field is a template, where it shows."""

    #: Log line as a pass after the first begins; ``{number}``.
    begins: str
    #: Heading of the log and summary for a moment of the fight; ``{round}``, ``{pass_no}``.
    heading: str
    #: The pass in the status line; ``{number}``.
    status: str
    #: The player view's round line; ``{round}``, ``{pass_no}``.
    title: str
    #: How many passes the fight had, in the summary.
    counted: Counted
    #: An effect's passes still to run.
    left: Counted
    #: How an effect added by hand lasts, counted in passes (a choice in the effects form).
    duration: str
    #: The moments an effect ticks on: the start and the end of every pass.
    each_start: str
    each_end: str
    #: A pass's band in the initiative chart; ``{number}``.
    band: str
    #: The initiative chart's title for one round; ``{number}``.
    chart_title: str
    #: Log line when an actor delays into the next pass; ``{name}``.
    delays_into: str
    #: The initiative table's note on an action held into the next pass; ``{number}`` is that pass.
    delayed_into: str
    #: When a timed event goes off at a numbered moment of a pass; ``{round}``, ``{pass_no}``, ``{phase}``.
    due: str
    #: When a timed event goes off at the end of a pass; ``{round}``, ``{pass_no}``.
    due_at_end: str


@dataclass(frozen=True)
class PhaseWords:
    """What a game calls the number a turn is played at (SR3: the phase; Souboj: the shared score)."""

    #: Log line as a turn begins; ``{name}``, ``{phase}``.
    acts: str
    #: The status line's actor, or those acting together: ngettext's singular and plural (mark them with ``NN_``),
    #: counted by how many act; ``{names}``, ``{phase}``.
    acting: tuple[str, str]


@dataclass(frozen=True)
class TimeUnits:
    """A game's units of time. The defaults describe rounds with turns in them and nothing else."""

    #: How many rounds the fight had, in the summary ("combat" keeps it apart from rounds of ammunition).
    rounds: Counted = field(default_factory=lambda: Counted(*NN_("{count} round of combat",
                                                                 "{count} rounds of combat")))
    #: The initiative chart's place among the rounds; ``{number}``, ``{count}``.
    position: str = N_("Round {number} of {count}")
    #: The per-turn action budget's title in the details panel.
    budget: str = N_("Actions this turn")
    #: The Delay command's tip.
    delay_hint: str = N_("Hold the action to later in this round")
    #: The initiative table's note on a held action.
    delayed: str = N_("Delayed: interrupt a later turn, or act at the end of the round")
    #: The initiative table's tooltip on a held action.
    delayed_tip: str = N_("Delayed: will act later in this round, or at its end.")
    #: Passes, for a game whose rounds have them (None: a round is one run through the order).
    passes: PassWords | None = None
    #: Numbered moments, for a game whose turns are played at a number (None: turns follow the order).
    phases: PhaseWords | None = None

    @property
    def has_passes(self) -> bool:
        """Whether a round is split into passes."""
        return self.passes is not None


#: Rounds with turns in them, nothing else: the default for a game.
ROUNDS = TimeUnits()
