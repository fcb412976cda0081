"""SR3 initiative: scores per pass, the tie chain, and the order of one pass.

A combatant's score in pass ``p`` is its rolled initiative, minus its *current* wound modifier, minus
10 per earlier pass. Because the wound modifier is read from the monitors every time, a wound changes
the score (and the order of the current pass) immediately, as the rules demand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import pairwise
from typing import Final, NamedTuple

from rules.encounter import Combatant, Encounter, Slot, SlotKind, Status
from rules.systems.sr3.monitor import PHYSICAL, STUN, status, wound_modifiers

PASS_STEP: Final[int] = 10
#: Kept in ``Combatant.extra`` (see :mod:`.tie_scores`): the wound modifier the first tie-breaker subtracts, the
#: initiative the wounds cost when the score it compares was set (at the roll, or at the start of the pass).
#: Fights saved before it never hold it: their first tie-breaker is the rolled result, as it was played.
TIE_WOUNDS: Final[str] = "tie_wounds"


class Standing(NamedTuple):
    """What the order of a pass reads of one combatant: its status, the initiative its wounds cost (a positive
    number), its Reaction and natural Reaction."""

    status: Status
    penalty: int
    reaction: int
    reaction_natural: int


#: Each combatant's standing, by the object's identity (a combatant is immutable, and most of them are the same
#: objects from one state to the next); each entry keeps its combatant alive, so an id is never reused here.
_STANDINGS: dict[int, tuple[Combatant, Standing]] = {}
_STANDINGS_LIMIT: Final[int] = 20_000


def standing(combatant: Combatant) -> Standing:
    """The combatant's :class:`Standing`, worked out once per combatant object: the order of a pass is asked on
    every change, for every combatant, and the table asks each one's status again."""
    known = _STANDINGS.get(id(combatant))
    if known is not None and known[0] is combatant:
        return known[1]
    physical, stun = combatant.boxes(PHYSICAL), combatant.boxes(STUN)
    reaction = combatant.attribute("reaction")
    found = Standing(status(physical, stun, combatant.attribute("body")), -wound_modifiers(physical, stun)[1],
                     reaction, combatant.attribute("reaction_natural", reaction))
    if len(_STANDINGS) >= _STANDINGS_LIMIT:
        _STANDINGS.clear()
    _STANDINGS[id(combatant)] = (combatant, found)
    return found


def wound_initiative_penalty(combatant: Combatant) -> int:
    """How much the current wounds lower the initiative score (a positive number); read from the combatant's
    :func:`standing`: the chart asks it for every combatant and every later pass after each change."""
    return standing(combatant).penalty


def unwounded_score(combatant: Combatant, pass_no: int) -> int | None:
    """The score in ``pass_no`` ignoring wounds, None without initiative."""
    if combatant.initiative is None:
        return None
    return combatant.initiative.rolled - PASS_STEP * (pass_no - 1)


def tie_wounds(combatant: Combatant) -> int:
    """The wound modifier the first tie-breaker subtracts (:data:`TIE_WOUNDS`; none kept: 0)."""
    value = combatant.extra.get(TIE_WOUNDS)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def first_tie_score(combatant: Combatant, pass_no: int) -> int | None:
    """The first tie-breaker in ``pass_no``: the score before the wounds taken since it was set (sr3.md, Ties,
    Decision: "the scores before any wound taken this turn (rolled results, earlier wounds subtracted)"; option:
    the previous pass's scores), None without initiative."""
    base = unwounded_score(combatant, pass_no)
    return None if base is None else base - tie_wounds(combatant)


def score(combatant: Combatant, pass_no: int) -> int | None:
    """The score in ``pass_no`` with current wounds; None without initiative."""
    base = unwounded_score(combatant, pass_no)
    return None if base is None else base - wound_initiative_penalty(combatant)


def pass_scores(combatant: Combatant) -> list[int]:
    """Every positive score this turn, pass by pass (``[27, 17, 7]``)."""
    scores = []
    pass_no = 1
    while (value := score(combatant, pass_no)) is not None and value > 0:
        scores.append(value)
        pass_no += 1
    return scores


def tie_key(combatant: Combatant, pass_no: int, yielded: frozenset[str]) -> tuple[int, ...]:
    """Sort key, highest first: score, then the seed's tie chain, then the pre-rolled d6 tie-breaks.

    Chain: higher score before this turn's wounds lowered it (:func:`first_tie_score`), higher modified Reaction,
    higher natural Reaction, 1d6 (rerolled while tied). A combatant who chose to act after its ties sorts after them.
    """
    return (score(combatant, pass_no) or 0, 0 if combatant.id in yielded else 1, *tie_chain(combatant, pass_no))


