"""Peak memory of this process, as the cost line of `kb refresh` reports it, and the
cycle collector kept out of heavy imports.

Linux's VmHWM is the peak resident set of the current program image; `ru_maxrss` also
keeps the peak of the process before `exec`, so a `kb` started by a big parent (or a
worker started by `kb`) would report its parent's size. The refresh service resets the
peak before each request so each reports its own.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
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


@contextlib.contextmanager
def imports_without_gc() -> Iterator[None]:
    """Heavy imports (Dagster and its storage) with the cycle collector paused.

    Each collection during an import walks every object made so far: ~20% of the time
    `kb refresh` spends importing. What the imports made lives as long as the process, so
    it is frozen out of later collections too (the build's collections stay short)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
