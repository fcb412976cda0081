"""``--screenshot --screenshot-what attack --game ID`` shows the whole attack dialog of every game.

The dialog sizes itself for its screen, and Qt's offscreen platform has an 800×800 one: the screenshot showed
a scrolling dialog with its odds column cut off. It is now sized as it opens on a 1366×768 laptop.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget

from rules.systems import system_ids
from ui.dialogs.attack_dialog import AttackDialog
from ui.selftest import LAPTOP, put_away, screenshot, staged

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support (propagateSizeHints|raise)\(\)")


def content_of(dialog: QWidget) -> QWidget:
    """What the dialog scrolls on a small screen (Souboj's dialog never scrolls: all of it)."""
    area = dialog.findChild(QScrollArea)
    content = area.widget() if area is not None else None
    return content if content is not None else dialog


@pytest.mark.parametrize("game", system_ids())
def test_the_attack_screenshot_shows_the_whole_dialog(qapp: QApplication, game: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"attack-{game}.png"
    assert screenshot(path, "attack", game=game) == 0
    assert capsys.readouterr().out.strip() == str(path)
    image = QImage(str(path))
    window, dialog = staged("attack", game=game)
    try:
        assert isinstance(dialog, AttackDialog)
        content = content_of(dialog)
        wanted = content.sizeHint()
        assert image.width() >= wanted.width(), f"{game}: {image.width()} px shown of {wanted.width()}"
        assert image.size() == dialog.size()
        assert image.width() <= LAPTOP.width() and image.height() <= LAPTOP.height()
        area = dialog.findChild(QScrollArea)
        if area is not None:
            assert not area.horizontalScrollBar().isVisible()  # nothing cut off at the side
            if wanted.height() + 110 <= LAPTOP.height():
                assert not area.verticalScrollBar().isVisible()  # nor at the bottom, where a laptop has room
    finally:
        put_away(window, dialog)


def test_the_other_screenshots_still_show_their_window(qapp: QApplication, tmp_path: Path) -> None:
    for what, size in (("main", (LAPTOP.width(), LAPTOP.height())), ("player", (1280, 720))):
        path = tmp_path / f"{what}.png"
        assert screenshot(path, what, game="walka") == 0
        image = QImage(str(path))
        assert (image.width(), image.height()) == size, what
