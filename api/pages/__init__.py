"""The playground's browser pages: the files, and what they are served with.

``static/play/`` holds plain HTML, CSS and browser JavaScript (nothing loaded
from another host) that call the JSON API on the same origin: the solver
page, a hand of gin and a deal of Indian rummy against the move advisor,
each with a referee of its own in JavaScript.  ``assets`` names the files,
their media types and the headers they are served with; the routes that
serve them are the HTTP server's (``api.server.routes.play``).  The referees
and pages spell no game word or rule number of their own: they read
``static/play/words.js``, which ``export_words`` generates from the library.
``calls`` lists the API calls the pages make, which the server's playground
lane lets through without a key when keys are on.

Nothing here imports the server, the solver pool, the command line or bulk.
"""
