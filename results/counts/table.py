#!/usr/bin/env python3
"""The table of results/counts/README.md from counts.jsonl: one row per board,
counted (solutions, up to symmetry, nodes, time) or out of reach (the
estimator's tree, hours on 64 cores); planted boards beside the first-moment
estimate of their solutions (results/reach/first_moment.py). The tree column
says which tree the nodes are of: the field's plain row scan, or the variant
the count picked (the board turned a quarter, a corner piece fixed).

    python3 results/counts/table.py results/counts/counts.jsonl
"""

import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reach"))
import first_moment  # noqa: E402


def tree(run):
    """The tree the nodes are of, in a word (the first run's rows walked the plain one and did not say)."""
    name = run.get("tree", "row scan (the field's plain tree)")
    if "corner piece" in name:
        return "corner fixed"
    if "turned" in name:
        return "turned"
    return "plain"


def order(run):
    """Brendan's boards, then the planted ones, each by width, height and the rest of the name."""
    kind, size, *rest = run["board"].split("-", 2)
    width, height = (int(n) for n in size.split("x"))
    return (kind, width, height, rest)


def row(run):
    board, ended = run["board"], run["ended"]
    if ended == "out_of_reach":
        return (f"| {board} | — | — | {run['estimated_nodes']:.2e} (estimate) | {tree(run)} | — | "
                f"{run['projected_hours_on_64_cores'] * 60:.3g} min on 64 cores (projected) | — | {run['commit']} |")
    expected = "—"
    if board.startswith("planted"):
        _, log_e = first_moment.estimate(run["file"])
        # The estimate counts the boards besides the planted one.
        others = run["solutions"] - 1
        observed = f"10^{math.log10(others):+.1f}" if others > 0 else "none"
        expected = f"10^{log_e:+.1f} (counted: {observed})"
    exact = "" if ended == "complete" else f" ({ended}: at least)"
    return (f"| {board} | {run['solutions']}{exact} | {run['unique']} | {run['nodes']:,} | {tree(run)} | "
            f"{run['seconds']:.1f} s | {run['nodes'] / max(run['seconds'], 1e-9) / 1e6:.0f} M/s | {expected} | {run['commit']} |")


def main():
    # A board's last line wins: a count after an earlier run's estimate.
    runs = list({run["board"]: run for run in (json.loads(line) for line in open(sys.argv[1]) if line.strip())}.values())
    runs.sort(key=order)
    print("| board | solutions | up to symmetry | nodes | tree | time | rate | first-moment estimate (others) | commit |")
    print("|---|---|---|---|---|---|---|---|---|")
    for run in runs:
        print(row(run))


if __name__ == "__main__":
    main()
