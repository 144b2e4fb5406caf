"""How many CPUs this process may really use: the default for worker counts.

``os.cpu_count()`` counts the node's cores, so a pod limited to 1 CPU on a
64-core node would start 64 uvicorn workers (or bulk processes) that the
kernel then throttles to one CPU's worth of time between them.
``available_cpus()`` takes the smallest of what applies:

* the container's CPU quota: cgroup v2 ``cpu.max`` (``max`` = no limit, else
  ``quota period``), or, where there is no cgroup v2 file, cgroup v1
  ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us`` (``-1`` = no limit); a
  fractional quota is rounded up (1.5 CPUs: two workers, each busy part of the
  time, rather than one that leaves half a CPU unused), and is at least 1;
* the CPUs the process may be scheduled on (``os.sched_getaffinity``, e.g.
  ``taskset`` or Docker's ``--cpuset-cpus``);
* ``os.cpu_count()``.

A file that is missing, unreadable or malformed counts as no limit: the
default worker count must never stop the service from starting.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

CGROUP_V2_CPU_MAX = Path("sys/fs/cgroup/cpu.max")
"""cgroup v2: ``"max 100000"`` or ``"<quota> <period>"`` in microseconds (relative to ``root``)."""
CGROUP_V1_CPU_DIRS = (Path("sys/fs/cgroup/cpu"), Path("sys/fs/cgroup/cpu,cpuacct"))
"""cgroup v1 mounts of the cpu controller, alone or co-mounted with cpuacct (relative to ``root``)."""


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None


def _quota_cpus(quota: int, period: int) -> int | None:
    """CPUs granted by ``quota`` microseconds per ``period``; ``None`` for no limit."""
    if quota <= 0 or period <= 0:
        return None
    return max(1, math.ceil(quota / period))


def cgroup_v2_cpus(root: Path = Path("/")) -> int | None:
    """The CPU quota of cgroup v2's ``cpu.max`` under ``root``; ``None`` if unlimited or absent."""
    text = _read(root / CGROUP_V2_CPU_MAX)
    if text is None:
        return None
    fields = text.split()
    if not fields or fields[0] == "max":
        return None
    try:
        quota = int(fields[0])
        period = int(fields[1]) if len(fields) > 1 else 100_000  # the kernel's default period
    except ValueError:
        return None
    return _quota_cpus(quota, period)


def has_cgroup_v2_cpu_max(root: Path = Path("/")) -> bool:
    """Whether cgroup v2's ``cpu.max`` exists under ``root`` (then cgroup v1 is not read)."""
    return (root / CGROUP_V2_CPU_MAX).is_file()


def cgroup_v1_cpus(root: Path = Path("/")) -> int | None:
    """The CPU quota of cgroup v1's CFS files under ``root``; ``None`` if unlimited or absent."""
    for directory in CGROUP_V1_CPU_DIRS:
        quota_text = _read(root / directory / "cpu.cfs_quota_us")
        period_text = _read(root / directory / "cpu.cfs_period_us")
        if quota_text is None or period_text is None:
            continue
        try:
            return _quota_cpus(int(quota_text), int(period_text))
        except ValueError:
            return None
    return None


def affinity_cpus() -> int | None:
    """CPUs this process may be scheduled on; ``None`` where the OS does not say (macOS)."""
    getaffinity = getattr(os, "sched_getaffinity", None)
    if getaffinity is None:
        return None
    try:
        allowed: set[int] = getaffinity(0)
    except OSError:
        return None
    return len(allowed) or None


def available_cpus(root: Path = Path("/")) -> int:
    """The smallest of the cgroup CPU quota (v2, else v1), the affinity mask and the core count; at least 1.

    ``root`` is where the file system starts (tests point it at fake cgroup files).
    """
    quota = cgroup_v2_cpus(root) if has_cgroup_v2_cpu_max(root) else cgroup_v1_cpus(root)
    limits = [n for n in (quota, affinity_cpus(), os.cpu_count()) if n is not None]
    return max(1, min(limits, default=1))


PROCESSES_PER_CPU = 4
"""The most worker processes the command line starts per CPU this process
may use (``bulk --processes``): more only share the same CPUs, each with
its own memory, and a typo (``--processes 500``) would start hundreds."""


def max_processes(root: Path = Path("/")) -> int:
    """``PROCESSES_PER_CPU`` times ``available_cpus()``: the bound of a worker count option."""
    return PROCESSES_PER_CPU * available_cpus(root)
