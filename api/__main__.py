"""``python -m api``: the same command line as ``rummy-solver``."""

from __future__ import annotations

import sys

from api.cli import main

if __name__ == "__main__":
    sys.exit(main())
