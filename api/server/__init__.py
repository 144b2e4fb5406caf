"""The HTTP server: the FastAPI application and the machinery around it.

* ``main``: ``create_app()`` and ``app`` (what ``rummy-solver serve`` hands
  to uvicorn); ``serve``: the ``serve`` command's supervisor, its socket and
  drain; ``protocol``: uvicorn's HTTP parser answering a malformed request
  with a JSON 400;
* ``routes/``: a route per operation of the registry, the stream, variants,
  health and the pages' routes;
* ``dispatch``: from a checked call to its answer (on the event loop when it
  costs microseconds, else a job of the solver pool); ``quick_lane``: those
  microsecond answers past FastAPI's routing; ``stream``: ``POST
  /v1/solve/stream``;
* ``middleware``, ``keepalive``, ``access_log``, ``metrics``, ``cors``: the
  request context, body limits, connection ages, the access log,
  Prometheus, CORS answered in the error shape;
* ``keys``, ``auth``, ``rate_limit``: API keys, their ids and rates, the
  bound on failed keys, and Redis's connections, timeouts and failure policy;
* ``http_errors``: the one error shape as HTTP answers;
* ``openapi``, ``docs``: the OpenAPI document and its offline pages;
  ``openapi_compat``: what would break a ``/v1`` client;
* ``export_openapi``, ``export_examples``, ``export_docs``: the commands
  that write ``openapi.json``, ``api/shared/examples.json`` and the README's
  generated parts (each checked by a test).

It reads the shared seam (``api.shared``) and runs work on the solver pool
(``api.pool``); no other front end imports it, except the command line's
``serve`` command, which starts it.
"""
