"""The playground's browser pages: the files, and what they are served with.

``static/play/`` holds plain HTML, CSS and browser JavaScript (nothing loaded
from another host) that call the JSON API on the same origin: the solver
page, a hand of gin and a deal of Indian rummy against the move advisor,
each with a referee of its own in JavaScript.  ``assets`` names the files,
their media types and the headers they are served with; the routes that
serve them are the HTTP server's (``api.server.routes.play``).

Nothing here imports the server, the solver pool, the command line or bulk.
"""
