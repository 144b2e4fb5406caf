"""HTTP face of the rummy solver: a thin FastAPI layer over ``solver``.

``api.main.create_app()`` builds the application; ``api.main:app`` is what
``rummy-solver serve`` hands to uvicorn.  No game logic lives here: requests
are parsed, passed to ``solver.solve`` / ``solver.validate`` and the results
serialised; domain errors become 422 responses in FastAPI's error shape.
"""

API_VERSION = "0.1.0"
"""Version reported in the OpenAPI document (kept equal to the package version)."""
