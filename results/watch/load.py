"""The live page under load: the score walk's placements per second with 50 clients on the page
against none (and against no page at all), and how long after the run prints a new best each
client has it. Runs alternate arm by arm, repetition by repetition. Writes load.json (or
--out) beside this file and prints the README's table.

    python3 results/watch/load.py [--reps N] [--seconds S] [--clients C] [--out F] [EDGEMATCH_BINARY]

from the repository's root (standard library only). Every run is

    edgematch solve models/planted-12x12-f5i17-s1.json --objective score --solver search \\
      --walk budget --no-tileable --breaks ramp:0.2:200 --time-limit S --seed 3 [--watch]

(a loose break budget, so new bests come every few seconds, some a few ms apart); the arms are
`off` (no --watch), `page` (--watch, no client) and `clients` (--watch, C clients reading
/events from before the walk starts to the run's end). The rate is the `nodes_per_second`
line solve prints (placements over the run's wall time); beside it, placements per CPU
second of the whole process (its `nodes` line over the user and system time of all its
threads, the page's included), which the other work on the machine disturbs less; a best's latency is, per client, the time
its first event with that score in `history` arrived minus the time the `best:` line was read
from the run's standard output, both on this script's monotonic clock (the feed is told before
the line is printed, and this script's 50 reader threads can delay its reading of that line,
so a latency can be below zero). A second figure leaves this script's reading out: the time
(Unix clock) a client had the best minus when the feed stored it (the state's
`started_unix` plus the best's `seconds` in `history`).
"""

import argparse
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOARD = "models/planted-12x12-f5i17-s1.json"
WALK = ["--objective", "score", "--solver", "search", "--walk", "budget", "--no-tileable",
        "--breaks", "ramp:0.2:200", "--seed", "3"]


class Client(threading.Thread):
    """One reader of /events (HTTP/1.0: a plain stream): when each score first reached it."""

    def __init__(self, address):
        super().__init__(daemon=True)
        self.address = address
        self.first_seen = {}
        self.feed_delay = {}
        self.connected = threading.Event()
        self.done = threading.Event()

    def run(self):
        host, port = self.address.rsplit(":", 1)
        with socket.create_connection((host, int(port))) as sock:
            sock.sendall(f"GET /events HTTP/1.0\r\nHost: {self.address}\r\n\r\n".encode())
            stream = sock.makefile("rb")
            event = None
            for raw in stream:
                line = raw.decode()
                if line.startswith("event: "):
                    event = line[7:].strip()
                elif line.startswith("data: ") and event == "state":
                    self.state(json.loads(line[6:]), time.monotonic())
                if self.done.is_set():
                    return

    def state(self, state, now):
        self.connected.set()
        for seconds, score in state["history"]:
            if score not in self.first_seen:
                self.first_seen[score] = now
                self.feed_delay[score] = time.time() - (state["started_unix"] + seconds)
        if state["status"] not in ("starting", "running"):
            self.done.set()


def load_average():
    return float(Path("/proc/loadavg").read_text().split()[0])


def start(binary, seconds, watch):
    args = [binary, "solve", BOARD, *WALK, "--time-limit", str(seconds)] + (["--watch"] if watch else [])
    return subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def page_address(run):
    for line in run.stderr:
        match = re.match(r"watch: http://(\S+)/", line)
        if match:
            threading.Thread(target=run.stderr.read, daemon=True).start()
            return match.group(1)
    raise RuntimeError("the run printed no page address")


def read_output(run):
    """The run's output up to its statistics: best scores with when each line was read, nodes, and the rate."""
    bests, nodes = [], None
    for line in run.stdout:
        if line.startswith("best: "):
            bests.append((int(line[6:].split("/")[0]), time.monotonic()))
        elif line.startswith("nodes: "):
            nodes = int(line.split()[1])
        elif line.startswith("nodes_per_second: "):
            return bests, nodes, float(line.split()[1])
    raise RuntimeError("the run printed no nodes_per_second line")


def cpu_seconds(run):
    """Waits for `run`; its user and system CPU seconds (every thread: the walk's and the page's)."""
    _, status, usage = os.wait4(run.pid, 0)
    run.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


