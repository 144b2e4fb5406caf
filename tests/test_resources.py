"""``api.pool.resources.available_cpus``: cgroup quotas from fake files, and the two
defaults that use it (``serve --workers`` and bulk's processes)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from api.bulk import on_pool
from api.cli import commands as cli
from api.cli.commands import build_parser
from api.pool.resources import available_cpus, cgroup_v1_cpus, cgroup_v2_cpus


def _write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _v2(root: Path, cpu_max: str) -> Path:
    _write(root, "sys/fs/cgroup/cpu.max", cpu_max)
    return root


def _v1(root: Path, quota: str, period: str = "100000", directory: str = "cpu") -> Path:
    _write(root, f"sys/fs/cgroup/{directory}/cpu.cfs_quota_us", quota)
    _write(root, f"sys/fs/cgroup/{directory}/cpu.cfs_period_us", period)
    return root


@pytest.fixture
def big_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 64-core node on which the process may run anywhere."""
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)


@pytest.mark.parametrize(("cpu_max", "expected"), [
    ("max 100000\n", None),
    ("100000 100000\n", 1),
    ("200000 100000\n", 2),
    ("150000 100000\n", 2),   # 1.5 CPUs: rounded up
    ("10000 100000\n", 1),    # a tenth of a CPU: still one worker
    ("400000 50000\n", 8),    # another period
    ("250000\n", 3),          # period omitted: the kernel's default, 100000
    ("", None),
    ("garbage 100000", None),
    ("0 100000", None),
])
def test_cgroup_v2(tmp_path: Path, cpu_max: str, expected: int | None) -> None:
    assert cgroup_v2_cpus(_v2(tmp_path, cpu_max)) == expected


@pytest.mark.parametrize(("quota", "period", "expected"), [
    ("-1", "100000", None),
    ("100000", "100000", 1),
    ("300000", "100000", 3),
    ("50000", "100000", 1),
    ("x", "100000", None),
    ("100000", "0", None),
])
def test_cgroup_v1(tmp_path: Path, quota: str, period: str, expected: int | None) -> None:
    assert cgroup_v1_cpus(_v1(tmp_path, quota, period)) == expected


def test_cgroup_v1_co_mounted_with_cpuacct(tmp_path: Path) -> None:
    assert cgroup_v1_cpus(_v1(tmp_path, "200000", directory="cpu,cpuacct")) == 2


def test_no_cgroup_files(tmp_path: Path) -> None:
    assert cgroup_v2_cpus(tmp_path) is None
    assert cgroup_v1_cpus(tmp_path) is None


@pytest.mark.usefixtures("big_node")
def test_one_cpu_pod_on_a_64_core_node(tmp_path: Path) -> None:
    """The case this module exists for: one worker, not 64."""
    assert available_cpus(_v2(tmp_path, "100000 100000")) == 1


@pytest.mark.usefixtures("big_node")
def test_unlimited_cgroup_v2_falls_to_the_core_count(tmp_path: Path) -> None:
    assert available_cpus(_v2(tmp_path, "max 100000")) == 64


@pytest.mark.usefixtures("big_node")
def test_cgroup_v1_when_there_is_no_v2_file(tmp_path: Path) -> None:
    assert available_cpus(_v1(tmp_path, "300000")) == 3


@pytest.mark.usefixtures("big_node")
def test_cgroup_v2_wins_over_v1(tmp_path: Path) -> None:
    """With a v2 ``cpu.max`` present, leftover v1 files are not read (even a smaller quota)."""
    root = _v1(_v2(tmp_path, "max 100000"), "100000")
    assert available_cpus(root) == 64


def test_affinity_is_smaller_than_the_quota(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert available_cpus(_v2(tmp_path, "800000 100000")) == 3


def test_core_count_is_smallest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)  # as on macOS
    assert available_cpus(_v2(tmp_path, "800000 100000")) == 2


def test_nothing_known_is_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    assert available_cpus(tmp_path) == 1


def test_unreadable_file_counts_as_no_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(4)), raising=False)
    (tmp_path / "sys/fs/cgroup/cpu.max").mkdir(parents=True)  # a directory: read_text raises
    assert available_cpus(tmp_path) == 4


def test_this_machine() -> None:
    """On the real file system: a positive count no larger than the core count."""
    assert 1 <= available_cpus() <= (os.cpu_count() or 1)


# ---------------------------------------------------------------------------
# The defaults that use it


def test_serve_workers_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "available_cpus", lambda: 3)
    assert build_parser().parse_args(["serve"]).workers == 3


def test_bulk_processes_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(on_pool, "available_cpus", lambda: 3)
    assert on_pool.default_processes() == 3
