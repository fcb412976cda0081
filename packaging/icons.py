"""Render every icon the installers need from the one source image, ``resources/icons/bojovka.svg``.

    python packaging/icons.py [OUT_DIR]     # default build/icons

Writes ``png/bojovka-<size>.png`` (16 … 1024, for the Linux icon theme and the AppImage), ``bojovka.ico``
(Windows: the executable, the installer, file associations) and ``bojovka.icns`` (the macOS bundle). Qt's own
SVG renderer draws each size, so the icons match what the running app shows; Pillow (pinned in
``packaging/requirements-build.txt``) writes the two container formats. Nothing here is committed: the SVG
is the only source.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "resources" / "icons" / "bojovka.svg"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512, 1024)
#: Windows shows 16-48 in lists and menus, 256 in large views; more sizes only add bytes.
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
#: The pixel sizes Pillow's .icns writer stores (32 … 1024; 32 doubles as 16@2x, and macOS scales it for 16).
ICNS_SIZES = (32, 64, 128, 256, 512, 1024)


def render_pngs(out_dir: Path) -> dict[int, Path]:
    """Draw the SVG at every size with Qt; return size → PNG path."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    application = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(SOURCE))
    if not renderer.isValid():
        raise SystemExit(f"{SOURCE} is not an SVG Qt can draw")
    out_dir.mkdir(parents=True, exist_ok=True)
    written = {}
    for size in PNG_SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        path = out_dir / f"bojovka-{size}.png"
        if not image.save(str(path)):
            raise SystemExit(f"could not write {path}")
        written[size] = path
    del application
    return written


def write_ico(pngs: dict[int, Path], path: Path) -> None:
    """A multi-size .ico; each size is its own rendering, not a downscale of the largest."""
    from PIL import Image

    images = [Image.open(pngs[size]).convert("RGBA") for size in ICO_SIZES]
    largest = images[-1]
    largest.save(path, format="ICO", sizes=[(size, size) for size in ICO_SIZES], append_images=images[:-1])


def write_icns(pngs: dict[int, Path], path: Path) -> None:
    """A multi-size .icns for the macOS bundle."""
    from PIL import Image

    images = [Image.open(pngs[size]).convert("RGBA") for size in ICNS_SIZES]
    images[-1].save(path, format="ICNS", append_images=images[:-1])


def check(path: Path, sizes: tuple[int, ...]) -> None:
    """Read a written icon back and make sure every size is inside."""
    from PIL import Image

    with Image.open(path) as image:
        # .ico lists (width, height); .icns lists (width, height, scale): a 64 is stored as 32 at 2x.
        found = {entry[0] * (entry[2] if len(entry) > 2 else 1) for entry in image.info.get("sizes", set())}
    missing = sorted(set(sizes) - found)
    if missing:
        raise SystemExit(f"{path} lacks sizes {missing}")


def main(argv: list[str]) -> int:
    """Render every icon into the output folder."""
    out_dir = Path(argv[1]) if len(argv) > 1 else ROOT / "build" / "icons"
    pngs = render_pngs(out_dir / "png")
    write_ico(pngs, out_dir / "bojovka.ico")
    check(out_dir / "bojovka.ico", ICO_SIZES)
    write_icns(pngs, out_dir / "bojovka.icns")
    check(out_dir / "bojovka.icns", ICNS_SIZES)
    print(f"icons: {len(pngs)} PNG sizes, bojovka.ico, bojovka.icns in {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
