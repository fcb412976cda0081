"""Exact outcome distributions shared by every game: dice sums, success counts, keep-lowest/highest, contests.

A :class:`Dist` holds the probabilities of consecutive integer outcomes. Probabilities are floats by default;
``exact=True`` (or :class:`~fractions.Fraction` inputs) gives Fractions, which the tests use as the reference
for the float path (the two agree within 1e-12). Plain lists and tuples only: pools of a few dozen dice are
far below the size where an array library would pay for its import and conversions.

Complexity (w = number of outcomes of a distribution, n = number of dice):
  add(a, b)                   O(w_a·w_b) products in O(w_a + w_b) Python steps (one C-level sum each)
  sum_of(n, d)                O((n·w)²) products in O(n·w) Python steps (binary powering); exact sums and
                              fair dice: O(log n) big-integer products (Kronecker substitution)
  binomial(n, p)              O(n)
  keep_lowest/keep_highest    O(w): powers of the CDF, n only enters as an exponent
  sum_of_kept(n, s, k)        O(s·k·n) big-integer shifts and adds (see :func:`_kept_ways`)
  compare(a, b)               O(w_a + w_b)
  exploding_successes         O(n·K), K = outcomes kept before the tail mass drops below ``tail``
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate, chain
from operator import mul
from typing import Any, Final, Generic, Literal, NamedTuple, TypeVar, overload

from rules.errors import RulesError
from rules.text import _, ngettext

#: The number type of probabilities: ``float`` (fast) or ``Fraction`` (exact).
P = TypeVar("P", float, Fraction)
#: Numbers the internal kernels work on: probabilities, or integer numerators of exact ones.
N = TypeVar("N", int, float, Fraction)

#: Probability mass an infinite (exploding) distribution may leave out by default.
DEFAULT_TAIL: Final[float] = 1e-12
#: Safety stop for infinite distributions whose tail shrinks too slowly (or underflows in floats).
MAX_OUTCOMES: Final[int] = 100_000


def _zero(like: N) -> N:
    """A zero of the same number type as ``like`` (keeps Fractions exact, floats fast)."""
    return like * 0


def _one(like: P) -> P:
    """A one of the same number type as ``like``."""
    return like * 0 + 1


def dot(xs: Iterable[N], ys: Iterable[N], zero: N) -> N:
    """Σ xᵢ·yᵢ over the shorter input, starting from ``zero`` (its type: float or Fraction); loops in C."""
    total: N = sum(map(mul, xs, ys), zero)
    return total


def _check_dice(count: int) -> None:
    """Reject a negative number of dice with a message the GM can read."""
    if count < 0:
        raise RulesError(_("The number of dice cannot be negative (got {count}).").format(count=count))


def _check_probability(p: float | Fraction) -> None:
    # Probabilities come from code, not from the GM, so a plain ValueError suffices.
    if not 0 <= p <= 1:
        raise ValueError(f"probability out of range: {p}")


@dataclass(frozen=True, slots=True)
class Dist(Generic[P]):
    """Non-negative probabilities of the outcomes ``offset, offset + 1, …`` (immutable, hashable, cacheable)."""

    offset: int
    probs: tuple[P, ...]

    def __post_init__(self) -> None:
        if not self.probs:
            raise ValueError("a distribution needs at least one outcome")

    @classmethod
    def from_mapping(cls, weights: Mapping[int, P]) -> Dist[P]:
        """Build from ``{outcome: probability}``; outcomes missing in between get probability 0."""
        if not weights:
            raise ValueError("a distribution needs at least one outcome")
        low, high = min(weights), max(weights)
        zero = _zero(next(iter(weights.values())))
        return cls(low, tuple(weights.get(x, zero) for x in range(low, high + 1)))

    @property
    def low(self) -> int:
        """Smallest outcome."""
        return self.offset

    @property
    def high(self) -> int:
        """Largest outcome."""
        return self.offset + len(self.probs) - 1

    def outcomes(self) -> range:
        """All outcomes from ``low`` to ``high``."""
        return range(self.low, self.high + 1)

    def items(self) -> Iterator[tuple[int, P]]:
        """Pairs ``(outcome, probability)`` in increasing order."""
        return zip(self.outcomes(), self.probs, strict=True)

    def to_dict(self) -> dict[int, P]:
        """``{outcome: probability}`` for every outcome in range."""
        return dict(self.items())

    def probability(self, outcome: int) -> P:
        """P(X = outcome); 0 outside the range."""
        index = outcome - self.offset
        return self.probs[index] if 0 <= index < len(self.probs) else _zero(self.probs[0])

    def at_least(self, outcome: int) -> P:
        """P(X ≥ outcome), summed from the tail so that small float tails stay accurate."""
        start = min(max(outcome - self.offset, 0), len(self.probs))
        return sum(self.probs[start:], _zero(self.probs[0]))

    def at_most(self, outcome: int) -> P:
        """P(X ≤ outcome)."""
        stop = min(max(outcome - self.offset + 1, 0), len(self.probs))
        return sum(self.probs[:stop], _zero(self.probs[0]))

    def cdf(self) -> list[P]:
        """P(X ≤ x) for each x in :meth:`outcomes` (for charts)."""
        return list(accumulate(self.probs))

    def survival(self) -> list[P]:
        """P(X ≥ x) for each x in :meth:`outcomes` ("at least x" charts)."""
        return list(accumulate(reversed(self.probs)))[::-1]

    def total(self) -> P:
        """Sum of all probabilities (1, up to float rounding or a truncated tail)."""
        return sum(self.probs, _zero(self.probs[0]))

    def mean(self) -> P:
        """Expected outcome."""
        return sum((x * p for x, p in self.items()), _zero(self.probs[0]))

    def variance(self) -> P:
        """Variance of the outcome."""
        mean = self.mean()
        return sum(((x - mean) ** 2 * p for x, p in self.items()), _zero(self.probs[0]))

    def sd(self) -> float:
        """Standard deviation (a float even for exact distributions: square roots are irrational)."""
        return math.sqrt(float(self.variance()))

    def as_floats(self) -> Dist[float]:
        """The same distribution with float probabilities (for charts)."""
        return Dist(self.offset, tuple(float(p) for p in self.probs))

    def map(self, function: Callable[[int], int]) -> Dist[P]:
        """Distribution of ``function(X)``; outcomes mapped together add up."""
        weights: dict[int, P] = {}
        for x, p in self.items():
            y = function(x)
            weights[y] = weights[y] + p if y in weights else p
        return Dist.from_mapping(weights)

    def clip(self, low: int | None = None, high: int | None = None) -> Dist[P]:
        """Move the mass below ``low`` onto ``low`` and above ``high`` onto ``high`` ("never below 0")."""
        if low is not None and high is not None and low > high:
            raise ValueError(f"empty clip range {low}..{high}")
        ceiling = self.high if high is None else high
        floor = min(self.low, ceiling) if low is None else low
        ceiling = max(ceiling, floor)  # only `low` given and above the range: everything lands on it
        return self.map(lambda x: min(max(x, floor), ceiling))

    def shift(self, amount: int) -> Dist[P]:
        """Distribution of ``X + amount``."""
        return Dist(self.offset + amount, self.probs)

    def __add__(self, other: Dist[P] | int) -> Dist[P]:
        return self.shift(other) if isinstance(other, int) else add(self, other)

    def __radd__(self, other: int) -> Dist[P]:
        return self.shift(other)

    def __neg__(self) -> Dist[P]:
        return Dist(-self.high, self.probs[::-1])

    def __sub__(self, other: Dist[P] | int) -> Dist[P]:
        return self.shift(-other) if isinstance(other, int) else add(self, -other)


class Comparison(NamedTuple, Generic[P]):
    """Outcome of an opposed comparison of two independent values: P(a > b), P(a = b), P(a < b)."""

    greater: P
    equal: P
    less: P


class Truncated(NamedTuple, Generic[P]):
    """An infinite distribution cut where its remaining tail is negligible, with the mass left out."""

    dist: Dist[P]
    truncated: P


# --- constructors -------------------------------------------------------------------------------------------


@overload
def die(sides: int, *, exact: Literal[False] = ...) -> Dist[float]: ...
@overload
def die(sides: int, *, exact: Literal[True]) -> Dist[Fraction]: ...
@overload
def die(sides: int, *, exact: bool) -> Dist[float] | Dist[Fraction]: ...
def die(sides: int, *, exact: bool = False) -> Dist[float] | Dist[Fraction]:
    """One fair die showing 1..``sides``."""
    if sides < 1:
        raise RulesError(_("A die needs at least one side (got {sides}).").format(sides=sides))
    if exact:
        return Dist(1, (Fraction(1, sides),) * sides)
    return Dist(1, (1 / sides,) * sides)


@overload
def constant(value: int, *, exact: Literal[False] = ...) -> Dist[float]: ...
@overload
def constant(value: int, *, exact: Literal[True]) -> Dist[Fraction]: ...
@overload
def constant(value: int, *, exact: bool) -> Dist[float] | Dist[Fraction]: ...
def constant(value: int, *, exact: bool = False) -> Dist[float] | Dist[Fraction]:
    """A value known for certain (a typed-in roll, a flat modifier)."""
    return Dist(value, (Fraction(1),)) if exact else Dist(value, (1.0,))


def binomial(n: int, p: P) -> Dist[P]:
    """Number of successes among ``n`` independent tries that each succeed with ``p`` (Fraction = exact)."""
    _check_dice(n)
    _check_probability(p)
    q = 1 - p
    # Closed form per term: no error accumulates along k, unlike a running product.
    return Dist(0, tuple(math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)))


def count_successes(n: int, single: Dist[P], target: int) -> Dist[P]:
    """Number of ``n`` dice distributed like ``single`` that show ``target`` or more."""
    return binomial(n, single.at_least(target))


# --- exact arithmetic on integers ---------------------------------------------------------------------------
# Every Fraction operation pays for a gcd. Exact results are therefore computed on integer numerators over one
# common denominator, and Fractions are built once at the end.


def _retyped(values: object) -> Any:
    """Pass values between the exact-only branches and generic code: mypy checks the generic code once per
    number type and cannot narrow a sequence of P by testing one element, so those branches re-type here."""
    return values


def _scaled(values: Sequence[Fraction]) -> tuple[list[int], int]:
    """Integer numerators over the common denominator of ``values``."""
    denominator = math.lcm(*(value.denominator for value in values))
    return [value.numerator * (denominator // value.denominator) for value in values], denominator


def _fractions(numerators: Iterable[int], denominator: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(numerator, denominator) for numerator in numerators)  # one gcd each, at the end


def _pack(numbers: Sequence[int], width: int) -> int:
    return int.from_bytes(b"".join(number.to_bytes(width, "little") for number in numbers), "little")


def _int_convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """Convolution of non-negative integers as ONE big-integer product (Kronecker substitution).

    Each sequence becomes a number with one ``width``-byte slot per entry; CPython multiplies the two in C
    (Karatsuba), and the slots of the product are the convolution, as no slot can overflow into the next.
    """
    width = max(1, ((sum(a) * sum(b)).bit_length() + 7) // 8)  # no output exceeds sum(a)·sum(b)
    count = len(a) + len(b) - 1
    data = (_pack(a, width) * _pack(b, width)).to_bytes(width * count, "little")
    return [int.from_bytes(data[i : i + width], "little") for i in range(0, width * count, width)]


def _int_power(numerators: list[int], n: int) -> list[int]:
    """``numerators`` convolved with itself ``n`` times: ONE big-integer power (Kronecker substitution again).

    Packed once and raised to the n-th power in C, then unpacked once: 2-4× faster than binary powering
    through :func:`_int_convolve` for the pools a table rolls (4d6: 14 → 4 µs), no slower for huge ones.
    """
    if n == 0:
        return [1]
    width = max(1, ((sum(numerators) ** n).bit_length() + 7) // 8)  # no output exceeds sum(numerators)ⁿ
    count = (len(numerators) - 1) * n + 1
    data = (_pack(numerators, width) ** n).to_bytes(width * count, "little")
    return [int.from_bytes(data[i : i + width], "little") for i in range(0, width * count, width)]


# --- combinations -------------------------------------------------------------------------------------------


def _float_convolve(a: Sequence[P], b: Sequence[P]) -> tuple[P, ...]:
    """Coefficients of the product of two polynomials: out[k] = Σ a[i]·b[k − i]."""
    zero = _zero(a[0])
    reverse = b[::-1]
    last_b = len(b) - 1
    out = []
    for k in range(len(a) + last_b):
        lo, hi = max(0, k - last_b), min(k, len(a) - 1) + 1
        # reverse[last_b - k + i] == b[k - i], so both slices walk the same pairs.
        out.append(dot(a[lo:hi], reverse[last_b - k + lo : last_b - k + hi], zero))
    return tuple(out)


def _convolve(a: Sequence[P], b: Sequence[P]) -> tuple[P, ...]:
    """Convolution, on integers when exact (see :func:`_int_convolve`)."""
    if isinstance(a[0], Fraction):
        (a_int, a_scale), (b_int, b_scale) = _scaled(_retyped(a)), _scaled(_retyped(b))
        exact: tuple[P, ...] = _retyped(_fractions(_int_convolve(a_int, b_int), a_scale * b_scale))
        return exact
    return _float_convolve(a, b)


def add(a: Dist[P], b: Dist[P]) -> Dist[P]:
    """Distribution of the sum of two independent values (convolution)."""
    return Dist(a.offset + b.offset, _convolve(a.probs, b.probs))


def mixture(parts: Sequence[tuple[P, Dist[P]]]) -> Dist[P]:
    """The distribution of a value drawn from one of ``parts`` (weight, distribution) chosen by its weight
    (the weights sum to 1): e.g. a test whose dice depend on a die rolled first."""
    if not parts:
        raise ValueError("a mixture needs at least one part")
    low, high = min(dist.low for _w, dist in parts), max(dist.high for _w, dist in parts)
    zero = _zero(parts[0][0])
    probs = [zero] * (high - low + 1)
    for weight, dist in parts:
        for outcome, chance in dist.items():
            probs[outcome - low] += weight * chance
    return Dist(low, tuple(probs))


def sum_of(n: int, single: Dist[P]) -> Dist[P]:
    """Sum of ``n`` independent values distributed like ``single`` (e.g. ``sum_of(4, die(6))`` = 4d6)."""
    _check_dice(n)
    fair = len(set(single.probs)) == 1
    if isinstance(single.probs[0], Fraction):
        numerators, denominator = _scaled(_retyped(single.probs))
        counts = _fair_ways(len(numerators), n) if fair else _int_power(numerators, n)
        scale = numerators[0] ** n if fair else 1
        probs: tuple[P, ...] = _retyped(_fractions([ways * scale for ways in counts], denominator**n))
        return Dist(n * single.offset, probs)
    if fair:
        # A fair die: count the ways exactly, then scale once (fast, and each float rounded only once).
        scale = single.probs[0] ** n
        return Dist(n * single.offset, tuple(ways * scale for ways in _fair_ways(len(single.probs), n)))
    return _float_sum(n, single)


@lru_cache(maxsize=1024)
def _fair_ways(sides: int, n: int) -> tuple[int, ...]:
    """How many ways ``n`` fair dice of ``sides`` faces make each total (cached: charts ask again and again)."""
    return tuple(_int_power([1] * sides, n))


def _float_sum(n: int, single: Dist[P]) -> Dist[P]:
    """Binary powering: few, wide convolutions keep the Python-level loop short."""
    result = Dist(0, (_one(single.probs[0]),))
    power = single
    while n:
        if n & 1:
            result = add(result, power)
        n >>= 1
        if n:
            power = add(power, power)
    return result


def _check_keep(n: int) -> None:
    if n < 1:
        raise RulesError(_("Keeping a die needs at least one die (got {count}).").format(count=n))


def _extreme_of(n: int, probs: Sequence[N], highest: bool) -> list[N]:
    """P(max = x) = F(x)ⁿ − F(x − 1)ⁿ; the minimum is the same formula over the outcomes reversed."""
    ordered = probs if highest else probs[::-1]
    powers: list[N] = [c**n for c in accumulate(ordered)]
    steps = [high - low for high, low in zip(powers, chain([_zero(powers[0])], powers), strict=False)]
    return steps if highest else steps[::-1]


def _extreme(n: int, single: Dist[P], highest: bool) -> Dist[P]:
    """Highest or lowest of ``n`` values distributed like ``single``."""
    if isinstance(single.probs[0], Fraction):
        numerators, scale = _scaled(_retyped(single.probs))
        probs: tuple[P, ...] = _retyped(_fractions(_extreme_of(n, numerators, highest), scale**n))
        return Dist(single.offset, probs)
    return Dist(single.offset, tuple(_extreme_of(n, single.probs, highest)))


@overload
def keep_highest(n: int, single: Dist[P]) -> Dist[P]: ...
@overload
def keep_highest(n: int, single: int, *, exact: Literal[False] = ...) -> Dist[float]: ...
@overload
def keep_highest(n: int, single: int, *, exact: Literal[True]) -> Dist[Fraction]: ...
def keep_highest(n: int, single: int | Dist[P], *, exact: bool = False) -> Dist[float] | Dist[Fraction] | Dist[P]:
    """Highest of ``n`` dice; ``single`` is a number of sides or any distribution."""
    _check_keep(n)
    if isinstance(single, Dist):
        return _extreme(n, single, highest=True)
    return _extreme(n, die(single, exact=True), True) if exact else _extreme(n, die(single), True)


@overload
def keep_lowest(n: int, single: Dist[P]) -> Dist[P]: ...
@overload
def keep_lowest(n: int, single: int, *, exact: Literal[False] = ...) -> Dist[float]: ...
@overload
def keep_lowest(n: int, single: int, *, exact: Literal[True]) -> Dist[Fraction]: ...
def keep_lowest(n: int, single: int | Dist[P], *, exact: bool = False) -> Dist[float] | Dist[Fraction] | Dist[P]:
    """Lowest of ``n`` dice; ``single`` is a number of sides or any distribution."""
    _check_keep(n)
    if isinstance(single, Dist):
        return _extreme(n, single, highest=False)
    return _extreme(n, die(single, exact=True), False) if exact else _extreme(n, die(single), False)


#: Most steps (sides × kept dice × dice) the sum of kept dice may take: far past any pool a table rolls
#: (20d20kh10: 4,000), and well under a second at the limit.
MAX_KEPT_STEPS: Final[int] = 20_000


def _kept_ways(n: int, sides: int, keep: int) -> list[int]:
    """How many of the sidesⁿ rolls give each sum ``keep``…``keep·sides`` of their ``keep`` highest dice.

    Faces are taken from the highest down; until ``keep`` dice are placed every die placed is kept, so a state
    is (dice placed c < keep, their sum), one packed big integer per c whose slots count the ways to each sum
    (Kronecker substitution again: placing m dice on face v multiplies by C(n − c, m) and shifts by m·v slots).
    Once keep dice are placed the sum is final, and the other dice only need faces below v: (v − 1)^rest ways.
    """
    width = max(1, ((sides**n).bit_length() + 7) // 8)  # bytes per slot: no count exceeds every roll there is
    shift = 8 * width
    states: list[int] = [1] + [0] * (keep - 1)  # c → packed ways by sum
    final = 0
    for face in range(sides, 0, -1):
        moved: list[int] = [0] * keep
        for placed, ways in enumerate(states):
            if not ways:
                continue
            left = n - placed
            for count in range(left + 1):
                weight = ways * math.comb(left, count)
                if placed + count < keep:
                    moved[placed + count] += weight << (shift * count * face)
                else:
                    below = (face - 1) ** (left - count)
                    if below:
                        final += (weight * below) << (shift * (keep - placed) * face)
        states = moved
    size = keep * sides + 1
    data = final.to_bytes(width * size, "little")
    return [int.from_bytes(data[width * total : width * (total + 1)], "little") for total in range(keep, size)]


@overload
def sum_of_kept(n: int, sides: int, keep: int, *, lowest: bool = ..., exact: Literal[False] = ...) -> Dist[float]: ...
@overload
def sum_of_kept(n: int, sides: int, keep: int, *, lowest: bool = ..., exact: Literal[True]) -> Dist[Fraction]: ...
def sum_of_kept(
    n: int, sides: int, keep: int, *, lowest: bool = False, exact: bool = False
) -> Dist[float] | Dist[Fraction]:
    """Sum of the ``keep`` highest (or ``lowest``) of ``n`` dice with ``sides`` sides: the dice line's
    ``2d20kh1``, ``4d6kl3``. RulesError for a keep outside 1..n or a pool too large to count exactly."""
    _check_keep(keep)
    if keep > n:
        message = ngettext("{count}d{sides} cannot keep {keep} die.", "{count}d{sides} cannot keep {keep} dice.", keep)
        raise RulesError(message.format(count=n, sides=sides, keep=keep))
    if keep == n:
        return sum_of(n, die(sides, exact=True)) if exact else sum_of(n, die(sides))
    if keep == 1:
        if exact:
            return _extreme(n, die(sides, exact=True), highest=not lowest)
        return _extreme(n, die(sides), highest=not lowest)
    if sides * keep * n > MAX_KEPT_STEPS:
        raise RulesError(_("The odds of keeping {keep} of {count}d{sides} are too much work to count exactly.").format(
            keep=keep, count=n, sides=sides))
    ways = _kept_ways(n, sides, keep)
    if lowest:  # a face f of the lowest dice is the face sides + 1 − f of the highest: the sums mirror
        ways.reverse()
    rolls = sides**n
    if exact:
        return Dist(keep, _fractions(ways, rolls))
    return Dist(keep, tuple(count / rolls for count in ways))


def compare(a: Dist[P], b: Dist[P]) -> Comparison[P]:
    """P(a > b), P(a = b), P(a < b) for independent ``a`` and ``b`` (opposed tests, roll-offs)."""
    zero = _zero(a.probs[0])
    # below[i] = P(b < b.low + i) and above[i] = P(b > b.low + i - 1); both are flat outside b's range, so an
    # index is pinned to the ends (inline: this loop runs on every keystroke of an opposed-roll dialog).
    below: list[P] = list(chain([zero], b.cdf()))
    above: list[P] = list(chain([b.total()], b.survival()[1:], [zero]))
    shift, count = a.offset - b.offset, len(a.probs)
    greater = sum(map(mul, a.probs, _aligned(below, shift, count)), zero)
    less = sum(map(mul, a.probs, _aligned(above, shift + 1, count)), zero)
    first = max(0, -shift)  # a's outcomes that b can also show: equal only there
    equal = sum(map(mul, a.probs[first:], b.probs[shift + first :]), zero)
    return Comparison(greater, equal, less)


def _aligned(values: list[P], start: int, count: int) -> list[P]:
    """``values[start + i]`` for i < ``count``, indices outside pinned to the ends (slices, not a loop)."""
    left, right = max(0, -start), max(0, start + count - len(values))
    padded = [values[0]] * left + values + [values[-1]] * right
    return padded[start + left : start + left + count]


# --- exploding success counts (Člověk: d10 pools where a 10 succeeds and rolls again) -----------------------


def _negative_binomial(n: int, p_explode: P) -> Iterator[P]:
    """P(J = j), j = 0, 1, …: rerolls made before ``n`` rolls end their chain (each roll rerolls with p)."""
    term = (1 - p_explode) ** n
    j = 0
    while True:
        yield term
        term = term * p_explode * (n + j) / (j + 1)
        j += 1


def exploding_successes(n: int, p_success: P, p_explode: P, *, tail: float = DEFAULT_TAIL) -> Truncated[P]:
    """Total successes of ``n`` dice where a die succeeds with ``p_success`` and, with ``p_explode`` (a part
    of ``p_success``), also rolls again, repeatedly. Cut where the remaining tail is below ``tail``.

    Every die's chain ends with exactly one roll that does not explode, so the rerolls J before the n-th such
    roll are negative-binomial, and each final roll is a success with p = (p_success − p_explode) /
    (1 − p_explode), independently: the total is J + Binomial(n, p), computed in O(n·K).
    """
    _check_dice(n)
    _check_probability(p_success)
    _check_probability(p_explode)
    if p_explode > p_success or p_explode == 1:
        raise ValueError("an exploding face must be a success, and not every face may explode")
    finals = binomial(n, (p_success - p_explode) / (1 - p_explode)).probs
    return _truncate(finals, _negative_binomial(n, p_explode), tail)


def _truncate(finals: tuple[P, ...], rerolls: Iterator[P], tail: float) -> Truncated[P]:
    """Convolve the (finite) final-roll successes with the (infinite) rerolls until the tail is small."""
    zero = _zero(finals[0])
    # Reroll probabilities so far, newest first, so that they pair with finals[0], finals[1], …
    seen: deque[P] = deque()
    probs: list[P] = []
    covered = zero
    for term in rerolls:
        seen.appendleft(term)
        probs.append(dot(finals, seen, zero))
        covered += probs[-1]
        if 1 - covered < tail:
            break
        if len(probs) >= MAX_OUTCOMES:
            raise ValueError("exploding distribution does not converge")
    return Truncated(Dist(0, tuple(probs)), max(1 - covered, zero))


def _faces_at_least(sides: int, face: int) -> int:
    return min(max(sides - face + 1, 0), sides)


@overload
def exploding_pool(
    n: int, sides: int, success_at: int, explode_at: int, *, exact: Literal[False] = ..., tail: float = ...
) -> Truncated[float]: ...
@overload
def exploding_pool(
    n: int, sides: int, success_at: int, explode_at: int, *, exact: Literal[True], tail: float = ...
) -> Truncated[Fraction]: ...
def exploding_pool(
    n: int, sides: int, success_at: int, explode_at: int, *, exact: bool = False, tail: float = DEFAULT_TAIL
) -> Truncated[float] | Truncated[Fraction]:
    """Successes of ``n`` dice with ``sides`` sides: faces ≥ ``success_at`` succeed, faces ≥ ``explode_at``
    (at least ``success_at``) succeed and roll again. Člověk: ``exploding_pool(n, 10, max(10 - dots, 5), 10)``."""
    if explode_at < success_at:
        raise ValueError("faces that roll again must also be successes")
    successes, explodes = _faces_at_least(sides, success_at), _faces_at_least(sides, explode_at)
    if exact:
        return exploding_successes(n, Fraction(successes, sides), Fraction(explodes, sides), tail=tail)
    return exploding_successes(n, successes / sides, explodes / sides, tail=tail)


def extreme_tail(ordered: Sequence[P], index: int) -> P:
    """P(an outcome at least as extreme as ``ordered[index]``), counted from the end it lies on.

    ``ordered`` lists the probabilities of outcomes from one end of a scale to the other (miss … deadly hit);
    the result is min(P(X ≤ x), P(X ≥ x)), so a likely middle outcome scores high and a rare one at either end
    scores low. The printed summary uses it to pick a fight's notable moments.
    """
    if not 0 <= index < len(ordered):
        raise ValueError(f"outcome index {index} outside 0..{len(ordered) - 1}")
    zero = _zero(ordered[0])
    return min(sum(ordered[: index + 1], zero), sum(ordered[index:], zero))
