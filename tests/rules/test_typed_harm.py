"""The Damage dialog's amount, read as each game's digest writes it (RuleSystem.parse_harm), refusals included.

sr3.md: levels L/M/S/D fill 1/3/6/10 boxes; the Czech book writes L/M/V/S, its S being Deadly. institut.md: a damage
total is read off the target's life pyramid into a wound class; classes Light … Mortal. walka.md: Hit Points.
souboj.md: hit points, shadow damage on its own track. clovek.md: the power often equals the number of wounds; a
power of 0 or less succeeds without lasting effect.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules import text
from rules.encounter import Encounter
from rules.errors import RulesError
from rules.harm import Harm, pick_track, read_plain_harm
from rules.systems import get_system
from rules.systems.base import TrackSpec

LOCALE = Path(__file__).resolve().parents[2] / "resources" / "locale"


def _sample(system_id: str) -> Encounter:
    return get_system(system_id).sample().state


def _read(system_id: str, typed: str, name: str, track: str, heal: bool = False) -> Harm:
    state = _sample(system_id)
    combatant = next(c for c in state.combatants.values() if c.name == name)
    return get_system(system_id).parse_harm(typed, combatant, track, state, heal)


@pytest.fixture
def czech() -> Iterator[None]:
    text.install(gettext.translation("bojovka", localedir=str(LOCALE), languages=["cs"]))
    yield
    text.install(gettext.NullTranslations())


@pytest.fixture
def marked() -> Iterator[None]:
    class Marked(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return "»" + message

        def ngettext(self, singular: str, plural: str, n: int) -> str:
            return "»" + (singular if n == 1 else plural)

    text.install(Marked())
    yield
    text.install(gettext.NullTranslations())


# --- the default reading, shared by every game ---

TRACKS = (TrackSpec("physical", "Physical", 10), TrackSpec("stun", "Stun", 10))


def test_a_whole_number_is_marked_on_the_chosen_track() -> None:
    assert read_plain_harm("3", TRACKS, "physical") == Harm("physical", 3, "3 boxes on Physical")
    assert read_plain_harm(" 1 ", TRACKS, "stun") == Harm("stun", 1, "1 box on Stun")
    assert read_plain_harm("3", TRACKS, "stun", heal=True).meaning == "3 boxes off Stun"


def test_words_after_the_number_name_the_track() -> None:
    assert read_plain_harm("3 stun", TRACKS, "physical").track == "stun"
    assert read_plain_harm("3 St", TRACKS, "physical").track == "stun"  # the start of the name is enough


@pytest.mark.parametrize(("typed", "refusal"), [
    ("", "Type how much."),
    ("   ", "Type how much."),
    ("0", "“0” is not an amount: type a whole number from 1 to 999."),
    ("-3", "“-3” is not an amount"),
    ("2.5", "“2.5” is not an amount"),
    ("1000", "“1000” is not an amount"),
    ("three", "“three” is not an amount"),
    ("3 mental", "“mental” names no track here: Physical, Stun."),
    ("3" * 101, "at most 100 characters"),
])
def test_what_is_not_an_amount_is_refused_saying_what_is(typed: str, refusal: str) -> None:
    with pytest.raises(RulesError, match=re.escape(refusal)):
        read_plain_harm(typed, TRACKS, "physical")


def test_words_fitting_several_tracks_take_the_closest_to_the_chosen_one() -> None:
    tracks = tuple(TrackSpec(f"{bank}_{kind}", f"{bank.title()} {kind}", 10)
                   for bank in ("physical", "social") for kind in ("stun", "wounds"))
    assert pick_track(["social"], tracks, "physical_wounds").key == "social_wounds"
    assert pick_track(["social"], tracks, "social_stun").key == "social_stun"  # the chosen one fits: kept
    refusal = "“s” could be Physical stun, Social wounds: type more of the name."
    with pytest.raises(RulesError, match=re.escape(refusal)):
        pick_track(["s"], tracks, "physical_wounds")


def test_the_refusals_are_translated(marked: None) -> None:
    with pytest.raises(RulesError, match="^" + re.escape("»Type how much.") + "$"):
        read_plain_harm("", TRACKS, "physical")
    with pytest.raises(RulesError, match="^" + re.escape("»“x” is not an amount")):
        read_plain_harm("x", TRACKS, "physical")
    assert read_plain_harm("3", TRACKS, "physical").meaning.startswith("»")


# --- SR3 ---

RESISTED = "resisted with Body and combat pool against Power − impact armor"

@pytest.mark.parametrize(("typed", "track", "boxes", "meaning"), [
    ("L", "physical", 1, "Light wound: 1 box on Physical"),
    ("M", "physical", 3, "Moderate wound: 3 boxes on Physical"),
    ("S", "physical", 6, "Serious wound: 6 boxes on Physical"),
    ("d", "physical", 10, "Deadly wound: 10 boxes on Physical"),
    ("6S", "physical", 6, f"6S, {RESISTED} (unresisted: 6 boxes on Physical)"),
    ("9M", "physical", 3, f"9M, {RESISTED} (unresisted: 3 boxes on Physical)"),
    ("6 S", "physical", 6, f"6S, {RESISTED} (unresisted: 6 boxes on Physical)"),
    ("6M Stun", "stun", 3, f"6M Stun, {RESISTED} (unresisted: 3 boxes on Stun)"),
    ("3", "physical", 3, "3 boxes on Physical"),
    ("3 stun", "stun", 3, "3 boxes on Stun"),
])
def test_sr3_levels_codes_and_boxes(typed: str, track: str, boxes: int, meaning: str) -> None:
    assert _read("sr3", typed, "Ganger 2", "physical") == Harm(track, boxes, meaning)


def test_sr3_healing_a_level_takes_its_boxes_off() -> None:
    assert _read("sr3", "6S", "Ganger 1", "physical", heal=True) == Harm(
        "physical", 6, "Serious wound: 6 boxes off Physical")


@pytest.mark.parametrize(("typed", "refusal"), [
    ("V", "“V” is not a damage level: use L, M, S, D."),  # the Czech Serious means nothing in English
    ("6X", "“X” is not a damage level"),
    ("6SS", "“6SS” is neither a damage level nor a number of boxes: type e.g. 6S, S or 3."),
    ("S mental", "“mental” names no track here: Physical, Stun."),
])
def test_sr3_refusals(typed: str, refusal: str) -> None:
    with pytest.raises(RulesError, match=re.escape(refusal)):
        _read("sr3", typed, "Ganger 2", "physical")


def test_sr3_in_czech_reads_the_czech_letters_s_being_deadly(czech: None) -> None:
    boxes = {typed: _read("sr3", typed, "Ganger 2", "physical").amount for typed in ("L", "M", "V", "S", "D", "11V")}
    assert boxes == {"L": 1, "M": 3, "V": 6, "S": 10, "D": 10, "11V": 6}  # Czech 11V = 11S; D, unclaimed, still D
    assert _read("sr3", "S", "Ganger 2", "physical").meaning.startswith("Smrtelné")  # Czech S = Deadly
    assert "10 políček" in _read("sr3", "9S", "Ganger 2", "physical").meaning  # Czech 9S = 9D: 10 boxes unresisted
    assert _read("sr3", "6 omr", "Ganger 2", "physical").track == "stun"  # Omráčení, the Czech Stun


def test_sr3_in_polish_and_russian_reads_their_levels_of_several_letters() -> None:
    for code, typed, boxes in (("pl", "6Śm", 10), ("pl", "Śr", 3), ("ru", "6Сер", 6), ("ru", "6 См", 10)):
        text.install(gettext.translation("bojovka", localedir=str(LOCALE), languages=[code]))
        try:
            assert _read("sr3", typed, "Ganger 2", "physical").amount == boxes, (code, typed)
        finally:
            text.install(gettext.NullTranslations())


# --- Institute ---

@pytest.mark.parametrize(("typed", "track", "count"), [
    ("Heavy", "heavy", 1),
    ("2 Heavy", "heavy", 2),
    ("2 hea", "heavy", 2),
    ("mor", "mortal", 1),
    ("2", "light", 2),  # on the class chosen in the dialog
    ("=17", "heavy", 1),  # 15–19 enters Heavy on the default pyramid
    ("=5", "light", 1),
    ("=25", "mortal", 1),
    ("2 =22", "critical", 2),  # a burst: two wounds of the class the total makes
])
def test_institut_classes_counts_and_totals(typed: str, track: str, count: int) -> None:
    harm = _read("institut", typed, "Bandit 2", "light")
    assert (harm.track, harm.amount) == (track, count)


def test_institut_says_how_many_of_which_class_and_where_a_full_row_sends_them() -> None:
    assert _read("institut", "=17", "Bandit 2", "light").meaning == "17 points: 1 Heavy wound"
    assert _read("institut", "2 Heavy", "Bandit 2", "light").meaning == "2 Heavy wounds"
    # Bandit 1's Heavy row (2 boxes) is full: the wound goes on to the next free heavier row.
    assert _read("institut", "Heavy", "Bandit 1", "light").meaning == (
        "1 Heavy wound. The Heavy row is full: the wound goes to Mortal.")
    assert _read("institut", "Heavy", "Bandit 1", "light", heal=True).meaning == "1 Heavy wound healed"


@pytest.mark.parametrize(("typed", "refusal"), [
    ("m", "“m” could be Medium, Mortal: type more of the name."),
    ("=4", "4 points: below the pyramid, no wound."),
    ("=x", "After “=” type the damage roll's total, e.g. =17."),
    ("=17 heavy", "Type a wound class or a damage total, not both."),
    ("0 heavy", "“0” is not an amount"),
    ("severe", "“severe” names no track here: Light, Medium, Heavy, Critical, Mortal."),
])
def test_institut_refusals(typed: str, refusal: str) -> None:
    with pytest.raises(RulesError, match=re.escape(refusal)):
        _read("institut", typed, "Bandit 2", "light")


def test_institut_in_czech_names_the_classes_in_czech(czech: None) -> None:
    assert _read("institut", "2 těž", "Bandit 2", "light").track == "heavy"
    assert _read("institut", "2 heavy", "Bandit 2", "light").track == "heavy"  # English still works


# --- Walka, Souboj, Člověk ---

def test_walka_hit_points_say_what_is_left() -> None:
    assert _read("walka", "3", "Kira", "hp") == Harm("hp", 3, "3 Hit Points lost: 5 of 8 left")
    assert _read("walka", "9", "Kira", "hp").meaning == "9 Hit Points lost: 0 of 8 left"
    assert _read("walka", "1", "Wedge", "hp", heal=True).meaning == "1 Hit Point back: 10 of 10 left"
    with pytest.raises(RulesError, match=re.escape("not an amount")):
        _read("walka", "3S", "Kira", "hp")


def test_souboj_hit_points_on_the_wounds_or_the_shadow_track() -> None:
    assert _read("souboj", "3", "Aleš", "wounds") == Harm("wounds", 3, "3 points on Wounds")
    assert _read("souboj", "3 shadow", "Aleš", "wounds") == Harm("shadow", 3, "3 points on Shadow damage")


def test_clovek_power_marks_as_many_on_the_chosen_or_named_track() -> None:
    assert _read("clovek", "3", "Beatrice", "physical_wounds") == Harm(
        "physical_wounds", 3, "Power 3: 3 boxes on Physical wounds")
    assert _read("clovek", "3 social", "Beatrice", "physical_wounds").track == "social_wounds"
    assert _read("clovek", "2 mental stun", "Beatrice", "physical_wounds").track == "mental_stun"
    assert _read("clovek", "2", "Beatrice", "physical_stun", heal=True).meaning == "2 boxes off Physical stun"


@pytest.mark.parametrize("typed", ["0", "-1", "−2"])
def test_clovek_power_of_zero_or_less_has_no_lasting_effect(typed: str) -> None:
    with pytest.raises(RulesError, match=re.escape("the action succeeds without lasting effect, nothing to mark")):
        _read("clovek", typed, "Beatrice", "physical_wounds")


@pytest.mark.parametrize("system_id", ["sr3", "walka", "souboj", "institut", "clovek"])
def test_every_game_reads_a_bare_number_as_that_many_on_the_chosen_track(system_id: str) -> None:
    state = _sample(system_id)
    system = get_system(system_id)
    combatant = next(iter(state.combatants.values()))
    track = system.tracks(combatant, state)[0].key
    harm = system.parse_harm("1", combatant, track, state)
    assert (harm.track, harm.amount) == (track, 1) and harm.meaning
    assert system.harm_notation()
