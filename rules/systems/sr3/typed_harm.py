"""SR3 damage as the GM types it in the Damage dialog: a level (``S``), a damage code (``6S``) or boxes (``3``).

A level is marked as that level's boxes (L 1, M 3, S 6, D 10), unresisted; a damage code is resisted by
each target on its own (:mod:`.resistance`). The letters are the GM's language's (the Czech book writes
L/M/V/S, its S being Deadly), then the English ones no other level claims there, so in Czech ``S`` is Deadly,
``V`` Serious and ``D`` still Deadly. Words after the amount name the track (``6M Stun``, ``3 stun``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rules.errors import RulesError
from rules.harm import Harm, marks_text, pick_track, read_plain_harm, words_of
from rules.systems.base import TrackSpec
from rules.systems.sr3.damage import DamageCode, describe_damage_code
from rules.systems.sr3.levels import LEVEL_BOXES, LEVEL_LABELS, level_letters, typed_level
from rules.systems.sr3.monitor import STUN
from rules.text import _, pgettext

#: The first word: an optional Power and an optional level letter (``6S``, ``S``, ``6``).
_FIRST: Final = re.compile(r"^(?P<power>\d{1,3})?(?P<letter>[^\W\d_]{1,3})?$")  # Polish Śm, Russian Сер


@dataclass(frozen=True)
class TypedCode:
    """A damage code typed in the Damage dialog (``10S``, ``6M Stun``): Power, level and the track it goes on."""

    power: int
    level: str
    spec: TrackSpec


def _read_level(text: str, specs: Sequence[TrackSpec], chosen: str) -> tuple[int | None, str, TrackSpec] | None:
    """(Power or None, level, track) for a typed level or code; None for a plain number of boxes."""
    words = words_of(text)
    match = _FIRST.match(words[0])
    # One stray letter is a mistyped level; more letters than a level has in this language, no notation at all.
    letter = match["letter"] if match else None
    if match is None or (letter and len(letter) > 1 and letter.upper() not in level_letters()):
        raise RulesError(_("“{text}” is neither a damage level nor a number of boxes: type e.g. {examples}.").format(
            text=words[0], examples=notation_examples()))
    power, letter, rest = match["power"], match["letter"], words[1:]
    if letter is None and rest and rest[0].upper() in level_letters():  # "6 S": the Power, then the level
        letter, rest = rest[0], rest[1:]
    if letter is None:
        return None
    return (None if power is None else int(power)), typed_level(letter), pick_track(rest, specs, chosen)


def typed_code(text: str, specs: Sequence[TrackSpec], chosen: str) -> TypedCode | None:
    """The damage code typed (``10S``), or None for a level alone or boxes (RulesError for unreadable text)."""
    read = _read_level(text, specs, chosen)
    if read is None:
        return None
    power, level, spec = read
    return None if power is None else TypedCode(power, level, spec)


def parse_harm(text: str, specs: Sequence[TrackSpec], chosen: str, heal: bool = False) -> Harm:
    """Read ``6S``, ``6 S``, ``S``, ``6M Stun`` (a level's boxes) or ``3``, ``3 stun`` (boxes).

    A code's reading says it is resisted: :mod:`.resistance` rolls each target's Body against it.
    """
    read = _read_level(text, specs, chosen)
    if read is None:
        return read_plain_harm(text, specs, chosen, heal)
    power, level, spec = read
    marks = marks_text(LEVEL_BOXES[level], spec, heal)
    name = _(LEVEL_LABELS[level])
    if power is None or heal:
        return Harm(spec.key, LEVEL_BOXES[level], _("{level} wound: {marks}").format(level=name, marks=marks))
    code = describe_damage_code(DamageCode(power, level, stun=spec.key == STUN))
    return Harm(spec.key, LEVEL_BOXES[level], _("{code}, resisted with Body and combat pool against Power − impact "
                                                "armor (unresisted: {marks})").format(code=code, marks=marks))


def notation_examples() -> str:
    """``6S, S or 3`` with the level letter of the GM's language."""
    serious = pgettext("sr3 damage level", "S")
    return _("6{serious}, {serious} or 3").format(serious=serious)