def tie_chain(combatant: Combatant, pass_no: int) -> tuple[int, ...]:
    """How tied initiative orders ``combatant`` in ``pass_no``, highest first: :func:`first_tie_score` (the digest's
    Decision for "higher score in the previous pass"), modified Reaction, natural Reaction, then
    the pre-rolled d6 tie-breaks. Also the order of held actions taken together (sr3.md, Delaying: "actors at the
    end of a pass or turn: ordered as for tied initiative")."""
    initiative = combatant.initiative
    assert initiative is not None
    reaction = combatant.attribute("reaction")
    return (first_tie_score(combatant, pass_no) or 0, reaction, combatant.attribute("reaction_natural", reaction),
            *initiative.tiebreak)


def pass_order(combatants: Iterable[Combatant], pass_no: int, yielded: frozenset[str] = frozenset()) -> list[
        Combatant]:
    """Combatants with a positive score in ``pass_no``, highest first (stable for full ties)."""
    return [combatant for combatant, _score in scored_pass_order(combatants, pass_no, yielded)]


def scored_pass_order(combatants: Iterable[Combatant], pass_no: int, yielded: frozenset[str] = frozenset(),
                      active_only: bool = False) -> list[tuple[Combatant, int]]:
    """:func:`pass_order` with each one's score: every key worked out once (the order is asked on every change,
    for every combatant; the wound modifier was read three times a combatant). ``active_only`` leaves out whoever
    is not :attr:`Status.ACTIVE` (read from the same standing, not asked again per combatant)."""
    keyed = []
    for combatant in combatants:
        found = pass_key(combatant, pass_no, yielded, active_only)
        if found is not None:
            keyed.append((found[0], combatant))
    keyed.sort(key=_first, reverse=True)  # stable for full ties, as sorted() by tie_key is
    return [(combatant, key[0]) for key, combatant in keyed]


def pass_key(combatant: Combatant, pass_no: int, yielded: frozenset[str],
             active_only: bool = False) -> tuple[tuple[int, ...], int] | None:
    """Where ``combatant`` sorts in ``pass_no`` (highest first) and its score there; None when it does not act."""
    initiative = combatant.initiative
    if initiative is None:
        return None
    facts = standing(combatant)
    if active_only and facts.status is not Status.ACTIVE:
        return None
    unwounded = initiative.rolled - PASS_STEP * (pass_no - 1)
    value = unwounded - facts.penalty
    if value <= 0:
        return None
    return (value, 0 if combatant.id in yielded else 1, unwounded - tie_wounds(combatant), facts.reaction,
            facts.reaction_natural, *initiative.tiebreak), value


class _Ordered(NamedTuple):
    combatants: Mapping[str, Combatant]
    ids: tuple[str, ...]
    positions: Mapping[str, int]  # each id's place in the roster
    inputs: tuple[object, ...]  # what else the order was worked out for: the pass, who yielded, who is left out
    keyed: list[tuple[tuple[int, ...], Slot]]  # (sort key, slot), highest first


