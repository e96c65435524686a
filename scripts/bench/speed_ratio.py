#!/usr/bin/env python3
"""Whole-process wall time of two commands on one puzzle file, pinned to one core.

usage: scripts/bench/speed_ratio.py RUNS FILE -- OURS... -- PEER...
Each command gets FILE as its last argument, its output discarded. One warm-up run each,
then RUNS interleaved pairs (interleaving and medians because the machines we measure on
are shared and noisy). Prints `OURS_SECONDS PEER_SECONDS RATIO OURS_PUZZLES_PER_SECOND`,
RATIO being peer time over ours: above 1 means ours is faster."""
import statistics
import subprocess
import sys
import time


def main():
    runs, path = int(sys.argv[1]), sys.argv[2]
    rest = sys.argv[3:]
    if not rest or rest[0] != "--" or "--" not in rest[1:]:
        sys.exit(__doc__)
    split = rest.index("--", 1)
    ours, peer = rest[1:split], rest[split + 1:]
    with open(path) as f:
        puzzles = sum(1 for line in f if line.strip() and not line.startswith("#"))

    def seconds(command):
        started = time.perf_counter()
        result = subprocess.run(["taskset", "-c", "1", *command, path],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if result.returncode != 0:
            sys.exit(f"{command[0]} exited {result.returncode} on {path}")
        return time.perf_counter() - started

    seconds(ours)
    seconds(peer)
    ours_times, peer_times = [], []
    for _ in range(runs):
        ours_times.append(seconds(ours))
        peer_times.append(seconds(peer))
    ours_median = statistics.median(ours_times)
    peer_median = statistics.median(peer_times)
    print(f"{ours_median:.3f} {peer_median:.3f} {peer_median / ours_median:.2f} "
          f"{puzzles / ours_median:.0f}")


if __name__ == "__main__":
    main()
