"""rules.recent: results found again by their inputs' identity (plain values by equality), the last few kept."""

from __future__ import annotations

from rules.recent import Recent


def test_results_are_found_by_identity_or_plain_value_and_only_the_last_few_are_kept() -> None:
    recent: Recent[int] = Recent(kept=2)
    computed: list[str] = []

    def compute(name: str, value: int) -> int:
        computed.append(name)
        return value

    state, equal_copy = {"a": 1}, {"a": 1}
    assert recent.get((state, 1, frozenset({"x"})), lambda: compute("first", 10)) == 10
    assert recent.get((state, 1, frozenset({"x"})), lambda: compute("again", 0)) == 10  # same object, equal values
    assert recent.get((equal_copy, 1, frozenset({"x"})), lambda: compute("copy", 20)) == 20  # not the same object
    assert recent.get((state, True, frozenset({"x"})), lambda: compute("true", 30)) == 30  # True is not the pass 1
    assert recent.get((state, 1, frozenset({"x"})), lambda: compute("forgotten", 40)) == 40  # two newer pushed it out
    assert computed == ["first", "copy", "true", "forgotten"]
