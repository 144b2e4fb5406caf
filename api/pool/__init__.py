"""The solver processes that the HTTP server and bulk both run their work on.

* ``solver_pool``: ``SolverPool``, the solver processes (or threads) of one
  worker, with admission control, deadlines, cancellation and recycling;
* ``jobs``: what a solver process runs (``run_job``: one operation of the
  registry, a line of a stream, a chunk of a bulk file);
* ``fair_queue``: who goes next (one line per client, max-min fair);
* ``service_times``: how long a job of each kind is expected to take;
* ``resources``: how many CPUs this process may use (the default worker and
  process counts).

Below every front end: nothing here imports the HTTP server, the command
line, bulk or the pages (``tests/import_graph.py`` checks it), so bulk runs
the pool without the web stack.
"""
