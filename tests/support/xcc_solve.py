"""Solve an XCC file in dlx2's input format with the `xcover` package (an
independent exact-cover-with-colours solver) and print the chosen options,
one a line, or `UNSAT`. Used by tests/encodings.rs to cross-check `encode xcc`."""
import sys

from xcover import covers


def main(path):
    lines = [l.strip() for l in open(path) if l.strip() and not l.startswith("|")]
    primary, secondary = lines[0].split("|")
    options = [l.split() for l in lines[1:]]
    for solution in covers(options, primary=primary.split(), secondary=secondary.split(), colored=True):
        for i in solution:
            print(" ".join(options[i]))
        return
    print("UNSAT")


if __name__ == "__main__":
    main(sys.argv[1])
