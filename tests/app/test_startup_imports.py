"""Start-up imports only the open fight's game before the first paint (issue 14, P1).

A subprocess starts the application as the GM does (``--startup-probe``, offscreen Qt, a temporary user
directory whose last encounter is one game's sample) and lists the games' modules loaded at the first paint.
No wall-clock assertion: what is imported is what is checked.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.main import PROBE_MODULES_VARIABLE
from app.paths import HOME_VARIABLE
from rules.systems import get_system, system_ids, system_title
from tests.bench.bench_startup import ROOT, prepare_home


def _probe(home: Path) -> dict[str, set[str]]:
    """The ``startup-…`` lines of a start-up in ``home``: the games' modules and every module imported."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env.update({HOME_VARIABLE: str(home), "QT_QPA_PLATFORM": "offscreen", PROBE_MODULES_VARIABLE: "1",
                "PYTHONPATH": str(ROOT)})
    result = subprocess.run([sys.executable, "-m", "app.main", "--startup-probe"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120, check=True)
    lines = {words[0]: set(words[1:]) for line in result.stdout.splitlines()
             if (words := line.split()) and words[0] in ("startup-modules", "startup-imported")}
    assert len(lines) == 2, (result.stdout, result.stderr)
    return lines


def _modules_at_first_paint(home: Path) -> set[str]:
    return _probe(home)["startup-modules"]


def _game_of(module: str) -> str:
    return module.split(".")[2]


@pytest.mark.parametrize("system_id", ["sr3", "walka"])
def test_only_the_open_fights_game_is_imported_before_the_first_paint(tmp_path: Path, system_id: str) -> None:
    prepare_home(tmp_path, system_id)
    loaded = _modules_at_first_paint(tmp_path)
    assert f"rules.systems.{system_id}" in loaded  # the fight was opened, not the welcome page
    others = sorted(module for module in loaded if _game_of(module) != system_id)
    assert others == [], f"other games imported at start-up: {others}"
    assert set(system_ids()) - {system_id}  # there are other games to keep out


def test_the_first_run_welcome_page_lists_the_games_without_importing_them(tmp_path: Path) -> None:
    """No settings yet: the welcome page (every game's button, every sample) over the default game's sample."""
    from app.settings import load_settings

    default = load_settings().default_system
    loaded = _modules_at_first_paint(tmp_path)
    assert sorted({_game_of(module) for module in loaded} - {default}) == []


def test_recent_files_and_titles_are_named_without_importing_any_game() -> None:
    script = ("import sys\n"
              "from app.samples import sample_path\n"
              "from app.storage import game_of_file\n"
              "from rules.systems import system_ids, system_title\n"
              "print([(game_of_file(sample_path(g)), system_title(g)) for g in system_ids()])\n"
              "print(sorted(m for m in sys.modules if m.startswith('rules.systems.') and m != 'rules.systems.base'))\n")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            capture_output=True, text=True, timeout=60, check=True)
    names, modules = result.stdout.splitlines()
    assert modules == "[]", modules
    for system_id in system_ids():
        assert repr((system_title(system_id), system_title(system_id))) in names


def test_every_games_meta_title_is_the_title_of_its_rules() -> None:
    """meta.json repeats the N_-marked title of the game's rules (the catalogs translate that msgid)."""

    for system_id in system_ids():
        assert system_title(system_id) == get_system(system_id).title, system_id


@pytest.fixture(scope="module")
def sr3_start(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """Every module imported at the first paint of a start-up on the SR3 sample (one subprocess for the tests)."""
    home = tmp_path_factory.mktemp("sr3-start")
    prepare_home(home)
    return _probe(home)["startup-imported"]


def _loaded(imported: set[str], packages: tuple[str, ...]) -> list[str]:
    """The modules of ``imported`` that are one of ``packages`` or inside one."""
    return sorted(name for name in imported if name in packages or name.startswith(tuple(f"{p}." for p in packages)))


def test_printing_chart_export_and_the_odds_dock_wait_for_first_use(sr3_start: set[str]) -> None:
    imported = sr3_start
    assert "ui.main_window" in imported
    deferred = ("ui.printing", "app.print_jobs", "ui.charts.export", "pyqtgraph.exporters", "ui.charts.odds_dock")
    assert sorted(name for name in imported if name.startswith(deferred)) == []


def test_the_initiative_chart_waits_for_its_tab(sr3_start: set[str]) -> None:
    """The chart is a tab behind the log: neither it nor pyqtgraph and numpy are loaded for the first paint."""
    assert "ui.main_window" in sr3_start
    assert _loaded(sr3_start, ("ui.charts", "pyqtgraph", "numpy")) == []


def test_the_library_and_the_undo_history_wait_for_first_use(sr3_start: set[str]) -> None:
    """The roster/bestiary (SQLite, the merge rules) and the undo history dock are not needed to paint."""
    assert "app.workspace" in sr3_start
    assert _loaded(sr3_start, ("app.library", "app.library_merge", "sqlite3", "ui.widgets.undo_history")) == []
