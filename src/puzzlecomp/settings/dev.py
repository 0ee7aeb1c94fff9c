"""The default: SQLite in ./var, console email, DEBUG on unless told otherwise."""

import os

os.environ.setdefault("DEBUG", "1")

from puzzlecomp.settings.base import *  # noqa: F403
