"""The secret scan's quick reject (`may_hold_secret`) never hides a finding.

`scan_text` skips its ~45 rules when a text holds none of the anchors every rule needs;
the fact guard leans on it for each of a component's tens of thousands of strings. If a
rule could match without an anchor, a credential would reach the warehouse unredacted.
"""

from __future__ import annotations

import random
import string

import pytest
from corpus import honest_prose, true_credentials
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kb.secret_scan as scan

ALNUM = string.ascii_letters + string.digits


def _run(alphabet: str, n: int, seed: int) -> str:
    """A fabricated token body, built at test time (no credential-shaped literal here)."""
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


def _samples() -> dict[str, str]:
    """One line per rule the committed corpus does not exercise."""
    lower = string.ascii_lowercase + string.digits
    return {
        "azure-storage-key": "DefaultEndpointsProtocol=https;AccountKey="
        + _run(ALNUM, 86, 1)
        + "==",
        "discord-token": "N"
        + _run(ALNUM, 23, 2)
        + "."
        + _run(ALNUM, 6, 3)
        + "."
        + _run(ALNUM, 27, 4),
        "mailchimp-key": "mc = " + _run(lower, 32, 5) + "-us14",
        "pypi-token": "pypi-AgEIcHlwaS5vcmc" + _run(ALNUM, 72, 6),
        "square-oauth": "sq0csp-" + _run(ALNUM, 43, 7),
        "telegram-token": "bot " + "5" + _run(string.digits, 8, 8) + ":" + _run(ALNUM, 35, 9),
        "token-in-url": "https://files.example.org/report.pdf?sig=" + _run(ALNUM, 28, 10),
    }


def _every_rule() -> set[str]:
    fixed = {"jwt", "password-in-url", "token-in-url", "bearer-auth", "basic-auth"}
    return set(scan._PLUGINS) | set(scan._OWN_VENDOR) | fixed | {"keyword", "private-key"}


def _texts() -> list[str]:
    return [e["text"] for e in true_credentials()] + list(_samples().values())


def test_every_rule_is_exercised_and_anchored() -> None:
    seen: set[str] = set()
    for text in _texts():
        findings = scan._scan(text)
        seen |= {f.rule for f in findings}
        assert not findings or scan.may_hold_secret(text), text
        assert scan.scan_text(text) == findings
        # the values alone, without the words around them: a vendor token still needs
        # its own anchor (a keyword value alone is no finding)
        bare = "\n".join(text[f.start : f.end] for f in findings)
        assert not scan._scan(bare) or scan.may_hold_secret(bare), bare
    assert _every_rule() <= seen, sorted(_every_rule() - seen)


@pytest.mark.parametrize(
    "path_like", ["src/components/ProductCard.tsx#ProductCard", "GET /api/v1/orders/{id}"]
)
def test_ordinary_graph_strings_skip_the_rules(path_like: str) -> None:
    assert not scan.may_hold_secret(path_like)


def _variant(text: str, how: int) -> str:
    return (text, text.swapcase(), text.upper(), text.lower())[how]


PIECES = st.one_of(
    st.builds(_variant, st.sampled_from(_texts() + honest_prose()), st.integers(0, 3)),
    st.text(alphabet=ALNUM + " :=/@?&.-_'\"\n", max_size=40),
)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(PIECES, min_size=1, max_size=4), st.sampled_from(["", " ", "\n", "="]))
def test_a_text_with_a_finding_always_passes_the_quick_reject(pieces, glue) -> None:
    text = glue.join(pieces)
    assert not scan._scan(text) or scan.may_hold_secret(text), repr(text)
