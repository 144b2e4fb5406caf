"""The service's load tools: the real API server under load
(``load``, ``goodput`` with ``wrk_post.lua``, ``advise_load``), on its
deadlines (``deadline``) and on hostile bodies (``hostile``).
"""
