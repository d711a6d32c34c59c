"""``python -m evaluation.core``: see :mod:`evaluation.core.cli`."""

import sys

from evaluation.core.cli import main

if __name__ == "__main__":
    sys.exit(main())
