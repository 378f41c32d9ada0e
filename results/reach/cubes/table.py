#!/usr/bin/env python3
"""The cube table of results/reach/README.md, from the files run.sh and locate.sh keep.

    python3 results/reach/cubes/table.py BOARD [BOARD ...] > results/reach/cubes/table.md

Per board it reads results/reach/cubes/BOARD/cubes.json (each cube's estimated
tree), BOARD/tasks.txt (each array task's cubes, in the order the task solves
them), the result files of the cubes the array has run (measured nodes and CPU
seconds), and BOARD.solution-cube.json (the cube holding the planted solution,
solved alone by locate.sh). The rate of the projections is nodes per CPU
second of the cubes measured (the solution's cube included). The tasks whose
cubes were all refuted show whether the balance of the estimates holds in the
nodes walked (their heaviest over their mean).

Projections on P cores, one task per core at a time, in array order (Slurm
starts the next task when a core frees):
- to the solution: when the solution's task starts, plus the cubes dealt to it
  before the solution's cube, plus that cube's measured time to the solution;
- the whole array (a board without a solution, or to prove there is no other).
A task's time is its cubes' measured nodes where measured, else estimated, over
the rate. Startup (a process and its instance per cube, about 10 ms) is left out.
"""

import heapq
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORES = (2, 64, 256)


def load(board):
    folder = os.path.join(HERE, board)
    manifest = json.load(open(os.path.join(folder, "cubes.json")))
    tasks = [[int(w) - 1 for w in line.split()] for line in open(os.path.join(folder, "tasks.txt"))]
    measured = {}
    for name in os.listdir(folder):
        if name.endswith(".result.json"):
            result = json.load(open(os.path.join(folder, name)))
            if result["status"] in ("solved", "infeasible") and "nodes" in result:
                measured[result["cube"] - 1] = result
    solution = json.load(open(os.path.join(HERE, board + ".solution-cube.json")))
    return manifest, tasks, measured, solution


def schedule(durations, cores):
    """Start times of tasks run in order on `cores` cores (list scheduling), and the end of the last."""
    free = [0.0] * min(cores, len(durations))
    heapq.heapify(free)
    starts = []
    for d in durations:
        t = heapq.heappop(free)
        starts.append(t)
        heapq.heappush(free, t + d)
    return starts, max(free)


def row(board):
    manifest, tasks, measured, solution = load(board)
    estimates = manifest["estimates"]
    s_cube = solution["cube"] - 1
    runs = list(measured.values()) + [solution]
    rate = sum(r["nodes"] for r in runs) / sum(r["cpu_seconds"] for r in runs)
    exhausted = [c for c, r in measured.items() if r["status"] == "infeasible"]
    est_of_measured = sum(estimates[c] for c in exhausted)
    nodes_of_measured = sum(measured[c]["nodes"] for c in exhausted)

    def nodes(c):
        return measured[c]["nodes"] if c in exhausted else estimates[c]

    durations = [sum(nodes(c) for c in task) / rate for task in tasks]
    s_task = next(k for k, task in enumerate(tasks) if s_cube in task)
    before = tasks[s_task][: tasks[s_task].index(s_cube)]
    within = sum(nodes(c) for c in before) / rate + solution["cpu_seconds"]
    loads = [sum(estimates[c] for c in task) for task in tasks]
    # The tasks whose every cube was refuted: how even their measured work is.
    done = [sum(measured[c]["nodes"] for c in task) for task in tasks if all(c in exhausted for c in task)]
    out = {
        "board": board,
        "cubes": len(estimates),
        "tasks": len(tasks),
        "total": sum(estimates),
        "heaviest_cube": max(estimates),
        "spread": max(loads) / (sum(loads) / len(loads)),
        "measured": len(exhausted),
        "measured_ratio": nodes_of_measured / est_of_measured if est_of_measured else None,
        "tasks_done": len(done),
        "done_spread": max(done) / (sum(done) / len(done)) if done else None,
        "rate": rate,
        "solution_cube": s_cube + 1,
        "solution_task": s_task + 1,
        "solution_position": len(before) + 1,
        "solution_estimate": estimates[s_cube],
        "solution_status": solution["status"],
        "solution_nodes": solution["nodes"],
        "solution_cpu": solution["cpu_seconds"],
        "cpu_whole": sum(durations),
    }
    for p in CORES:
        starts, end = schedule(durations, p)
        out[f"to_solution_{p}"] = starts[s_task] + within
        out[f"whole_{p}"] = end
    return out


def seconds(s):
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:.1f} h"


def main(boards):
    rows = [row(b) for b in boards]
    print("| board | cubes / tasks | estimated tree (sum of cubes) | heaviest cube | heaviest task / mean |"
          " cubes measured: measured / estimated nodes | tasks measured: heaviest / mean (nodes) |"
          " nodes per CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        ratio = "—" if r["measured_ratio"] is None else f"{r['measured']}: {r['measured_ratio']:.2f}"
        even = "—" if r["done_spread"] is None else f"{r['tasks_done']}: {r['done_spread']:.2f}"
        print(f"| {r['board']} | {r['cubes']} / {r['tasks']} | {r['total']:.2e} | {r['heaviest_cube']:.2e} |"
              f" {r['spread']:.2f} | {ratio} | {even} | {r['rate']:.2e} |")
    print()
    print("| board | solution's cube (task, place in it) | its estimate | measured to the solution |"
          " CPU, whole array | to the solution on 2 / 64 / 256 cores | whole array on 2 / 64 / 256 cores |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        found = f"{r['solution_nodes']:.2e} nodes, {r['solution_cpu']:.1f} CPU s ({r['solution_status']})"
        to = " / ".join(seconds(r[f"to_solution_{p}"]) for p in CORES)
        whole = " / ".join(seconds(r[f"whole_{p}"]) for p in CORES)
        print(f"| {r['board']} | {r['solution_cube']} (task {r['solution_task']}, cube {r['solution_position']})"
              f" | {r['solution_estimate']:.2e} | {found} | {seconds(r['cpu_whole'])} | {to} | {whole} |")


if __name__ == "__main__":
    main(sys.argv[1:] or ["planted-13x13-f5i17-s1"])