class PassOrder:
    """The actors of a pass in order, worked out again only for the combatants that changed.

    The order is asked after every change, and most changes touch one or two combatants (a wound moves its
    target): re-keying a thousand combatants and sorting them took ~8 ms of each attack at 1,000. The last
    order is kept with each one's sort key; when the next state has the same pass and the same combatants in the
    same places, or only some added at the end or some removed (adding ten gangers to a thousand re-keyed them
    all: 10 ms), only the combatants that are new objects are keyed again, and the nearly sorted list is sorted
    again (linear for Python's sort). A full tie keeps the roster order, as :func:`scored_pass_order`'s stable
    sort does: the roster position is the last part of the key (a removal keeps the others' relative places).
    """

    #: Beyond this share of changed combatants the order is worked out from scratch.
    REKEY_SHARE: Final[float] = 0.25

    def __init__(self) -> None:
        self._last: _Ordered | None = None

    def slots(self, combatants: Mapping[str, Combatant], pass_no: int, yielded: frozenset[str],
              left_out: frozenset[str], context: object = None) -> list[Slot]:
        """The :attr:`SlotKind.ACTORS` slots of the active combatants not ``left_out``, highest score first.

        ``context``: anything else the caller's order depends on (compared by identity)."""
        inputs = (pass_no, yielded, left_out, context)
        last, ids = self._last, tuple(combatants)
        positions = self._positions(ids, inputs)
        changed = self._changed(combatants) if positions is not None else None
        if last is None or positions is None or changed is None:
            positions = {cid: position for position, cid in enumerate(ids)}
            keyed = self._keyed(combatants, positions, ids, inputs)
        else:
            kept = [item for item in last.keyed if item[1].ids[0] not in changed and item[1].ids[0] in combatants]
            keyed = kept + self._keyed(combatants, positions, changed, inputs)
        keyed.sort(key=_first_of_slot, reverse=True)
        self._last = _Ordered(combatants, ids, positions, inputs, keyed)
        return [slot for _key, slot in keyed]

    def _positions(self, ids: tuple[str, ...], inputs: tuple[object, ...]) -> Mapping[str, int] | None:
        """Roster places that keep the last order's keys valid: the same roster, one with combatants added at the
        end, or one with some removed; None when the order must be worked out afresh."""
        last = self._last
        if last is None or not _same_inputs(last.inputs, inputs):
            return None
        known = len(last.ids)
        if ids == last.ids:
            return last.positions
        if len(ids) > known and ids[:known] == last.ids:  # added at the end
            return {**last.positions, **{cid: known + offset for offset, cid in enumerate(ids[known:])}}
        if len(ids) < known and all(cid in last.positions for cid in ids):  # some removed, the others in order?
            places = [last.positions[cid] for cid in ids]
            if all(earlier < later for earlier, later in pairwise(places)):
                return dict(zip(ids, places, strict=True))
        return None

    def _changed(self, combatants: Mapping[str, Combatant]) -> set[str] | None:
        """The ids whose combatant is new or changed since the last order (None: too many to re-key)."""
        assert self._last is not None
        before = self._last.combatants
        changed = {cid for cid, combatant in combatants.items() if before.get(cid) is not combatant}
        return None if len(changed) > self.REKEY_SHARE * len(combatants) else changed

    @staticmethod
    def _keyed(combatants: Mapping[str, Combatant], positions: Mapping[str, int], which: Iterable[str],
               inputs: tuple[object, ...]) -> list[tuple[tuple[int, ...], Slot]]:
        pass_no, yielded, left_out, _context = inputs
        assert isinstance(pass_no, int) and isinstance(yielded, frozenset) and isinstance(left_out, frozenset)
        keyed = []
        for cid in which:
            combatant = combatants[cid]
            if combatant.id in left_out:
                continue
            found = pass_key(combatant, pass_no, yielded, active_only=True)
            if found is not None:
                key, value = found
                keyed.append(((*key, -positions[cid]), Slot(SlotKind.ACTORS, (combatant.id,), value)))
        return keyed


def _same_inputs(known: tuple[object, ...], asked: tuple[object, ...]) -> bool:
    pass_no, yielded, left_out, context = known
    return (pass_no, yielded, left_out) == asked[:3] and context is asked[3]


def _first_of_slot(item: tuple[tuple[int, ...], Slot]) -> tuple[int, ...]:
    return item[0]


def _first(item: tuple[tuple[int, ...], Combatant]) -> tuple[int, ...]:
    return item[0]


def initiative_passes(scores: Mapping[str, int]) -> list[list[str]]:
    """Who acts in each pass, in order, for fixed scores with no damage (ties keep the given order)."""
    passes: list[list[str]] = []
    pass_no = 1
    while True:
        acting = [name for name, value in scores.items() if value - PASS_STEP * (pass_no - 1) > 0]
        if not acting:
            return passes
        passes.append(sorted(acting, key=lambda name: scores[name], reverse=True))
        pass_no += 1


def timer_slots(encounter: Encounter) -> list[Slot]:
    """Timed events (grenades) due in the current pass, as slots at their phase (0 = end of the pass).

    A timer whose pass never came (the turn ended early) goes off at the end of the current pass.
    """
    now = (encounter.clock.round, encounter.clock.pass_no)
    slots = []
    for effect in encounter.effects.values():
        if effect.due is None or effect.due[:2] > now:
            continue
        phase = effect.due[2] if effect.due[:2] == now else 0
        slots.append(Slot(SlotKind.TIMER, (effect.id,), phase))
    return slots
