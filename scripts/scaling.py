#!/usr/bin/env python3
"""Whole-process wall time of `solve -t 1` against `solve -t 2`, per puzzle file.

usage: scripts/scaling.py BINARY FILE... RUNS
       scripts/scaling.py BINARY all RUNS      (every set in data/puzzles)
For each file, runs the two interleaved (after one warm-up each), RUNS times, and prints
the medians and their ratio: `FILE t1 SECONDS t2 SECONDS scaling RATIO`, after a first line
with the machine's load. Interleaving and medians because the machines we measure on are
shared and noisy; with other work on the machine a second core is not free, and the figure
says little.

The binary is timed from a copy in a temporary folder, as an installed binary is: the file
the linker wrote starts about 0.1 ms slower than a byte-identical copy of it (BENCHMARKS.md,
"the process around a small file"), which is the page cache's state, not the program."""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def every_set():
    folder = os.path.join(ROOT, "data", "puzzles")
    return [os.path.join(folder, name) for name in sorted(os.listdir(folder))
            if not name.endswith((".md", ".ratings"))]


def scaling(binary, path, runs):
    def seconds(threads):
        started = time.perf_counter()
        subprocess.run([binary, "solve", "-t", str(threads), path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return time.perf_counter() - started

    times = {1: [], 2: []}
    seconds(1)
    seconds(2)
    for _ in range(runs):
        for threads in (1, 2):
            times[threads].append(seconds(threads))
    return statistics.median(times[1]), statistics.median(times[2])


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
            one, two = scaling(installed, path, runs)
            print(f"{os.path.basename(path)} t1 {one:.4f} t2 {two:.4f} scaling {one / two:.3f}",
                  flush=True)


if __name__ == "__main__":
    main()
