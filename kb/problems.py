"""A problem found in the KB: one line, `path:line: message`, never a value of a secret."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    line: int
    severity: str  # "error" | "warning"
    rule: str
    message: str

    def render(self) -> str:
        return f"{self.path}:{self.line}: {self.severity}: {self.message} [{self.rule}]"


def sorted_problems(problems: list[Problem]) -> list[Problem]:
    return sorted(set(problems))
