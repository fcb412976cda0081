"""Institute wounds as the GM types them in the Damage dialog: a wound class, a count, or a damage total.

``Heavy`` is one Heavy wound, ``2 Heavy`` two (a burst's hits), ``2`` two wounds of the class chosen in the dialog,
``=17`` the damage roll's total, read off the target's own life pyramid (``2 =17``: two wounds of that class). A
class is named by the start of its name in the GM's language or in English (``hea``, ``těž``); a start two classes
share (``m``: Medium, Mortal) is refused. The meaning says where each wound lands when a row is full.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

from rules.errors import RulesError
from rules.harm import Harm, pick_track, read_count, words_of
from rules.systems.base import TrackSpec
from rules.systems.institut.pyramid import CLASS_LABELS, HEAVY, MAX_THRESHOLD, MORTAL, Pyramid
from rules.text import _, ngettext

_TYPED: Final = re.compile(r"^(?P<count>\d+)?\s*(?:=\s*(?P<total>\S+))?\s*(?P<words>.*)$")


def _damage_total(text: str) -> int:
    if not text.isdigit() or int(text) > MAX_THRESHOLD:
        raise RulesError(_("After “=” type the damage roll's total, e.g. =17."))
    return int(text)


def _classified(pyramid: Pyramid, total: int) -> str:
    wound = pyramid.classify(total)
    if wound is None:
        raise RulesError(ngettext("{points} point: below the pyramid, no wound.",
                                  "{points} points: below the pyramid, no wound.", total).format(points=total))
    return wound


def _wounds_text(pyramid: Pyramid, count: int, wound: str, heal: bool) -> str:
    name = _(pyramid.label(wound))
    if heal:
        return ngettext("{count} {wound} wound healed", "{count} {wound} wounds healed", count).format(
            count=count, wound=name)
    return ngettext("{count} {wound} wound", "{count} {wound} wounds", count).format(count=count, wound=name)


def _landing(pyramid: Pyramid, damage: Mapping[str, int], wound: str, count: int) -> list[str]:
    """Where wounds go that their own row has no box for (the pyramid passes them to heavier rows)."""
    notes: list[str] = []
    for placement in pyramid.place(damage, wound, count)[1]:
        if placement.overflow:
            note = (_("No box is free: the wound stays on the Mortal row.") if placement.landed == MORTAL
                    else _("No box is free: the wound stays on the {wound} row.").format(
                        wound=_(pyramid.label(placement.landed))))
        elif placement.landed != placement.rolled:
            note = _("The {wound} row is full: the wound goes to {landed}.").format(
                wound=_(pyramid.label(placement.rolled)), landed=_(pyramid.label(placement.landed)))
        else:
            continue
        if note not in notes:
            notes.append(note)
    return notes


def parse_harm(text: str, pyramid: Pyramid, damage: Mapping[str, int], specs: Sequence[TrackSpec], chosen: str,
               heal: bool = False) -> Harm:
    """Read ``Heavy``, ``2 Heavy``, ``2``, ``=17`` or ``2 =17`` for a target with ``pyramid`` and ``damage``."""
    words_of(text)  # refuses an empty or overlong text
    match = _TYPED.match(text.strip())
    assert match is not None  # every part is optional
    words = match["words"].split()
    if match["total"] is not None and words:
        raise RulesError(_("Type a wound class or a damage total, not both."))
    if match["count"] is None and match["total"] is None and not words:
        raise RulesError(_("Type a wound class, a number of wounds or a damage total, e.g. {examples}.").format(
            examples=notation_examples()))
    count = read_count(match["count"]) if match["count"] is not None else 1
    if match["total"] is not None:
        total = _damage_total(match["total"])
        wound = _classified(pyramid, total)
        meaning = ngettext("{points} point: {wounds}", "{points} points: {wounds}", total).format(
            points=total, wounds=_wounds_text(pyramid, count, wound, heal))
    else:
        wound = pick_track(words, specs, chosen).key
        meaning = _wounds_text(pyramid, count, wound, heal)
    notes = [] if heal else _landing(pyramid, damage, wound, count)
    return Harm(wound, count, " ".join([meaning + ("." if notes else ""), *notes]))


def notation_examples() -> str:
    """``Heavy, 2 Heavy, 2 or =17`` with the class name in the GM's language."""
    return _("{heavy}, 2 {heavy}, 2 or =17").format(heavy=_(CLASS_LABELS[HEAVY]))
