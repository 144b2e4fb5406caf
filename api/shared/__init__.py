"""The seam every front end reads: HTTP, the command line and bulk alike.

* ``operations``: the registry, one declaration per operation (request model,
  library call, response model, deadline, command-line form);
* ``schemas``, ``schemas_play``, ``schemas_advice``, ``schemas_review``: the
  request and response models; ``examples`` (+ ``examples.json``): their example requests and the
  real answers to them;
* ``errors`` + ``error_codes``: the one error mapper and every stable code;
* ``settings``: the one settings object; ``logs``: how every process logs;
* ``decode``: JSON in; ``lines``: the answer to one line of a stream or a
  bulk file (the same from both);
* ``round_flags``, ``review_file``, ``options`` and ``reports``: the
  command-line flags (and ``rummy-solver review``'s FILE), the option types
  the commands and bulk share, and the readable report each operation
  declares.

Nothing here imports a front end (the HTTP server, the command line, bulk,
the pages) nor the solver pool: ``tests/import_graph.py`` checks it.
"""
