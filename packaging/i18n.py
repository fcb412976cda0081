"""Translation catalogs: extract the English source strings, merge them into each language, compile.

    python packaging/i18n.py extract   # rules/ app/ ui/ → resources/locale/bojovka.pot
    python packaging/i18n.py update    # the .pot → each resources/locale/<lang>/LC_MESSAGES/bojovka.po
    python packaging/i18n.py compile   # each .po → .mo next to it (run by `make`; .mo files are not committed)
    python packaging/i18n.py check     # every shipped catalog complete, no fuzzy entry, placeholders match
    python packaging/i18n.py check-file PATH LANG   # the same for a translator's working copy

The extractor reads the code with :mod:`ast` rather than a regex or a generic tool because our log lines carry
their plural in a keyword (``LogLine("{count} die", plural="{count} dice", count=n)``), which generic
extractors do not see. Babel writes and reads the gettext files and knows each language's plural rule.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "resources" / "locale"
TEMPLATE = LOCALE_DIR / "bojovka.pot"
DOMAIN = "bojovka"
SOURCE_DIRS = ("rules", "app", "ui")
#: The shipped translations (English is the source language and needs no catalog).
LANGUAGES = ("cs", "pl", "ru")
PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:![rsa])?(?::[^}]*)?\}(?!\})")


@dataclass(frozen=True)
class Message:
    """One extracted string: its context, singular, optional plural and where it was found."""

    text: str
    plural: str | None = None
    context: str | None = None
    location: tuple[str, int] = ("", 0)


def _literal(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return None  # an f-string cannot be a translation key
    return None


def _callee(node: ast.Call) -> str:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return ""


def _keyword(node: ast.Call, name: str) -> ast.expr | None:
    return next((keyword.value for keyword in node.keywords if keyword.arg == name), None)


def _positional(node: ast.Call, index: int) -> ast.expr | None:
    return node.args[index] if len(node.args) > index else None


def _messages_of_call(node: ast.Call) -> Iterator[tuple[str | None, str, str | None]]:
    """(context, singular, plural) for every translatable literal ``node`` passes."""
    name = _callee(node)
    first, second = _literal(_positional(node, 0)), _literal(_positional(node, 1))
    if name in {"_", "N_"} and first is not None:
        yield None, first, None
    elif name in {"ngettext", "NN_"} and first is not None and second is not None:
        yield None, first, second
    elif name in {"pgettext", "NP_"} and first is not None and second is not None:
        yield first, second, None
    elif name == "LogLine":
        yield from _log_line_messages(node, first)
    elif first is not None and second is not None and _is_plural_pair(node):
        # helpers such as _successes_line(text, plural, ...) that build a LogLine from a pair of templates
        yield None, first, second


def _log_line_messages(node: ast.Call, text: str | None) -> Iterator[tuple[str | None, str, str | None]]:
    plural = _literal(_keyword(node, "plural"))
    if text is not None:
        yield None, text, plural
    elif plural is not None:
        raise SystemExit(f"line {node.lineno}: a LogLine's plural is a literal but its text is not")


def _is_plural_pair(node: ast.Call) -> bool:
    """Two leading templates where the second is visibly the plural of the first (both name ``{count}``-like
    placeholders and the call also passes the count)."""
    first, second = _literal(node.args[0]), _literal(node.args[1])
    assert first is not None and second is not None
    same_placeholders = set(PLACEHOLDER.findall(first)) == set(PLACEHOLDER.findall(second))
    return same_placeholders and "{" in first and first != second and len(node.args) >= 3


def extract_file(path: Path) -> Iterator[Message]:
    """Every translatable string in one Python file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    relative = path.relative_to(ROOT).as_posix()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for context, text, plural in _messages_of_call(node):
                yield Message(text, plural, context, (relative, node.lineno))


def extract() -> Catalog:
    """The template catalog of every string in rules/, app/ and ui/."""
    catalog = Catalog(project="Bojovka", domain=DOMAIN, charset="utf-8", fuzzy=False)
    for directory in SOURCE_DIRS:
        for path in sorted((ROOT / directory).rglob("*.py")):
            for message in extract_file(path):
                key: str | tuple[str, str] = (message.text, message.plural) if message.plural else message.text
                existing = catalog.get(message.text, context=message.context)
                locations = [*existing.locations, message.location] if existing else [message.location]
                flags = ["python-brace-format"] if PLACEHOLDER.search(message.text) else []
                catalog.add(key, locations=locations, context=message.context, flags=flags)
    return catalog


