"""`kill <pid>` stops the refresh service even when the signal lands inside Dagster work,
whose interrupt capture swaps in its own handler and forgets what it caught."""

from __future__ import annotations

import os
import signal

from dagster._utils.interrupts import capture_interrupts

from pipeline.service import StopSignals


def test_a_sigterm_caught_by_dagster_is_still_seen() -> None:
    previous = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGTERM, lambda *_: None)  # as the service's own handler would
    signal.signal(signal.SIGINT, lambda *_: None)
    try:
        stops = StopSignals()
        assert not stops.received()
        with capture_interrupts():  # what a Dagster run does around its steps
            os.kill(os.getpid(), signal.SIGTERM)
        assert stops.received()
        assert not stops.received()  # read once
    finally:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGTERM, previous[0])
        signal.signal(signal.SIGINT, previous[1])
