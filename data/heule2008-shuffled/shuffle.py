"""Heule's eight instances with their piece lines shuffled and each piece turned.

The files in ../heule2008/ list the pieces in the order of a solution, row by row,
each unturned: a solver that tries pieces in input order (CaDiCaL's "lucky" phase
assigns variables in index order) finds that board without a single conflict.
This script writes the same piece sets in a random order, each piece given a
random number of quarter turns (a cyclic shift of its N E S W colours), so that
the order carries no hint. Run from this folder: python3 shuffle.py
"""

import pathlib
import random

SEED = 7
here = pathlib.Path(__file__).resolve().parent
for source in sorted((here.parent / "heule2008").glob("em_*.txt")):
    lines = source.read_text().splitlines()
    header = [line for line in lines if line.startswith("#")]
    pieces = [line.split() for line in lines if line.strip() and not line.startswith("#")]
    rng = random.Random(SEED)
    rng.shuffle(pieces)
    turned = []
    for colours in pieces:
        k = rng.randrange(4)
        turned.append(" ".join(colours[k:] + colours[:k]))
    note = [
        f"# Derived by data/heule2008-shuffled/shuffle.py (seed {SEED}) from data/heule2008/{source.name}:",
        "# the same pieces, in a shuffled order, each turned by a random number of quarter turns.",
    ]
    (here / source.name).write_text("\n".join(header + note + turned) + "\n")
