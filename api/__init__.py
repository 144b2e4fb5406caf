"""HTTP face of the rummy solver: a thin FastAPI layer over ``solver``.

``api.main.create_app()`` builds the application; ``api.main:app`` is what
``rummy-solver serve`` hands to uvicorn.  No game logic lives here: requests
are checked, handed to a solver process (``api.pool``) that calls the library
(``api.jobs``), and the answer's bytes returned; domain errors become 422
responses in FastAPI's error shape.
"""

from solver import __version__

API_VERSION = __version__
"""Version reported in the OpenAPI document (the package version)."""
