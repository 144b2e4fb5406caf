"""The command line's exit codes, for ``rummy-solver`` and its ``bulk``
command alike (README, "Command line")."""

from __future__ import annotations

EXIT_OK = 0
"""Done."""
EXIT_FAILURE = 1
"""A failure that is not the input's fault (``bulk``: some line got an error answer)."""
EXIT_BAD_INPUT = 2
"""Bad input, a wrong option, or a run that could not start or finish."""
EXIT_INTERRUPTED = 130
"""Interrupted (Ctrl-C)."""
