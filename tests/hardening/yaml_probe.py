"""Child process for the YAML bomb tests: parse one file, report line, message, time, memory.

Run with an address-space limit so a bomb that gets through cannot take the machine.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

from kb.frontmatter import FrontmatterError, parse_markdown


def main() -> None:
    text = Path(sys.argv[1]).read_text(encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    try:
        parse_markdown(text)
        line, message = None, "accepted"
    except FrontmatterError as exc:
        line, message = exc.line, exc.message
    seconds = time.perf_counter() - started
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    print(json.dumps({"line": line, "message": message, "seconds": seconds, "mb": grown_mb}))


if __name__ == "__main__":
    main()
