"""Peak memory of this process, as the cost line of `kb refresh` reports it.

Linux's VmHWM is the peak resident set of the current program image; `ru_maxrss` also
keeps the peak of the process before `exec`, so a `kb` started by a big parent (or a
worker started by `kb`) would report its parent's size. The refresh service resets the
peak before each request so each reports its own.
"""

from __future__ import annotations

import contextlib
from pathlib import Path


def peak_rss_mb() -> float:
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def reset_peak_rss() -> None:
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")
