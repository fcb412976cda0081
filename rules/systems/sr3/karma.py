"""SR3's karma pool: spent like any pool, but refreshed only when the GM says, and burnt for good to buy successes.

sr3.md, Pools: "Karma pool (seed): refreshes every 24 h or when the GM decides, never per turn; 1 point rerolls a
test's failed dice (each further reroll of it +1 point); 1 point turns all 1s into a plain failure; bought successes
cost 1 point each, permanently, and need at least one rolled success." The pool's size is the combatant's
``karma_pool`` attribute; spending points for rerolls is a :class:`~rules.combatants.SpendPool` (the actor strip's
button, the purpose in the log); the combat turn's refresh leaves it alone (:mod:`.system`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules.dice_faces import Chains
from rules.encounter import Combatant, Encounter, Pool
from rules.errors import OperationError
from rules.history import Applied, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.systems.sr3.dice import sr3_die_total, sr3_target_number
from rules.systems.sr3.system import KARMA_ATTRIBUTE, KARMA_POOL
from rules.text import _, ngettext

MAX_BOUGHT = 20  # successes bought at once: a sanity limit on a typed number


@dataclass(frozen=True)
class RefreshKarma(Operation):
    """The GM refreshes karma pools: one combatant's, or everyone's (``combatant_id`` "")."""

    kind = "sr3_refresh_karma"
    combatant_id: str = ""

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        ids = [self.combatant_id] if self.combatant_id else list(encounter.combatants)
        state = encounter
        for combatant_id in ids:
            combatant = require_combatant(state, combatant_id)
            pool = combatant.pools.get(KARMA_POOL)
            if pool is None:
                if self.combatant_id:
                    raise OperationError(_("{name} has no karma pool.").format(name=combatant.name))
                continue
            state = state.with_combatant(combatant.with_pool(KARMA_POOL, replace(pool, spent=0)))
        if self.combatant_id:
            line = LogLine("{name}'s karma pool refreshes.", {"name": encounter.combatant(self.combatant_id).name})
        else:
            line = LogLine("Every karma pool refreshes.")
        return Applied(state, (line,))


@dataclass(frozen=True)
class BuyKarmaSuccesses(Operation):
    """Successes bought for a test that rolled at least one: each costs a point of the pool for good."""

    kind = "sr3_buy_karma_successes"
    combatant_id: str
    count: int = 1

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if not 1 <= self.count <= MAX_BOUGHT:
            raise OperationError(_("Buy 1 to {limit} successes.").format(limit=MAX_BOUGHT))
        state = burn_karma(encounter, system, combatant, self.count)
        size = state.combatant(self.combatant_id).attribute(KARMA_ATTRIBUTE)
        line = LogLine("{name} buys {count} success with karma: the pool is {size} for good.",
                       {"name": combatant.name, "count": self.count, "size": size},
                       plural="{name} buys {count} successes with karma: the pool is {size} for good.",
                       count=self.count)
        return Applied(state, (line,))


def burn_karma(encounter: Encounter, system: RuleSystem, combatant: Combatant, count: int) -> Encounter:
    """``count`` points of the pool burnt for good (bought successes: "cost 1 point each, permanently"), or a
    refusal naming what is left."""
    pool = combatant.pools.get(KARMA_POOL, Pool(0))
    if count > pool.remaining:
        raise OperationError(karma_left_refusal(combatant.name, pool.remaining))
    size = combatant.attribute(KARMA_ATTRIBUTE) - count
    return encounter.with_combatant(system.prepare(combatant.with_attribute(KARMA_ATTRIBUTE, size), encounter))


def reroll_cost(done: int) -> int:
    """The karma points the next reroll of one test costs after ``done`` rerolls of it: "1 point rerolls a test's
    failed dice (each further reroll of it +1 point)"."""
    return done + 1


def rerolls_cost(count: int) -> int:
    """The karma points ``count`` rerolls of one test cost together (1, then 1 + 2, then 1 + 2 + 3)."""
    return sum(reroll_cost(done) for done in range(count))


def failed_dice(chains: Sequence[Sequence[int]], tn: int) -> list[int]:
    """The positions of the dice that did not reach the TN (what a karma reroll rolls again)."""
    target = sr3_target_number(tn)
    return [index for index, chain in enumerate(chains) if sr3_die_total(chain) < target]


def with_failures_rerolled(chains: Chains, tn: int, fresh: Chains) -> Chains:
    """``chains`` with its failed dice replaced, in order, by the ``fresh`` ones (one for each)."""
    failed = failed_dice(chains, tn)
    if len(fresh) != len(failed):
        raise OperationError(_("A karma reroll rolls each failed die once again."))
    replaced = dict(zip(failed, fresh, strict=True))
    return tuple(replaced.get(index, chain) for index, chain in enumerate(chains))


def spend_karma(encounter: Encounter, combatant: Combatant, points: int) -> Encounter:
    """``points`` of the combatant's karma pool spent (refreshed only when the GM says), or a refusal naming what
    is left."""
    pool = combatant.pools.get(KARMA_POOL)
    if pool is None or points > pool.remaining:
        raise OperationError(karma_left_refusal(combatant.name, pool.remaining if pool is not None else 0))
    return encounter.with_combatant(combatant.with_pool(KARMA_POOL, replace(pool, spent=pool.spent + points)))


def karma_left_refusal(name: str, left: int) -> str:
    """"Twitch has only 1 karma point left." (what a spending beyond the pool is refused with)"""
    return ngettext("{name} has only {left} karma point left.", "{name} has only {left} karma points left.",
                    left).format(name=name, left=left)


def karma_text(left: int, size: int) -> str:
    """"4 of 6 karma points left"."""
    return ngettext("{left} of {size} karma point left", "{left} of {size} karma points left", size).format(
        left=left, size=size)
