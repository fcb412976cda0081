"""Translation hooks for the rules layer.

The rules layer describes itself to the GM (log lines, outcome names, error messages) but must not
depend on Qt or on the app layer, so it uses stdlib gettext objects. The app layer installs the
catalog for the GM's language with :func:`install`; until then English source strings are returned.
Messages are translated when they are *rendered*, so switching the language re-renders old log lines.
"""

from __future__ import annotations

import gettext

_translations: gettext.NullTranslations = gettext.NullTranslations()


def install(translations: gettext.NullTranslations) -> None:
    """Make ``translations`` the catalog every rules-layer string is looked up in."""
    global _translations  # noqa: PLW0603  (one process-wide catalog, like gettext.install)
    _translations = translations


def _(message: str) -> str:
    """Translate ``message`` into the installed language."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate with the installed language's plural rules (Czech, Polish, Russian have three forms)."""
    return _translations.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` in ``context`` (e.g. a one-letter damage level that differs per game)."""
    return _translations.pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (it is translated when shown)."""
    return message


def NP_(context: str, message: str) -> str:
    """Mark ``message`` in ``context`` for extraction; translate it later with :func:`pgettext`."""
    del context
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair for extraction; translate it later with :func:`ngettext`."""
    return singular, plural
