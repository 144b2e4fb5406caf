"""Game logs in bulk: JSON lines in, one answer line per input line out, in order.

* ``api.bulk.pipeline``: answering one line (each checked by its operation's
  ``Operation.parse``, as the endpoint's body is) and the in-order window over
  any runner of chunks;
* ``api.bulk.on_pool``: ``run_lines`` on the service's solver pool;
* ``api.bulk.on_ray``: ``run_lines_ray`` on a Ray cluster;
* ``api.bulk.command``: the ``rummy-solver bulk`` command.

``/v1/solve/stream`` answers its lines with the same ``pipeline.answer_line``.
"""
