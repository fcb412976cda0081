"""The frozen app's entry script: PyInstaller starts here and hands over to ``app.main`` (the console script)."""

import sys

from app.main import main

if __name__ == "__main__":
    sys.exit(main())
