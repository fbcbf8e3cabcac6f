"""`python -m docgen`: the same as the `docgen` command."""

import sys

from docgen.cli import main

if __name__ == "__main__":
    sys.exit(main())
