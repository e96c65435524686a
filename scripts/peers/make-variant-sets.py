#!/usr/bin/env python3
"""Writes the committed sets of other sizes and variants (data/variants/) from a running
service's GET /generate, seeds 1 to N of each kind, as JSON lines {"board", "rules"} (rules
omitted for classic boxes). The sets are then checked by CP-SAT with
`cpsat-oracle.py URL --set data/variants/*.jsonl`, which must count one solution for each.

usage: make-variant-sets.py URL [--count N] [--out DIR] [--kinds NAME...]
"""

import argparse
import json
import os
import sys
import urllib.request

KINDS = [("size=4", "4x4"), ("size=6", "6x6"), ("size=8", "8x8"), ("size=10", "10x10"),
         ("size=12", "12x12"), ("size=15", "15x15"), ("size=16", "16x16"),
         ("size=20", "20x20"), ("size=25", "25x25"), ("variant=jigsaw", "jigsaw"),
         ("variant=killer", "killer"), ("variant=diagonal", "diagonal"),
         ("variant=windoku", "windoku")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--out", default="data/variants")
    parser.add_argument("--kinds", nargs="+", metavar="NAME",
                        help="only these sets (e.g. 25x25 killer); all when left out")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for query, name in KINDS:
        if args.kinds and name not in args.kinds:
            continue
        path = os.path.join(args.out, f"generated_{name}.jsonl")
        with open(path, "w", encoding="utf-8") as out:
            out.write(f"# {args.count} puzzles from GET /generate?{query}&seed=1..{args.count}, "
                      "each with one solution as OR-tools CP-SAT counts\n")
            for seed in range(1, args.count + 1):
                with urllib.request.urlopen(f"{args.url}/generate?{query}&seed={seed}", timeout=600) as r:
                    answer = json.load(r)
                entry = {"board": answer["puzzle"]}
                if "rules" in answer:
                    entry["rules"] = answer["rules"]
                out.write(json.dumps(entry, separators=(",", ":")) + "\n")
        print(f"{path}: {args.count} puzzles", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
