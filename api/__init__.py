"""Every interface to the rummy solver library: HTTP, the command line and bulk.

The library (``solver``) knows no front end; this package holds them all, a
folder per concern, around one description of each operation:

* ``api.shared``: the seam every front end reads -- the registry
  (``api.shared.operations``: the request model, the library call, the
  response), one error mapper (``api.shared.errors``), one settings object
  (``api.shared.settings``), the answer to one line (``api.shared.lines``);
* ``api.pool``: the solver processes the server and bulk run their work on
  (``api.pool.solver_pool``, ``api.pool.jobs``, the warm start ``api.pool.warmed``);
* ``api.server``: HTTP -- ``api.server.main.create_app()`` builds the FastAPI
  application (``api.server.main:app`` is what ``rummy-solver serve`` hands
  to uvicorn); routes are made from the registry
  (``api.server.routes.operations``);
* ``api.cli``: the command line (``rummy-solver``, ``python -m api``);
* ``api.bulk``: game logs of JSON lines on the same solver pool
  (``rummy-solver bulk``) or on Ray;
* ``api.pages``: the playground's browser pages, served by ``api.server``.

Each folder imports only those below it (``tests/import_graph.py``).  No
game logic lives here.
"""

from solver import __version__

API_VERSION = __version__
"""Version reported in the OpenAPI document (the package version)."""
