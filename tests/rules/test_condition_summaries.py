"""Each game's short condition text (RuleSystem.condition_summary), in the words of its digest:
SR3's Physical and Stun monitors, Walka's and Souboj's hit points left, Institute's wound classes, Člověk's
stun and wounds bank by bank. (tests/ui/test_condition_column.py checks every registered game generically.)"""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Mapping

import pytest

from rules import text
from rules.combatants import AddCombatant, SetDamage, SetOption
from rules.encounter import Side, frozen_map
from rules.history import History, new_history
from rules.systems import get_system


def _one(game: str, attributes: Mapping[str, int], damage: Mapping[str, int]) -> str:
    history = new_history(game)
    history.do(AddCombatant("c1", "Ada", Side.PLAYER, frozen_map(attributes)))
    for track, value in damage.items():
        history.do(SetDamage("c1", track, value))
    return _summary(history)


def _summary(history: History) -> str:
    system = get_system(history.state.system_id)
    return system.condition_summary(history.state.combatant("c1"), history.state)


def test_sr3_reads_its_two_monitors_by_their_letters() -> None:
    assert _one("sr3", {"body": 4}, {"physical": 6, "stun": 2}) == "P 6/10 · S 2/10"
    assert _one("sr3", {"body": 4}, {"stun": 3}) == "S 3/10"  # an empty monitor says nothing
    assert _one("sr3", {"body": 4}, {}) == "Unhurt"


def test_sr3_shows_physical_overflow_past_the_monitor() -> None:
    assert _one("sr3", {"body": 4}, {"physical": 12}) == "P 10/10 +2"


def test_walka_counts_hit_points_left() -> None:
    assert _one("walka", {"hit_points": 30}, {"hp": 18}) == "HP 12/30"
    assert _one("walka", {"hit_points": 30}, {}) == "HP 30/30"


def test_souboj_counts_hit_points_left_below_zero_and_names_shadow_damage() -> None:
    assert _one("souboj", {"hit_points": 22}, {"wounds": 10}) == "HP 12/22"
    assert _one("souboj", {"hit_points": 22}, {"wounds": 5, "shadow": 5}) == "HP 12/22 · shadow 5"
    assert _one("souboj", {"hit_points": 22}, {"wounds": 25}) == "HP −3/22"


def test_institut_lists_the_marked_wound_classes_heaviest_first() -> None:
    damage = {"light": 2, "heavy": 2, "critical": 1}
    assert _one("institut", {}, damage) == "Crit 1/1 · Hvy 2/2 · Lgt 2/4"
    assert _one("institut", {}, {}) == "Unhurt"


def test_clovek_groups_stun_and_wounds_by_bank() -> None:
    damage = {"physical_stun": 2, "physical_wounds": 7, "mental_stun": 1}
    assert _one("clovek", {}, damage) == "Phys: stun 2/10, wounds 7/10 · Ment: stun 1/10"
    assert _one("clovek", {}, {}) == "Unhurt"


def test_clovek_uses_the_track_sizes_the_gm_set() -> None:
    history = new_history("clovek")
    history.do(SetOption("track_sizes", {"social": {"stun": 6}}))
    history.do(AddCombatant("c1", "Ada", Side.PLAYER, frozen_map()))
    history.do(SetDamage("c1", "social_stun", 4))
    assert _summary(history) == "Soc: stun 4/6"


class _Letters(gettext.NullTranslations):
    """A catalog that knows only the two words whose English letter is the same: S(trength) and S(tun)."""

    def pgettext(self, context: str, message: str) -> str:
        return {("sr3 monitor", "P"): "F", ("sr3 monitor", "S"): "O"}.get((context, message), message)


@pytest.fixture
def letters() -> Iterator[None]:
    text.install(_Letters())
    yield
    text.install(gettext.NullTranslations())


@pytest.mark.usefixtures("letters")
def test_the_monitor_letters_are_translated_in_their_own_context() -> None:
    """Czech SR3: Fyzické / Omráčení; the S of Stun is not the S of Strength."""
    assert _one("sr3", {"body": 4}, {"physical": 6, "stun": 2}) == "F 6/10 · O 2/10"
