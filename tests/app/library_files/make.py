"""Writes the databases of this folder with the library code of the releases before versioned seeding.

They were made ONCE, with ``app/library.py`` as it was at commit 63be423 (schema 1, no weapons) and at commit
b4d2dad (schema 2, weapons), each seeding the bundled ``sr3.json`` of that time and then used as a GM would: the
Troll bouncer edited, the Ganger deleted, a player character of their own added. Never regenerate them with a
later release (that would test a release against itself)::

    PYTHONPATH=. python tests/app/library_files/make.py

Each ``v<N>.sql`` is the database as SQL text (``sqlite3 .dump``), its schema version on the first line.
"""

from __future__ import annotations

import importlib.util
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
RELEASES = {1: "63be423", 2: "b4d2dad"}


def _old_library(commit: str, folder: Path) -> object:
    source = subprocess.run(["git", "show", f"{commit}:app/library.py"], check=True, capture_output=True,
                            text=True).stdout
    path = folder / f"library_{commit}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"library_{commit}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _used_by_a_gm(old: object, database: Path) -> None:
    with old.Library(database) as library:  # type: ignore[attr-defined]  # seeds the bundled sr3.json
        entries = {entry.name: entry for entry in library.search()}
        time.sleep(1.1)  # an edit a second later: "updated" differs from "created", as for any GM
        library.update(replace(entries["Troll bouncer"], notes="The GM's own troll: club only."))
        library.delete(entries["Ganger"].id)
        library.add(old.LibraryEntry(kind=old.EntryKind.PC, system_id="sr3", name="Dave",  # type: ignore[attr-defined]
                                     campaign="Seattle 2060", side="player", attributes={"body": 5}))


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        for version, commit in RELEASES.items():
            database = Path(scratch) / f"v{version}.sqlite3"
            _used_by_a_gm(_old_library(commit, Path(scratch)), database)
            with sqlite3.connect(database) as connection:
                assert connection.execute("PRAGMA user_version").fetchone()[0] == version
                dump = "\n".join(connection.iterdump())
            (HERE / f"v{version}.sql").write_text(f"PRAGMA user_version = {version};\n{dump}\n", encoding="utf-8")


if __name__ == "__main__":
    main()
