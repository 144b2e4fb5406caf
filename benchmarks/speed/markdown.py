"""Markdown output shared by the benchmark reports: pipe tables and durations.

Its own module so that ``benchmarks.speed.report`` (the whole run) and the suites
that print their own tables (``benchmarks.speed.bulk``) both import it, and neither
imports the other back.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def format_time_us(micros: float | None) -> str:
    """A duration given in microseconds, in the unit that reads best.

    >>> format_time_us(2.345), format_time_us(1234.5), format_time_us(2_500_000)
    ('2.35 µs', '1.23 ms', '2.50 s')
    """
    if micros is None or (isinstance(micros, float) and math.isnan(micros)):
        return "-"
    if micros < 10:
        return f"{micros:.2f} µs"
    if micros < 1000:
        return f"{micros:.0f} µs"
    if micros < 1_000_000:
        return f"{micros / 1000:.2f} ms"
    return f"{micros / 1_000_000:.2f} s"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown pipe table; numeric-looking columns are right-aligned."""
    cells = [[str(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h)
              for i, h in enumerate(header)]
    numeric = [bool(cells) and all(_looks_numeric(r[i]) for r in cells) for i in range(len(header))]

    def line(values: Sequence[str]) -> str:
        parts = [v.rjust(w) if num else v.ljust(w)
                 for v, w, num in zip(values, widths, numeric, strict=True)]
        return "| " + " | ".join(parts) + " |"

    rule = "|" + "|".join(("-" * (w + 1) + ":") if num else ("-" * (w + 2))
                          for w, num in zip(widths, numeric, strict=True)) + "|"
    return "\n".join([line(header), rule, *(line(r) for r in cells)])


def _looks_numeric(text: str) -> bool:
    head = text.split(" ")[0].replace(",", "").replace("%", "").replace("x", "")
    try:
        float(head)
    except ValueError:
        return text == "-"
    return True
