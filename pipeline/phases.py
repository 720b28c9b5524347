"""Wall-clock laps of one refresh (`kb refresh --profile`, the bench's breakdown)."""

from __future__ import annotations

import time


class Phases:
    def __init__(self, start: float | None = None) -> None:
        self.start = self.last = start if start is not None else time.perf_counter()
        self.laps: list[tuple[str, float]] = []

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps.append((name, now - self.last))
        self.last = now

    def total(self) -> float:
        return time.perf_counter() - self.start

    def as_dict(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for name, seconds in self.laps:
            out[name] = round(out.get(name, 0.0) + seconds, 3)
        return out

    def render(self) -> str:
        return "phases: " + " · ".join(f"{n} {s:.2f}s" for n, s in self.as_dict().items())
