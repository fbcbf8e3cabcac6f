"""`python -m docgen`: the same as the `docgen` command."""

from docgen.fastcheck import entry

if __name__ == "__main__":
    entry()