def one_run(binary, arm, seconds, clients):
    load = load_average()
    readers_cpu = time.process_time()
    run = start(binary, seconds, arm != "off")
    readers = []
    if arm != "off":
        address = page_address(run)
        readers = [Client(address) for _ in range(clients if arm == "clients" else 0)]
        for reader in readers:
            reader.start()
    bests, nodes, rate = read_output(run)
    for reader in readers:
        reader.done.wait(timeout=30)
    if arm != "off":
        run.send_signal(signal.SIGINT)
    threading.Thread(target=run.stdout.read, daemon=True).start()
    cpu = cpu_seconds(run)
    readers_cpu = time.process_time() - readers_cpu
    latencies = [reader.first_seen[score] - at for reader in readers for score, at in bests
                 if score in reader.first_seen]
    feed_delays = [reader.feed_delay[score] for reader in readers for score, _ in bests if score in reader.feed_delay]
    missed = sum(1 for reader in readers for score, _ in bests if score not in reader.first_seen)
    return {"arm": arm, "load_before": load, "nodes_per_second": rate, "nodes": nodes, "cpu_seconds": cpu,
            "nodes_per_cpu_second": nodes / cpu,
            "script_cpu_seconds": readers_cpu, "bests": [b for b, _ in bests],
            "latencies": latencies, "feed_delays": feed_delays, "missed": missed, "clients": len(readers)}


def summary(runs):
    rows = []
    for arm in ("off", "page", "clients"):
        mine = [r for r in runs if r["arm"] == arm]
        rates = [r["nodes_per_second"] for r in mine]
        per_cpu = [r["nodes_per_cpu_second"] for r in mine]
        latencies = [x for r in mine for x in r["latencies"]]
        delays = [x for r in mine for x in r["feed_delays"]]
        rows.append({"arm": arm, "runs": len(mine), "median_rate": statistics.median(rates), "rates": rates,
                     "median_per_cpu": statistics.median(per_cpu),
                     "loads": [r["load_before"] for r in mine],
                     "latency_max": max(latencies) if latencies else None,
                     "latency_median": statistics.median(latencies) if latencies else None,
                     "feed_delay_max": max(delays) if delays else None,
                     "feed_delay_median": statistics.median(delays) if delays else None,
                     "deliveries": len(latencies), "missed": sum(r["missed"] for r in mine)})
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=str(ROOT / "target" / "release" / "edgematch"))
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--out", default="load.json", help="the file written beside this script")
    options = parser.parse_args()
    runs = []
    for rep in range(options.reps):
        for arm in ("off", "page", "clients"):
            runs.append(one_run(options.binary, arm, options.seconds, options.clients))
            print(f"rep {rep + 1} {arm}: {runs[-1]['nodes_per_second']:.0f}/s, load {runs[-1]['load_before']}",
                  flush=True)
    rows = summary(runs)
    page = next(r for r in rows if r["arm"] == "page")
    print("| arm | runs | placements/s, median (against `page`) | placements per CPU-second, median (against `page`) "
          "| latency from the printed line, median / max (s) | from the feed's store, median / max (s) | bests missed |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        latency = "-" if r["latency_max"] is None else f"{r['latency_median']:.3f} / {r['latency_max']:.3f}"
        delay = "-" if r["feed_delay_max"] is None else f"{r['feed_delay_median']:.3f} / {r['feed_delay_max']:.3f}"
        print(f"| {r['arm']} | {r['runs']} | {r['median_rate']:,.0f} ({r['median_rate'] / page['median_rate']:.3f}) "
              f"| {r['median_per_cpu']:,.0f} ({r['median_per_cpu'] / page['median_per_cpu']:.3f}) | {latency} | {delay} "
              f"| {r['missed']} of {r['deliveries'] + r['missed']} |")
    out = {"command": "python3 results/watch/load.py " + " ".join(
               f"--{k} {v}" for k, v in vars(options).items() if k != "binary"),
           "cores": os.cpu_count(), "summary": rows, "runs": runs}
    (Path(__file__).parent / options.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
