"""Game logs in bulk: JSON lines in, one answer line per input line out, in order.

* ``api.bulk.pipeline``: the in-order window over any runner of chunks, each
  line answered by ``api.shared.lines`` (checked by its operation's
  ``Operation.parse``, as the endpoint's body is);
* ``api.bulk.on_pool``: ``run_lines`` on the service's solver pool, whose
  processes run ``api.bulk.worker``;
* ``api.bulk.on_ray``: ``run_lines_ray`` on a Ray cluster;
* ``api.bulk.command``: the ``rummy-solver bulk`` command.

``/v1/solve/stream`` answers its lines with the same ``api.shared.lines.answer_line``.
"""
