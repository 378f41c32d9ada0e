"""Reference solver: the seed's Element model in OR-Tools' own Python CP-SAT.

Usage: python element.py INSTANCE.json TIME_LIMIT_SECONDS [WORKERS]

INSTANCE.json is an `edgematch-instance/1` file (pieces are the colours on
N, E, S, W; clue pieces are 1-based). A time limit of 0 or less means none.

Model, per cell c (row-major from the top-left):
  piece[c]             over the pieces, all different across cells;
  rot[c]               in 0..=3 (clockwise quarter turns);
  index[c] = 4*piece[c] + rot[c];
  side[c][s] = table_s[index[c]] for s in N, E, S, W (four Element constraints
               over constant tables, table_s[4p + r] = piece p's colour on
               side s when turned r times: p[(s - r) mod 4]);
  side[c][s] == side[c'][s'] across each inner join, inner sides in 1..=max,
  rim sides grey (0);
  clues fix piece and rotation.
Domains are pre-filtered by the rim: a cell's index ranges only over the
(piece, rotation) pairs showing grey exactly on its rim sides (the clue's pair
on a clue cell). A decision problem, no objective.

Prints one JSON line on stdout:
  {"status": "OPTIMAL"|"FEASIBLE"|"INFEASIBLE"|"UNKNOWN"|..., "cells": [[piece0, rot], ...] or null}
with 0-based pieces.
"""

import json
import sys

from ortools.sat.python import cp_model


def main() -> None:
    path = sys.argv[1]
    time_limit = float(sys.argv[2])
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    with open(path, encoding="utf-8") as f:
        inst = json.load(f)
    width, height = inst["width"], inst["height"]
    pieces = inst["pieces"]
    n = len(pieces)
    clues = {inst_clue["row"] * width + inst_clue["col"]: (inst_clue["piece"] - 1, inst_clue["rotation"])
             for inst_clue in inst.get("clues", [])}
    max_colour = max(1, max(c for p in pieces for c in p))

    def shown(p: int, r: int) -> list:
        return [pieces[p][(s - r) % 4] for s in range(4)]

    tables = [[shown(k // 4, k % 4)[s] for k in range(4 * n)] for s in range(4)]

    model = cp_model.CpModel()
    piece_vars, rot_vars, side_vars = [], [], []
    for cell in range(width * height):
        row, col = divmod(cell, width)
        rim = [row == 0, col == width - 1, row == height - 1, col == 0]
        if cell in clues:
            indices = [4 * clues[cell][0] + clues[cell][1]]
        else:
            indices = [4 * p + r for p in range(n) for r in range(4)
                       if all((c == 0) == rim[s] for s, c in enumerate(shown(p, r)))]
        piece = model.new_int_var_from_domain(
            cp_model.Domain.from_values(sorted({k // 4 for k in indices})), f"piece_{row}_{col}")
        rot = model.new_int_var_from_domain(
            cp_model.Domain.from_values(sorted({k % 4 for k in indices})), f"rot_{row}_{col}")
        index = model.new_int_var_from_domain(cp_model.Domain.from_values(indices), f"index_{row}_{col}")
        model.add(index == 4 * piece + rot)
        sides = []
        for s in range(4):
            lo, hi = (0, 0) if rim[s] else (1, max_colour)
            side = model.new_int_var(lo, hi, f"side_{row}_{col}_{'NESW'[s]}")
            model.add_element(index, tables[s], side)
            sides.append(side)
        piece_vars.append(piece)
        rot_vars.append(rot)
        side_vars.append(sides)

    for cell in range(width * height):
        row, col = divmod(cell, width)
        if col + 1 < width:
            model.add(side_vars[cell][1] == side_vars[cell + 1][3])
        if row + 1 < height:
            model.add(side_vars[cell][2] == side_vars[cell + width][0])
    model.add_all_different(piece_vars)

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    if time_limit > 0:
        solver.parameters.max_time_in_seconds = time_limit
    status = solver.solve(model)
    cells = None
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        cells = [[solver.value(p), solver.value(r)] for p, r in zip(piece_vars, rot_vars)]
    print(json.dumps({"status": solver.status_name(status), "cells": cells}), flush=True)


if __name__ == "__main__":
    main()
