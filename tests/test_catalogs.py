"""The translation catalogs: complete, placeholders intact, plural rules right, and the template up to date."""

from __future__ import annotations

import gettext
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from app.samples import _builders
from rules import text
from rules.systems import all_systems
from ui.actions import ACTIONS, Menu

ROOT = Path(__file__).resolve().parent.parent


def _load_tool() -> ModuleType:
    # packaging/ is not a Python package (that name belongs to the PyPI library), so load the script by path.
    spec = importlib.util.spec_from_file_location("bojovka_i18n", ROOT / "packaging" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


i18n = _load_tool()

#: n → the plural form each language must pick (gettext index), from each language's grammar.
PLURAL_EXPECTATIONS = {
    "cs": {1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 21: 2, 22: 2, 0: 2},
    "pl": {1: 0, 2: 1, 4: 1, 5: 2, 12: 2, 14: 2, 21: 2, 22: 1, 25: 2, 0: 2},
    "ru": {1: 0, 21: 0, 2: 1, 24: 1, 5: 2, 11: 2, 12: 2, 14: 2, 111: 2, 0: 2},
}


def _keys(catalog: object) -> set[tuple[str, str, str]]:
    found = set()
    for message in catalog:  # type: ignore[attr-defined]
        if not message.id:
            continue
        ident = message.id if isinstance(message.id, tuple) else (message.id, "")
        found.add((message.context or "", ident[0], ident[1]))
    return found


def test_template_is_up_to_date_with_the_code() -> None:
    committed = _keys(i18n.read_catalog(i18n.TEMPLATE))
    extracted = _keys(i18n.extract())
    assert extracted - committed == set(), "run `python packaging/i18n.py update` and translate the new strings"
    assert committed - extracted == set(), "strings no longer in the code: run `python packaging/i18n.py update`"


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_catalog_is_complete_with_matching_placeholders(language: str) -> None:
    assert i18n.problems(language) == []


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_plural_forms_follow_the_language(language: str) -> None:
    catalog = i18n.read_catalog(i18n.po_path(language), language)
    assert catalog.num_plurals == 3
    rule = gettext.c2py(catalog.plural_expr)
    assert {n: rule(n) for n in PLURAL_EXPECTATIONS[language]} == PLURAL_EXPECTATIONS[language]


class _Recording(gettext.NullTranslations):
    """Remembers every message looked up."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[tuple[str, str, str]] = set()

    def gettext(self, message: str) -> str:
        self.seen.add(("", message, ""))
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        self.seen.add(("", singular, plural))
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        self.seen.add((context, message, ""))
        return message


@pytest.fixture
def recording() -> Iterator[_Recording]:
    recorder = _Recording()
    text.install(recorder)
    yield recorder
    text.install(gettext.NullTranslations())


def test_every_log_line_of_the_sample_fights_is_in_the_catalog(recording: _Recording) -> None:
    # Log lines are stored as English templates and translated when shown, so a template that was never marked
    # for extraction would stay English in every language: render every line of every sample fight to find one.
    for build in _builders().values():
        for entry in build().entries:
            entry.text()
    for system in all_systems().values():
        for spec in system.option_specs():
            text._(spec.label)
    assert recording.seen - _keys(i18n.read_catalog(i18n.TEMPLATE)) == set()


def test_every_menu_and_action_text_is_in_the_catalog() -> None:
    ids = {ident for _context, ident, _plural in _keys(i18n.read_catalog(i18n.TEMPLATE))}
    texts = {menu.value for menu in Menu} | {spec.text for spec in ACTIONS} | {spec.tip for spec in ACTIONS if spec.tip}
    assert texts - ids == set()


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_sample_fight_opens_in_every_language(language: str) -> None:
    # A saved fight is replayed on load and must reach the state it saved: an operation that stored a translated
    # text in the state (once an Institute grenade's note) made every sample fail to open outside English.
    from app.i18n import install_language
    from app.storage import load_encounter

    try:
        install_language(language)
        for path in sorted((ROOT / "resources" / "samples").glob("*.bojovka")):
            assert load_encounter(path).entries, path.name
    finally:
        install_language("en")
