"""How many CPUs this process may keep busy: the default thread count of a run and the worker
count of ``make test``.

The CPUs it may run on (its affinity: ``taskset``, a container's ``--cpuset-cpus``), capped by a
cgroup CPU quota (``docker --cpus=2`` on a 64-core host gives the process 64 CPUs to run on but
the time of 2). Neither ``os.cpu_count`` nor the affinity sees a quota, and 64 threads sharing
two CPUs' time run no faster than 2 while holding 32 times the memory: 64 test workers each
compiling the kernels can run a small container out of memory.
"""
from __future__ import annotations

import os
from pathlib import Path

# Where a container sees its own cgroup: docker and podman give it a cgroup namespace (cgroup v2)
# or mount its group there (v1). A process in a sub-group of a host's hierarchy sees the root's
# files, which hold no quota: its own quota, if any, is not read (uncommon outside containers).
CGROUP = Path("/sys/fs/cgroup")


def usable_cpus(cgroup: Path = CGROUP) -> int:
    """The CPUs this process may run on, at most the whole CPUs its quota grants (at least 1)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    quota = cpu_quota(cgroup)
    return cpus if quota is None else max(1, min(cpus, int(quota)))


def cpu_quota(cgroup: Path = CGROUP) -> float | None:
    """CPUs' worth of time the cgroup quota grants per period (``--cpus=1.5`` gives 1.5), or
    None where there is none or it cannot be read.

    cgroup v2: ``cpu.max`` holds "QUOTA PERIOD" in microseconds, QUOTA "max" for none.
    cgroup v1: ``cpu/cpu.cfs_quota_us`` (-1 for none) over ``cpu/cpu.cfs_period_us``.
    """
    try:
        quota, period = (cgroup / "cpu.max").read_text().split()[:2]
    except (OSError, ValueError):
        try:
            quota = (cgroup / "cpu" / "cpu.cfs_quota_us").read_text().strip()
            period = (cgroup / "cpu" / "cpu.cfs_period_us").read_text().strip()
        except OSError:
            return None
    try:
        quota_us, period_us = int(quota), int(period)
    except ValueError:  # "max": no quota
        return None
    return quota_us / period_us if quota_us > 0 and period_us > 0 else None
