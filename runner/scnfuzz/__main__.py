"""`python3 -m scnfuzz` and the installed `scnfuzz` command (pyproject.toml)."""
import sys


def run():
    from . import tree
    if not tree.is_tree(tree.ROOT):
        sys.stderr.write("scnfuzz: no scnfuzz source tree in the current directory or above it: "
                         "run it inside a checkout, or set SCN_ROOT\n")
        return 2
    from .cli import main
    return main()


if __name__ == "__main__":
    sys.exit(run())
