"""The secret scanner reads hostile text in time linear in its length: a megabyte of one
rule's anchor repeated (`token=` over and over, a README of `password: `) costs about ten
times what 100 KB does, not a hundred times — a refresh or a `kb validate` is never
held for minutes by one file. Measured in CPU time of this process, so other work on the
machine does not move the ratio."""

from __future__ import annotations

import time

import pytest

from kb.secret_scan import redact_text

ANCHORS = [
    "token=",
    "?token=",
    "eyJ",
    "-----BEGIN PRIVATE KEY-----",
    "-----BEGIN PRIVATE KEY-----\n",
    "https://a:b@",
    "password: ",
    "password: \n",
    "api_key: ",
    "A_TOKEN",
    "//",
    "npm_",
    "password=abcdefgh1X! ",
]


def _cpu_seconds(text: str, runs: int = 1) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        redact_text(text)
        best = min(best, time.process_time() - started)
    return best


@pytest.mark.slow
@pytest.mark.parametrize("anchor", ANCHORS, ids=repr)
def test_a_megabyte_of_one_anchor_costs_ten_times_a_tenth(anchor: str) -> None:
    small = anchor * (100_000 // len(anchor)) + " token"
    large = anchor * (1_000_000 // len(anchor)) + " token"
    small_s = max(_cpu_seconds(small, runs=3), 0.01)
    large_s = _cpu_seconds(large)
    # linear: ~10x; the quadratic scanner this replaces took ~100x (and minutes)
    assert large_s / small_s < 25, f"1 MB took {large_s:.2f}s CPU, 100 KB {small_s:.2f}s"
