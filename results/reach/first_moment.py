#!/usr/bin/env python3
"""First-moment estimate of how many solutions a board of the planted kind has.

For a random set of pieces with the colour counts of a planted board, the
expected number of full solutions is

    (ways to lay the pieces: corners, edges, interior with its 4 turns)
  x (probability that every inner join matches, joins taken as independent)
  x (probability that every clue cell holds its piece, turned as given).

A join's probability of matching is the sum over colours of the squared share
of that colour among the half-edges that can meet there (frame colours between
two rim pieces, interior colours elsewhere), read from the instance file. A
planted board has its planted solution plus, on average, this many others: far
below 1 the solution is unique and a complete search must walk, on average,
half of its order's tree to reach it; far above 1 the first of many is found
early. Run from the repository root:

    python3 results/reach/first_moment.py models/planted-1[0-6]x*-f5i*-s1.json
"""

import json
import math
import sys
from collections import Counter


def log10_factorial(n):
    return math.lgamma(n + 1) / math.log(10)


def estimate(path):
    inst = json.load(open(path))
    n, m = inst["width"], inst["height"]
    frame = inst["colours"]["frame"]
    pieces = inst["pieces"]
    # Half-edges by colour, split into frame colours (1..frame) and interior colours.
    sides = Counter(c for p in pieces for c in p if c != 0)
    frame_sides = {c: k for c, k in sides.items() if c <= frame}
    inner_sides = {c: k for c, k in sides.items() if c > frame}

    def match(counts):
        total = sum(counts.values())
        return sum((k / total) ** 2 for k in counts.values())

    corners = 4
    edges = 2 * (n - 2) + 2 * (m - 2)
    interior = (n - 2) * (m - 2)
    log_ways = log10_factorial(corners) + log10_factorial(edges) + log10_factorial(interior) + interior * math.log10(4)
    rim_joins = 2 * (n - 1) + 2 * (m - 1)  # between neighbouring rim cells, round the frame
    inner_joins = 2 * n * m - n - m - rim_joins
    log_match = rim_joins * math.log10(match(frame_sides)) + inner_joins * math.log10(match(inner_sides))
    # A clue holds its piece with probability 1 / (cells of its kind x turns).
    log_clues = 0.0
    for clue in inst["clues"]:
        r, c = clue["row"], clue["col"]
        on_rim = r in (0, m - 1) or c in (0, n - 1)
        log_clues -= math.log10(edges if on_rim else 4 * interior)
    return inst["name"], log_ways + log_match + log_clues


def main():
    print("| board | log10 expected solutions besides the planted one |")
    print("|---|---|")
    for path in sys.argv[1:]:
        name, log_e = estimate(path)
        print(f"| {name} | {log_e:+.1f} |")


if __name__ == "__main__":
    main()
