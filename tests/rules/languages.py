"""The rules layer's texts in one of the shipped languages, for tests that read what a GM would read."""

from __future__ import annotations

import gettext
from pathlib import Path

from rules import text

LOCALE = Path(__file__).resolve().parents[2] / "resources" / "locale"


def install_rules_language(code: str) -> None:
    """Translate the rules' texts into ``code`` ("en": the English source, no catalog)."""
    if code == "en":
        text.install(gettext.NullTranslations())
    else:
        text.install(gettext.translation("bojovka", localedir=str(LOCALE), languages=[code]))
