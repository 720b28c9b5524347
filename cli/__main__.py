"""`python -m cli …`: the same as the installed `kb` script."""

import sys

from cli.main import main

sys.exit(main())
