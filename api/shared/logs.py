"""Structured (JSON lines) logging with the request id on every line.

``REQUEST_ID`` is a context variable set for each request (by
``api.server.middleware.RequestContextMiddleware``, and inside a solver process for
the job it runs); ``RequestIdFilter`` copies it onto every log record, and
``JsonFormatter`` writes one JSON object per line.  ``log_config(level)`` is
the ``logging.config`` dictionary ``rummy-solver serve`` hands to uvicorn, so
uvicorn's own messages come out the same way.
"""

from __future__ import annotations

import json
import logging
import time
from contextvars import ContextVar
from typing import Any

REQUEST_ID: ContextVar[str] = ContextVar("request_id", default="-")
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")

_RESERVED = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message",
                                                                             "color_message"}


class RequestIdFilter(logging.Filter):
    """Adds ``record.request_id`` (the current request's id, ``-`` outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = REQUEST_ID.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, request id, message,
    any ``extra`` fields, and the traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                  + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "request_id": getattr(record, "request_id", REQUEST_ID.get()),
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _RESERVED and key not in entry and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def log_config(level: str = "info") -> dict[str, Any]:
    """``logging.config.dictConfig`` input: JSON lines on stderr for uvicorn and
    the service; uvicorn's own access log is off (``api.access`` replaces it)."""
    numeric = "DEBUG" if level in ("debug", "trace") else level.upper()
    handler = {"class": "logging.StreamHandler", "formatter": "json", "filters": ["request_id"],
               "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": RequestIdFilter}},
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"default": handler},
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": numeric, "propagate": False},
            "uvicorn.error": {"handlers": ["default"], "level": numeric, "propagate": False},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
            "api": {"handlers": ["default"], "level": numeric, "propagate": False},
            "solver": {"handlers": ["default"], "level": numeric, "propagate": False},
        },
    }
