"""What the GM types in the Damage and Heal dialog, read as the open fight's game writes it.

A game reads the text with :meth:`RuleSystem.parse_harm` (SR3: ``6S``, ``S``, ``3``; Institute: ``Heavy``,
``2 Heavy``, ``=17``) into a :class:`Harm`: how many marks on which track, and what that means in words, shown
to the GM before anything is applied. The pieces every game shares live here: the default reading (a whole number,
optionally followed by words naming a track, ``3 stun``, ``2 shadow``), how words pick a track in the GM's
language or in English, and how the marks are said.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from rules.errors import RulesError
from rules.text import _, ngettext

if TYPE_CHECKING:  # base.py imports this module for its default reading
    from rules.dice import Chains, DiceExpression
    from rules.history import Operation
    from rules.systems.base import TrackSpec

#: Longest text read: an amount is a few characters, never a paragraph.
MAX_HARM_TEXT: Final[int] = 100
#: The most marks one typed amount may ask for (ApplyHarm refuses more than any track holds anyway).
MAX_MARKS: Final[int] = 999


@dataclass(frozen=True)
class Harm:
    """What a typed amount means for one target: ``amount`` (1 or more) marks on ``track``, said in ``meaning``.

    ``amount`` is what is marked for damage and taken off for healing: the dialog decides the sign.
    """

    track: str
    amount: int
    meaning: str  # already translated: "Serious wound: 6 boxes on Physical"


@dataclass(frozen=True)
class OwnRoll(ABC):
    """What one target of a typed hit rolls on its own before anything is marked (SR3: Body against the code).

    From :meth:`RuleSystem.own_roll`. The Damage dialog shows ``label`` (translated: the dice and what they
    are rolled against), lets the GM add up to ``pool_left`` dice from the pool named ``pool_label`` ("" for
    none), shows :meth:`odds` before the roll, takes the faces rolled or typed for :meth:`expression`, and
    records :meth:`operation`: it carries the faces, so replaying the history gives the same result.
    """

    combatant_id: str
    label: str
    pool_label: str = ""
    pool_left: int = 0

    @abstractmethod
    def expression(self, pool_dice: int) -> DiceExpression | None:
        """The dice to roll with ``pool_dice`` pool dice added (None: no dice, the hit is marked as read)."""

    @abstractmethod
    def odds(self, pool_dice: int) -> Sequence[tuple[str, float]]:
        """(what it comes to, translated; its probability), heaviest first, outcomes that cannot happen left out."""

    @abstractmethod
    def operation(self, faces: Chains, pool_dice: int) -> Operation:
        """The operation that spends the pool dice and marks what the faces come to."""


def words_of(text: str) -> list[str]:
    """The typed text split at spaces, refusing an empty or overlong one."""
    if len(text) > MAX_HARM_TEXT:
        raise RulesError(_("Type a short amount (at most {limit} characters).").format(limit=MAX_HARM_TEXT))
    words = text.split()
    if not words:
        raise RulesError(_("Type how much."))
    return words


def read_count(word: str) -> int:
    """A whole number of marks, 1 to :data:`MAX_MARKS`, or a RulesError saying what was expected."""
    if not word.isdigit() or not 1 <= int(word) <= MAX_MARKS:
        raise RulesError(_("“{text}” is not an amount: type a whole number from 1 to {limit}.").format(
            text=word, limit=MAX_MARKS))
    return int(word)


def _label_words(spec: TrackSpec) -> set[str]:
    """The words of a track's label, in the GM's language and in English (typed words are matched against both)."""
    return set(_(spec.label).casefold().split()) | set(spec.label.casefold().split())


def _names(specs: Sequence[TrackSpec]) -> str:
    return ", ".join(_(spec.label) for spec in specs)


def pick_track(words: Sequence[str], specs: Sequence[TrackSpec], chosen: str) -> TrackSpec:
    """The track ``words`` name (each word the start of a word of its label: ``stun``, ``soc wou``); none: ``chosen``.

    Several tracks fitting the words (``social`` fits Social stun and Social wounds) resolve to the chosen track if
    it is one of them, else to the one sharing most words with the chosen track's label (``social`` while Physical
    wounds is chosen: Social wounds); a tie is refused, naming the candidates.
    """
    by_key = {spec.key: spec for spec in specs}
    if chosen not in by_key:
        raise RulesError(_("Choose a track."))
    if not words:
        return by_key[chosen]
    typed = [word.casefold() for word in words]
    fitting = [spec for spec in specs
               if all(any(label.startswith(word) for label in _label_words(spec)) for word in typed)]
    if not fitting:
        raise RulesError(_("“{words}” names no track here: {tracks}.").format(words=" ".join(words),
                                                                               tracks=_names(specs)))
    if len(fitting) == 1 or by_key[chosen] in fitting:
        return by_key[chosen] if by_key[chosen] in fitting else fitting[0]
    shared = {spec.key: len(_label_words(spec) & _label_words(by_key[chosen])) for spec in fitting}
    best = max(shared.values())
    closest = [spec for spec in fitting if shared[spec.key] == best]
    if len(closest) > 1:
        raise RulesError(_("“{words}” could be {tracks}: type more of the name.").format(
            words=" ".join(words), tracks=_names(closest)))
    return closest[0]


def marks_text(count: int, spec: TrackSpec, heal: bool = False) -> str:
    """``6 boxes on Physical`` (healing: ``6 boxes off Physical``); points for a track counted in points."""
    track = _(spec.label)
    if spec.kind == "points":
        if heal:
            return ngettext("{count} point off {track}", "{count} points off {track}", count).format(
                count=count, track=track)
        return ngettext("{count} point on {track}", "{count} points on {track}", count).format(count=count,
                                                                                              track=track)
    if heal:
        return ngettext("{count} box off {track}", "{count} boxes off {track}", count).format(count=count,
                                                                                             track=track)
    return ngettext("{count} box on {track}", "{count} boxes on {track}", count).format(count=count, track=track)


def read_plain_harm(text: str, specs: Sequence[TrackSpec], chosen: str, heal: bool = False) -> Harm:
    """The default reading: a whole number, optionally followed by words naming a track (``3``, ``3 stun``)."""
    first, *rest = words_of(text)
    count = read_count(first)
    spec = pick_track(rest, specs, chosen)
    return Harm(spec.key, count, marks_text(count, spec, heal))
