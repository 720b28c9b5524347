"""Hardening tests: hostile input and unlucky users. Helpers in this folder import by name."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
