"""Effects with a game meaning: stored (and absent from old files), checked against the game, found by name."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest

from rules import text
from rules.effects import AddEffect, effects_meaning, meaning_label, meaning_named
from rules.encounter import Effect
from rules.errors import OperationError
from rules.serialize import history_from_document, history_to_document, to_data
from rules.systems import get_system
from rules.systems.sr3 import SYSTEM as SR3
from rules.systems.sr3.effect_meanings import MEANINGS, worst_visibility
from rules.systems.sr3.system import tables
from rules.systems.sr3.tables import Vision
from tests.rules.sr3_scenes import eight_characters, roll_ones


def test_a_meaning_survives_save_and_load() -> None:
    history, ids = eight_characters()
    history.do(AddEffect(Effect("e1", "Smoke", meaning="light_smoke")))
    history.do(AddEffect(Effect("e2", "Dazed", target=ids["Dave"])))
    loaded = history_from_document(history_to_document(history))
    assert loaded.state.effects["e1"].meaning == "light_smoke"
    assert loaded.state.effects == history.state.effects


def test_an_effect_without_a_meaning_is_saved_as_before() -> None:
    """Old files have no "meaning": an effect without one writes none, so they load and save byte-identical."""
    assert "meaning" not in to_data(Effect("e1", "Dazed"))
    assert to_data(Effect("e1", "Smoke", meaning="heavy_smoke"))["meaning"] == "heavy_smoke"


def test_an_unknown_meaning_is_refused() -> None:
    history, _ids = eight_characters()
    with pytest.raises(OperationError, match="Unknown game meaning 'smog' for an effect; known: light_smoke"):
        history.do(AddEffect(Effect("e1", "Smog", meaning="smog")))
    assert not history.state.effects


def test_a_game_without_meanings_refuses_any() -> None:
    souboj = get_system("souboj")
    assert souboj.effect_meanings() == ()
    history, _ids = eight_characters()  # an SR3 fight, checked against Souboj's (empty) meanings
    with pytest.raises(OperationError, match="known: none"):
        AddEffect(Effect("e1", "Smoke", meaning="light_smoke")).apply(history.state, souboj)


@pytest.mark.parametrize(("name", "key"), [
    ("Smoke", "light_smoke"), ("  smoke ", "light_smoke"), ("FOG", "light_smoke"), ("Heavy smoke", "heavy_smoke"),
    ("Thermal smoke", "thermal_smoke"), ("Darkness", "full_darkness"), ("Glare", "glare"), ("Mist", "mist"),
    ("Bleeding", ""), ("", ""), ("Smoke grenade cloud", ""),
])
def test_a_typed_name_finds_its_meaning(name: str, key: str) -> None:
    assert meaning_named(MEANINGS, name) == key


def test_a_name_in_the_gms_language_finds_its_meaning(monkeypatch: pytest.MonkeyPatch) -> None:
    czech = gettext.translation("bojovka", localedir=Path(text.__file__).parents[1] / "resources/locale",
                                languages=["cs"])
    monkeypatch.setattr(text, "_translations", czech)
    assert meaning_named(MEANINGS, "Kouř") == "light_smoke"
    assert meaning_named(MEANINGS, "hustý kouř") == "heavy_smoke"
    assert meaning_named(MEANINGS, "Smoke") == "light_smoke"  # English still works
    assert meaning_label(SR3, "light_smoke") == "Slabý kouř/mlha/déšť"


def test_the_worst_visibility_wins() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(AddEffect(Effect("e1", "Smoke", meaning="light_smoke")))
    history.do(AddEffect(Effect("e2", "Darkness", target=ids["Dave"], meaning="full_darkness")))
    history.do(AddEffect(Effect("e3", "Dazed", target=ids["Mike"])))
    sr3 = tables(history.state)
    mike = effects_meaning(history.state, [ids["Mike"]])
    assert [effect.id for effect in mike] == ["e1"]  # Dave's darkness is not Mike's; no meaning: left out
    found = worst_visibility(effects_meaning(history.state, [ids["Mike"], ids["Dave"]]), sr3, Vision.NORMAL)
    assert found is not None and (found[0].id, found[1]) == ("e2", "full_darkness")  # +8 beats +4
    smoke_only = worst_visibility(mike, sr3, Vision.THERMO_NATURAL)
    assert smoke_only is not None and smoke_only[1] == "light_smoke"
