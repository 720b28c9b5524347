"""The value the URL evaluator computes: literal, env and parameter parts of a URL template.

Its own module so that helpers of the evaluator (destructure.py) can build values without
importing the evaluator back."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Url:
    parts: list[tuple[str, str]] = field(default_factory=list)
    via: set[str] = field(default_factory=set)
    # how many leading parts are one named base (a constant, an env var, a client's
    # baseURL): what a wrapper puts before its path parameter; `base_name` names it
    base_end: int = 0
    base_name: str | None = None
    # where that named base is written: (rel, line, start byte) of a constant's value or
    # of an interceptor's rewrite, and how many leading parts it is; its `setting` sits
    # there (bases.py)
    origin: tuple[str, int, int, int] | None = None

    def add(self, other: Url) -> Url:
        if not self.parts and other.base_end:
            self.base_end, self.base_name = other.base_end, other.base_name
            self.origin = other.origin
        self.parts += other.parts
        self.via |= other.via
        return self

    def named(self, name: str | None, at: tuple[str, int, int] | None = None) -> Url:
        """Mark the whole value as one named base (a constant or env var read as a prefix)."""
        self.base_end, self.base_name = len(self.parts), name
        self.origin = (*at, len(self.parts)) if at is not None else None
        return self

    @property
    def template(self) -> str:
        return "".join(v if k == "lit" else "{" + v + "}" for k, v in self.parts)

    @property
    def starts_with_param(self) -> bool:
        return bool(self.parts) and self.parts[0][0] == "param"
