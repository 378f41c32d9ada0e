"""The Python package's goals, measured: a solve from Python against the command line's on the
README's board (same run, interleaved, median of 5), and the resident memory over 1,000 solves
of a 6x6 board in one process. Writes measure.json beside this file.

    python results/python/measure.py [EDGEMATCH_BINARY]     # from the repository's root, in the venv
"""

import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import edgematch

ROOT = Path(__file__).resolve().parents[2]
BOARD = ROOT / "models" / "planted-12x12-f5i17-s1.json"
binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target" / "release" / "edgematch")


def rss_kib():
    status = Path(f"/proc/{os.getpid()}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))


def cli_once():
    start = time.perf_counter()
    out = subprocess.run([binary, "solve", str(BOARD)], capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - start
    return wall, float(re.search(r"wall time: ([\d.]+) s", out).group(1))


def python_once():
    start = time.perf_counter()
    instance = edgematch.load(BOARD)
    result = edgematch.solve(instance)
    wall = time.perf_counter() - start
    assert result.status == "solved" and edgematch.verify(instance, result.board).valid
    return wall, result.seconds


cli, py = [], []
for _ in range(5):  # interleaved, so both see the same machine
    cli.append(cli_once())
    py.append(python_once())
median = lambda runs, k: statistics.median(r[k] for r in runs)
speed = {
    "board": str(BOARD.relative_to(ROOT)),
    "solver": "auto (default)",
    "cli_process_seconds": [round(r[0], 3) for r in cli],
    "cli_solve_seconds": [round(r[1], 3) for r in cli],
    "python_load_and_solve_seconds": [round(r[0], 3) for r in py],
    "python_solve_seconds": [round(r[1], 3) for r in py],
    "median_ratio_end_to_end": round(median(py, 0) / median(cli, 0), 3),
    "median_ratio_solve": round(median(py, 1) / median(cli, 1), 3),
}

small = edgematch.generate(6, frame_colours=3, interior_colours=4, seed=1)
for _ in range(10):  # warm up: first allocations, thread stacks, the library's caches
    edgematch.solve(small)
memory = {"solves": 1000, "board": "generate(6, frame_colours=3, interior_colours=4, seed=1)",
          "solver": "auto (default)", "rss_kib_after": []}
before = rss_kib()
for k in range(1, 1001):
    result = edgematch.solve(small)
    assert result.status == "solved" and result.board is not None
    if k % 100 == 0:
        memory["rss_kib_after"].append([k, rss_kib()])
memory["rss_kib_before"] = before
memory["growth_kib"] = memory["rss_kib_after"][-1][1] - before

commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                        capture_output=True, text=True).stdout.strip()
record = {"commit": commit, "ortools": edgematch.ORTOOLS_VERSION, "cores": os.cpu_count(),
          "python": sys.version.split()[0], "load_1min": os.getloadavg()[0],
          "speed": speed, "memory": memory}
out = Path(__file__).with_name("measure.json")
out.write_text(json.dumps(record, indent=2) + "\n")
print(json.dumps(record, indent=2))
