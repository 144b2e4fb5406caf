# rummy-solver: the REST API in a container.
#   docker build -t rummy-solver .
#   docker run --rm -p 8000:8000 rummy-solver
# Settings are RUMMY_SOLVER_* environment variables (the README's "Settings"
# table, under "REST API"), e.g. -e RUMMY_SOLVER_CORS_ORIGINS=https://game.example.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY solver ./solver
COPY api ./api
RUN pip install . && useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin solver

USER solver
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s \
    CMD python -c "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"
# One worker per CPU the container may use: its CPU quota (cgroup), not the
# node's core count (api/pool/resources.py; override with --workers N).
ENTRYPOINT ["rummy-solver", "serve", "--host", "0.0.0.0", "--port", "8000"]
