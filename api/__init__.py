"""Every interface to the rummy solver library: HTTP, the command line and bulk.

The library (``solver``) knows no front end; this package holds them all,
around one description of each operation (``api.shared.operations``: the request
model, the library call, the response), one error mapper (``api.shared.errors``) and
one settings object (``api.shared.settings``):

* HTTP: ``api.server.main.create_app()`` builds the FastAPI application (``api.server.main:app``
  is what ``rummy-solver serve`` hands to uvicorn); routes are made from the
  registry (``api.server.routes.operations``), work runs on solver processes
  (``api.pool.solver_pool``, ``api.pool.jobs``);
* the command line: ``api.cli`` (``rummy-solver``, ``python -m api``), its readable
  reports ``api.shared.reports``;
* bulk: ``api.bulk`` answers game logs of JSON lines on the same solver pool
  (``rummy-solver bulk``, ``/v1/solve/stream``) or on Ray.

No game logic lives here.
"""

from solver import __version__

API_VERSION = __version__
"""Version reported in the OpenAPI document (the package version)."""
