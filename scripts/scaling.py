#!/usr/bin/env python3
"""Whole-process wall time of `solve -t 1` against `solve -t 2` on one puzzle file.

usage: scripts/scaling.py BINARY FILE RUNS
Runs the two interleaved (after one warm-up each), RUNS times, and prints the medians and
their ratio: `t1 SECONDS t2 SECONDS scaling RATIO`. Interleaving and medians because the
machines we measure on are shared and noisy."""
import statistics
import subprocess
import sys
import time


def main():
    binary, path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

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
    one, two = statistics.median(times[1]), statistics.median(times[2])
    print(f"t1 {one:.4f} t2 {two:.4f} scaling {one / two:.3f}")


if __name__ == "__main__":
    main()
