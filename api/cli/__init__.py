"""The command line: ``rummy-solver`` (and ``python -m api``).

``commands``: a command per operation of the registry
(``api.shared.operations``, each printed with the readable report it
declares, ``api.shared.reports``), plus ``serve`` and ``bulk``.  ``bulk`` is
``api.bulk.command``; ``serve`` starts the HTTP server (``api.server.serve``),
the one place the command line imports the server's machinery, and only when
that command runs.

``main`` is the console script's entry point, ``api.cli:main``: the name a
``rummy-solver`` script installed before the command line had a folder of
its own imports, so such a script keeps working.
"""

from api.cli.commands import main

__all__ = ["main"]
