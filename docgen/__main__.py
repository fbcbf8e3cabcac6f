"""`python -m docgen`: the same as the `docgen` command."""

from docgen.cli import main_entry

if __name__ == "__main__":
    main_entry()
