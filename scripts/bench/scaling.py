#!/usr/bin/env python3
"""Whole-process wall time of `solve -t 1` against `solve -t 2`, per puzzle file.

usage: scripts/bench/scaling.py BINARY FILE... RUNS
       scripts/bench/scaling.py BINARY all RUNS      (every set in data/puzzles)
For each file, runs the two interleaved (after one warm-up each), RUNS times, and prints
the medians and their ratio: `FILE t1 SECONDS t2 SECONDS scaling RATIO`, after a first line
with the machine's load; then the same from the command's own clock (its summary line),
which leaves out what every process pays to start and exit (BENCHMARKS.md, "the process
around a small file"). Interleaving and medians because the machines we measure on are
shared and noisy; with other work on the machine a second core is not free, and the figure
says little.

The binary is timed from a copy in a temporary folder, as an installed binary is: the file
the linker wrote starts about 0.1 ms slower than a byte-identical copy of it (BENCHMARKS.md,
"the process around a small file"), which is the page cache's state, not the program."""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def every_set():
    folder = os.path.join(ROOT, "data", "puzzles")
    return [os.path.join(folder, name) for name in sorted(os.listdir(folder))
            if not name.endswith((".md", ".ratings"))]


def scaling(binary, path, runs):
    """Median whole-process seconds at one and two threads, and the median of each run's
    own clock (the command's summary line: from reading the first input to writing the
    last answer, without the process's start and exit)."""
    def seconds(threads):
        started = time.perf_counter()
        summary = subprocess.run([binary, "solve", "-t", str(threads), path],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                 check=True).stderr
        took = time.perf_counter() - started
        # The summary prints seconds to the millisecond; puzzles over its rate is finer.
        match = re.search(r"^(\d+) puzzles in [\d.]+ s \(([\d.]+) puzzles/s", summary, re.M)
        return took, int(match.group(1)) / float(match.group(2))

    times = {1: [], 2: []}
    seconds(1)
    seconds(2)
    for _ in range(runs):
        for threads in (1, 2):
            times[threads].append(seconds(threads))
    return [tuple(statistics.median(run[i] for run in times[threads]) for threads in (1, 2))
            for i in (0, 1)]


def main():
    if len(sys.argv) < 4 or not sys.argv[-1].isdigit():
        sys.exit(__doc__)
    binary, files, runs = sys.argv[1], sys.argv[2:-1], int(sys.argv[-1])
    if files == ["all"]:
        files = every_set()
    print("load: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        installed = shutil.copy2(binary, os.path.join(folder, os.path.basename(binary)))
        for path in files:
            (one, two), (own_one, own_two) = scaling(installed, path, runs)
            print(f"{os.path.basename(path)} t1 {one:.4f} t2 {two:.4f} scaling {one / two:.3f}"
                  f"  (the command's own clock: t1 {own_one:.4f} t2 {own_two:.4f}"
                  f" scaling {own_one / own_two:.3f})", flush=True)


if __name__ == "__main__":
    main()
