"""Regenerate docs/frameworks.md from the model files (extractors/models/docpage.py).

    uv run python scripts/frameworks_doc.py [--check]

--check exits 1 when the committed page differs from what the models generate."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from extractors.models.docpage import render, write  # noqa: E402

PAGE = ROOT / "docs" / "frameworks.md"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when the page is stale")
    args = parser.parse_args()
    if args.check:
        current = PAGE.read_text(encoding="utf-8") if PAGE.is_file() else ""
        if current != render():
            print(
                f"{PAGE.relative_to(ROOT)}: stale — run `uv run python scripts/frameworks_doc.py`"
            )
            return 1
        return 0
    changed = write(PAGE)
    print(f"{PAGE.relative_to(ROOT)}: {'written' if changed else 'up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
