"""The one token estimate every budget in kb-graph uses.

No offline tokenizer is available (tiktoken downloads its encodings), so we use a
conservative rule: one token per three UTF-8 bytes, rounded up. Real BPE tokenizers
average ~4 bytes per token on English prose and ~3.2-3.6 on code, so this
over-estimates and a response that fits by this rule fits the real budget.
"""

from __future__ import annotations

import math


def estimate_tokens(text: str) -> int:
    """Tokens for `text` by the rule ceil(utf8_bytes / 3)."""
    return math.ceil(len(text.encode("utf-8")) / 3)
