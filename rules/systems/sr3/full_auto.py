"""SR3 full-auto fire spread over several targets in one phase.

sr3.md, firing modes: "FA: complex; rounds announced per target, at least 3 …, at most 10 a phase. … Changing
target wastes 1 round per metre between targets (never with a smartgun)." (seed: "za každý metr odstupu mezi cíli
se vyplýtvá jeden výstřel. Smartguny ovšem nikdy náboji nemrhají"). The wasted rounds leave the clip and count
towards the phase's rounds (and so its recoil), but they hit nobody: the damage code and the dodge count only the
rounds given to the target.
"""

from __future__ import annotations

from typing import Final

from rules.errors import RulesError
from rules.systems.sr3.tables import FiringMode, Sr3Tables
from rules.text import _, ngettext

#: Rounds wasted per metre between two targets of one full-auto burst.
WASTED_PER_METRE: Final[int] = 1


def full_auto_rule(limit: int) -> str:
    """The rule a refusal quotes, in the GM's language."""
    return ngettext(
        "Full auto: rounds announced per target, at least 3 each, at most {count} round a phase; changing "
        "target wastes 1 round per metre between targets (never with a smartgun).",
        "Full auto: rounds announced per target, at least 3 each, at most {count} rounds a phase; changing "
        "target wastes 1 round per metre between targets (never with a smartgun).", limit).format(count=limit)


def wasted_rounds(mode: FiringMode, metres: int, smartgun: bool) -> int:
    """Rounds a full-auto burst wastes moving ``metres`` from the previous target to this one."""
    if mode is not FiringMode.FA or smartgun:
        return 0
    return metres * WASTED_PER_METRE


def check_burst(tables: Sr3Tables, mode: FiringMode, fired_before: int, metres: int, wasted: int,
                rounds: int) -> None:
    """Refuse, quoting the rule, a target's share of a burst that does not add up: metres without an earlier
    target, or the rounds fired before, wasted and given to this target past the phase's limit."""
    if metres < 0:
        raise RulesError(_("The metres between targets cannot be negative."))
    if mode is not FiringMode.FA:
        if metres:
            raise RulesError(_("Rounds are wasted between targets only in full-auto fire: set the metres to 0."))
        return
    limit = tables.firing_modes[FiringMode.FA].max_rounds
    if metres and not fired_before:
        raise RulesError(" ".join((_("The first target of a burst has no previous target: give the metres from "
                                     "the second target on, with the rounds already fired."),
                                   full_auto_rule(limit))))
    total = fired_before + wasted + rounds
    if total > limit:
        added = ngettext("{fired} fired before, {wasted} wasted changing target and {rounds} at this target make "
                         "{count} round.",
                         "{fired} fired before, {wasted} wasted changing target and {rounds} at this target make "
                         "{count} rounds.", total).format(fired=fired_before, wasted=wasted, rounds=rounds,
                                                          count=total)
        raise RulesError(" ".join((added, full_auto_rule(limit))))
