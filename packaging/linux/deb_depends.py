"""Print the Debian ``Depends`` of a PyInstaller bundle: the packages of the libraries it links but does not carry.

    python packaging/linux/deb_depends.py dist/bojovka

dpkg-shlibdeps would map every library the bundle *carries* (libxcb-cursor, libdbus …) back to the build
machine's packages as well, so this reads the ELF files itself: every DT_NEEDED name no file of the bundle
provides is looked up with ``ldconfig -p`` and ``dpkg -S``; glibc gets a minimum version from the newest
``GLIBC_x.y`` symbol version the bundle uses (the glibc floor the release builds on Ubuntu 22.04 to keep low).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

GLIBC_PACKAGE = "libc6"
GLIBC_SYMBOL = re.compile(r"\bGLIBC_(\d+(?:\.\d+)+)\b")


def elf_files(bundle: Path) -> list[Path]:
    """Every ELF file in the bundle (the executable, extension modules, libraries, plugins)."""
    found = []
    for path in sorted(bundle.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as stream:
                if stream.read(4) == b"\x7fELF":
                    found.append(path)
    return found


def _objdump(*arguments: str) -> str:
    return subprocess.run(["objdump", *arguments], capture_output=True, text=True, check=True).stdout


def needed(path: Path) -> set[str]:
    """The DT_NEEDED sonames of one ELF file."""
    return {line.split()[1] for line in _objdump("-p", str(path)).splitlines() if line.strip().startswith("NEEDED")}


def external_sonames(files: list[Path], bundle: Path) -> set[str]:
    """Sonames the bundle's files need that no file (or link) in the bundle provides."""
    provided = {path.name for path in bundle.rglob("*")}
    return {name for path in files for name in needed(path)} - provided


def _system_paths() -> dict[str, str]:
    listing = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True, check=True).stdout
    paths: dict[str, str] = {}
    for line in listing.splitlines()[1:]:
        name, _, path = line.strip().partition(" => ")
        soname = name.split(" (")[0]
        if "x86-64" in name or "64bit" in name or soname not in paths:
            paths[soname] = path
    return paths


def package_of(path: str) -> str:
    """The Debian package that installed a file (resolving /lib → /usr/lib on merged-/usr systems)."""
    for candidate in (path, str(Path(path).resolve())):
        result = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True, check=False)
        if result.returncode == 0:
            return result.stdout.split(":")[0].strip()
    raise SystemExit(f"deb_depends: no package owns {path}")


def glibc_floor(files: list[Path]) -> str:
    """The newest GLIBC_x.y symbol version any file of the bundle asks for."""
    versions = {match for path in files for match in GLIBC_SYMBOL.findall(_objdump("-T", str(path)))}
    return max(versions, key=lambda text: tuple(int(part) for part in text.split(".")))


def depends(bundle: Path) -> str:
    """The ``Depends`` field value."""
    files = elf_files(bundle)
    system = _system_paths()
    missing = sorted(name for name in external_sonames(files, bundle) if name not in system)
    if missing:
        raise SystemExit(f"deb_depends: the bundle needs libraries this machine lacks: {', '.join(missing)}")
    packages = {package_of(system[name]) for name in external_sonames(files, bundle)}
    packages.discard(GLIBC_PACKAGE)
    return ", ".join([f"{GLIBC_PACKAGE} (>= {glibc_floor(files)})", *sorted(packages)])


if __name__ == "__main__":
    print(depends(Path(sys.argv[1])))