def po_path(language: str) -> Path:
    """Where ``language``'s editable catalog lives."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def write_template() -> Catalog:
    """Extract and write the .pot; return it."""
    catalog = extract()
    with TEMPLATE.open("wb") as stream:
        write_po(stream, catalog, width=120, sort_output=True, omit_header=False)
    return catalog


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    """Read a .po or .pot file."""
    with path.open("rb") as stream:
        return read_po(stream, locale=locale, domain=DOMAIN)


def update() -> None:
    """Merge the template into each language (new strings empty, vanished strings dropped, no fuzzy guesses)."""
    template = write_template()
    for language in LANGUAGES:
        path = po_path(language)
        catalog = read_catalog(path, language) if path.exists() else Catalog(locale=language, domain=DOMAIN)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        _set_header(catalog, language)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as stream:
            write_po(stream, catalog, width=120, sort_output=True, include_previous=False)


def _set_header(catalog: Catalog, language: str) -> None:
    # A fuzzy header is left out of the compiled catalog, and with it the Plural-Forms line: gettext would
    # then fall back to English plural rules. The header is ours, so it is never fuzzy.
    catalog.fuzzy = False
    catalog.project = "Bojovka"
    catalog.version = ""
    catalog.msgid_bugs_address = ""
    catalog.copyright_holder = "the Bojovka authors"
    catalog.language_team = f"{language} <translators of Bojovka>"
    catalog.last_translator = "Bojovka translators"
    catalog.header_comment = (f"# {language} translation of Bojovka (resources/glossary/{language}.md lists the "
                              f"game terms).\n# This file is distributed under the same license as Bojovka.")


def compile_all() -> list[Path]:
    """Compile every .po into its .mo (translations only; fuzzy entries are left out)."""
    written = []
    for path in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        catalog = read_catalog(path, path.parent.parent.name)
        target = path.with_suffix(".mo")
        with target.open("wb") as stream:
            write_mo(stream, catalog, use_fuzzy=False)
        written.append(target)
    return written


def problems(language: str, path: Path | None = None) -> list[str]:
    """Everything wrong with one shipped catalog (or the .po at ``path``), as sentences for the translator."""
    path = path or po_path(language)
    if not path.exists():
        return [f"{language}: {path} is missing"]
    catalog = read_catalog(path, language)
    found = [f"{language}: {where(message)} {text}" for message in catalog if message.id
             for text in _message_problems(message, catalog.num_plurals)]
    template = read_catalog(TEMPLATE)
    missing = [message.id for message in template if message.id and catalog.get(message.id, message.context) is None]
    found += [f"{language}: not in the catalog (run `update`): {ident!r}" for ident in missing]
    return found


def where(message: object) -> str:
    """A message's first source location, for error lines."""
    locations = getattr(message, "locations", [])
    return f"{locations[0][0]}:{locations[0][1]}" if locations else "?"


def _message_problems(message: object, num_plurals: int) -> Iterator[str]:
    ident = message.id  # type: ignore[attr-defined]
    strings = message.string  # type: ignore[attr-defined]
    if message.fuzzy:  # type: ignore[attr-defined]
        yield f"fuzzy: {ident!r}"
    sources = list(ident) if isinstance(ident, tuple) else [ident]
    translations = list(strings) if isinstance(strings, tuple) else [strings]
    if isinstance(ident, tuple) and len(translations) != num_plurals:
        yield f"has {len(translations)} plural forms, the language has {num_plurals}: {ident!r}"
    if not all(translations):
        yield f"untranslated: {ident!r}"
        return
    expected = set().union(*(PLACEHOLDER.findall(source) for source in sources))
    for translation in translations:
        if set(PLACEHOLDER.findall(translation)) - expected:
            yield f"placeholder not in the source: {translation!r} for {ident!r}"
        if not isinstance(ident, tuple) and set(PLACEHOLDER.findall(translation)) != expected:
            yield f"placeholders differ: {translation!r} for {ident!r}"


def main(argv: list[str]) -> int:
    """Run one command; exit 1 if ``check`` finds problems."""
    command = argv[1] if len(argv) > 1 else "compile"
    if command == "extract":
        print(f"{len(write_template())} messages → {TEMPLATE.relative_to(ROOT)}")
    elif command == "update":
        update()
    elif command == "compile":
        print(f"compiled {len(compile_all())} catalogs")
    elif command == "check":
        found = [line for language in LANGUAGES for line in problems(language)]
        print("\n".join(found) or "all catalogs complete")
        return 1 if found else 0
    elif command == "check-file" and len(argv) == 4:  # check-file PATH LANGUAGE: a translator's working copy
        found = problems(argv[3], Path(argv[2]))
        print("\n".join(found) or "complete")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
