"""What the playground's pages call on the JSON API, and the header that marks their calls.

With API keys configured, the pages still work without one: their calls carry
``MARKER`` (``X-Playground: 1``) and may go through the playground's lane
(``api.server.playground_lane``), which admits a key-less call only when it
is one of ``CALLS``, at a small rate per client address
(``RUMMY_SOLVER_PLAYGROUND_RATE``).  Any other key-less call is refused as
before; a call that carries a key goes the key's way.  ``CALLS`` is the
pages' own list: a test reads the page scripts and fails when a script calls
a path that is not here, or when a path here is called by none.

>>> ("POST", "/v1/advise") in CALLS, ("POST", "/v1/batch") in CALLS
(True, False)
"""

from __future__ import annotations

MARKER = "X-Playground"
"""The header every call of the pages carries (value ``MARKER_VALUE``)."""
MARKER_VALUE = "1"

CALLS: frozenset[tuple[str, str]] = frozenset({
    # /play: the variants, a solve, the discard and draw hints
    ("GET", "/v1/variants"),
    ("POST", "/v1/solve"),
    ("POST", "/v1/hints/discard"),
    ("POST", "/v1/hints/draw"),
    # /play/gin: which discards may knock, the defender's layoffs, the bot and the Hint, the score
    ("POST", "/v1/gin/knock"),
    ("POST", "/v1/layoffs"),
    ("POST", "/v1/advise"),
    ("POST", "/v1/gin/score"),
    # /play/gin and /play/indian: the hand or deal reviewed once it is over (about a second of
    # CPU a gin hand, up to about two an Indian deal played to a show)
    ("POST", "/v1/review"),
    # /play/indian: a show checked, the deal scored (and /v1/hints/discard, /v1/advise)
    ("POST", "/v1/validate"),
    ("POST", "/v1/score/round"),
})
"""(method, path) of every call the pages make: all the lane lets through."""
