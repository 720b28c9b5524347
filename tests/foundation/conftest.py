"""Foundation tests: helpers importable as `helpers` (this folder is put on sys.path)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
