#!/usr/bin/env python3
"""The service's general engine against Google OR-tools CP-SAT, an independent solver.

Makes seeded random boards of several sides under random mixes of the variant rules
(jigsaw regions, diagonals, windoku, killer cages, anti-knight, anti-king, odd and even
cells, thermometers), built around a known solution so that some have one solution, some
several and some none, and asks the running service (`POST /solve` and `POST /validate`)
about each. CP-SAT, modelling the same rules, counts each board's solutions up to two.
Fails when a count differs or when a solution of the service breaks a rule (checked by
CP-SAT with the solution fixed). A board the service gives up on (503 `search_limit`, its
safety net) is no wrong answer but is listed, and more than one in a hundred fails the run.

With --timing, also prints how long each side took per board (median, 90th percentile and
worst): CP-SAT's wall time to count to two in this process (one worker), and the service's
`/solve` round trip on 127.0.0.1, which includes HTTP and JSON both ways.

With --set FILE..., first asks about every board of each file (lines of N*N characters,
or JSON lines {"board", "rules"}; `#` lines skipped), each counted by both sides, and prints
per file both sides' median, 90th percentile and worst time and the ratio of the medians
(CP-SAT's over ours: above 1 means ours is faster). A board CP-SAT cannot count within
--cpsat-seconds is listed and left out of the comparison.

usage: cpsat-oracle.py URL [--cases N] [--seed S] [--verbose] [--timing]
       cpsat-oracle.py URL --set FILE... [--cpsat-seconds S] [--cases 0]
"""

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request

from ortools.sat.python import cp_model

DIGITS = "123456789ABCDEFGHIJKLMNOP"
BOXES = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 12: (3, 4), 16: (4, 4)}
KNIGHT = [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)]
KING = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def groups(size, rules):
    """Every group of cells whose digits differ, as lists of (row, col)."""
    found = [[(r, c) for c in range(size)] for r in range(size)]
    found += [[(r, c) for r in range(size)] for c in range(size)]
    if "regions" in rules:
        members = {}
        for r, row in enumerate(rules["regions"]):
            for c, region in enumerate(row):
                members.setdefault(region, []).append((r, c))
        found += list(members.values())
    else:
        rows, cols = BOXES[size]
        for top in range(0, size, rows):
            for left in range(0, size, cols):
                found.append([(top + i // cols, left + i % cols) for i in range(size)])
    if "main" in rules.get("diagonals", []):
        found.append([(i, i) for i in range(size)])
    if "anti" in rules.get("diagonals", []):
        found.append([(i, size - 1 - i) for i in range(size)])
    for region in rules.get("extra_regions", []):
        found.append([(c["row"], c["col"]) for c in region])
    for cage in rules.get("cages", []):
        found.append([(c["row"], c["col"]) for c in cage["cells"]])
    return found


def model(size, board, rules, fixed=None):
    """The CP-SAT model of a board (a string, '.' empty) under its rules."""
    m = cp_model.CpModel()
    x = {(r, c): m.NewIntVar(1, size, f"x{r}_{c}") for r in range(size) for c in range(size)}
    for group in groups(size, rules):
        m.AddAllDifferent([x[cell] for cell in group])
    for cage in rules.get("cages", []):
        if "sum" in cage:
            m.Add(sum(x[(c["row"], c["col"])] for c in cage["cells"]) == cage["sum"])
    for flag, moves in (("anti_knight", KNIGHT), ("anti_king", KING)):
        if rules.get(flag):
            for (r, c), var in x.items():
                for dr, dc in moves:
                    other = (r + dr, c + dc)
                    if other in x and other > (r, c):
                        m.Add(var != x[other])
    for name, remainder in (("odd", 1), ("even", 0)):
        for cell in rules.get(name, []):
            half = m.NewIntVar(0, size, f"half_{name}_{cell['row']}_{cell['col']}")
            m.Add(x[(cell["row"], cell["col"])] == 2 * half + remainder)
    for thermometer in rules.get("thermometers", []):
        for a, b in zip(thermometer, thermometer[1:]):
            m.Add(x[(a["row"], a["col"])] < x[(b["row"], b["col"])])
    for i, ch in enumerate(fixed or board):
        if ch != ".":
            m.Add(x[divmod(i, size)] == DIGITS.index(ch.upper()) + 1)
    return m, x


class Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self, x, size, limit):
        super().__init__()
        self.x, self.size, self.limit, self.found = x, size, limit, []

    def on_solution_callback(self):
        self.found.append("".join(DIGITS[self.Value(self.x[divmod(i, self.size)]) - 1]
                                  for i in range(self.size * self.size)))
        if len(self.found) >= self.limit:
            self.StopSearch()


def count(size, board, rules, limit=2, times=None, seconds=60.0):
    """CP-SAT's solutions of a board, up to `limit`; None when it ran out of time first."""
    started = time.perf_counter()
    m, x = model(size, board, rules)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = seconds
    counter = Counter(x, size, limit)
    status = solver.Solve(m, counter)
    if times is not None:
        times.append(time.perf_counter() - started)
    if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and len(counter.found) < limit:
        return None
    return counter.found


def keeps_the_rules(size, board, rules, solution):
    m, _ = model(size, board, rules, fixed=solution)
    return cp_model.CpSolver().Solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def cell(r, c):
    return {"row": r, "col": c}


def random_case(rng):
    """A side, rules and a board made around a solution of those rules."""
    size = rng.choice([4, 6, 6, 8, 9, 9, 9, 12])
    rules = {}
    if rng.random() < 0.2:
        # Jigsaw: regions grown from seeds, so that they are connected like real ones.
        rules["regions"] = grown_regions(rng, size)
    if rng.random() < 0.3:
        rules["diagonals"] = rng.sample(["main", "anti"], rng.randint(1, 2))
    if size == 9 and "regions" not in rules and rng.random() < 0.2:
        rules["extra_regions"] = [[cell(top + i // 3, left + i % 3) for i in range(9)]
                                  for top, left in ((1, 1), (1, 5), (5, 1), (5, 5))]
    # The chess rules on the classic 9x9 only, where solutions are known to exist: proving
    # that a random mix has none can take any solver long.
    if size == 9 and "regions" not in rules and rng.random() < 0.15:
        rules["anti_knight"] = True
    if size == 9 and "regions" not in rules and rng.random() < 0.08:
        rules["anti_king"] = True
    base = count(size, "." * size * size, rules, limit=1)
    if not base:
        return size, rules, "." * size * size  # rules with no solution at all: still a case
    # Relabelling the digits keeps every rule so far: a random solution of them.
    labels = list(DIGITS[:size])
    rng.shuffle(labels)
    solution = "".join(labels[DIGITS.index(ch)] for ch in base[0])
    value = lambda r, c: DIGITS.index(solution[r * size + c]) + 1
    free = [(r, c) for r in range(size) for c in range(size)]
    rng.shuffle(free)
    if size <= 9 and rng.random() < 0.5:
        cages = []
        for start in free[: rng.randint(1, size)]:
            cells = [start]
            while len(cells) < rng.randint(2, 4):
                r, c = rng.choice(cells)
                dr, dc = rng.choice([(0, 1), (1, 0), (0, -1), (-1, 0)])
                nxt = (r + dr, c + dc)
                # A cage's digits differ: a cell whose digit is in it already stays out.
                if (0 <= nxt[0] < size and 0 <= nxt[1] < size and nxt not in cells
                        and value(*nxt) not in [value(*cage_cell) for cage_cell in cells]):
                    cells.append(nxt)
                elif rng.random() < 0.3:
                    break
            used = {(c["row"], c["col"]) for cage in cages for c in cage["cells"]}
            if used & set(cells):
                continue
            cage = {"cells": [cell(r, c) for r, c in cells]}
            if rng.random() < 0.85:
                cage["sum"] = sum(value(r, c) for r, c in cells)
            cages.append(cage)
        rules["cages"] = cages
    if rng.random() < 0.3:
        for _ in range(rng.randint(1, 2)):
            r, c = rng.choice(free)
            path = [(r, c)]
            while len(path) < rng.randint(2, min(size, 5)):
                r, c = path[-1]
                steps = [(r + dr, c + dc) for dr, dc in KING
                         if 0 <= r + dr < size and 0 <= c + dc < size
                         and (r + dr, c + dc) not in path and value(r + dr, c + dc) > value(r, c)]
                if not steps:
                    break
                path.append(rng.choice(steps))
            if len(path) >= 2:
                rules.setdefault("thermometers", []).append([cell(r, c) for r, c in path])
    if rng.random() < 0.25:
        for r, c in free[: rng.randint(1, size)]:
            rules.setdefault("odd" if value(r, c) % 2 else "even", []).append(cell(r, c))
    keep = rng.uniform(0.05, 0.6)
    board = [ch if rng.random() < keep else "." for ch in solution]
    if rng.random() < 0.2:
        # A given changed: often no solution left, sometimes another one.
        i = rng.randrange(len(board))
        board[i] = rng.choice(DIGITS[:size])
    if rng.random() < 0.3:
        board = [ch.lower() for ch in board]
    return size, rules, "".join(board)


def grown_regions(rng, size):
    """Jigsaw regions: the boxes, with cells swapped across region borders while every
    region stays connected, as real jigsaw regions are."""
    rows, cols = BOXES[size]
    owner = {(r, c): (r // rows) * (size // cols) + c // cols for r in range(size) for c in range(size)}

    def connected(region):
        cells = {cell for cell, o in owner.items() if o == region}
        seen, todo = set(), [next(iter(cells))]
        while todo:
            r, c = todo.pop()
            if (r, c) in seen:
                continue
            seen.add((r, c))
            todo += [(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                     if (r + dr, c + dc) in cells]
        return len(seen) == len(cells)

    for _ in range(size * 12):
        a = (rng.randrange(size), rng.randrange(size))
        dr, dc = rng.choice([(0, 1), (1, 0)])
        b = (a[0] + dr, a[1] + dc)
        if b not in owner or owner[a] == owner[b]:
            continue
        # Swap a with a cell of b's region that touches a's region elsewhere.
        ra, rb = owner[a], owner[b]
        owner[a], owner[b] = rb, ra
        if not (connected(ra) and connected(rb)):
            owner[a], owner[b] = ra, rb
    return [[owner[(r, c)] for c in range(size)] for r in range(size)]


def post(url, path, body):
    request = urllib.request.Request(url + path, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def read_set(path):
    """The boards of a set file as (size, board string, rules)."""
    boards = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            entry = json.loads(line) if line.startswith("{") else {"board": line}
            board, rules = entry["board"], entry.get("rules", {})
            boards.append((round(len(board) ** 0.5), board, rules))
    return boards


def timing_summary(times):
    ordered = sorted(times)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000
    return pick(0.5), pick(0.9), ordered[-1] * 1000


def compare_sets(url, paths, seconds):
    """Both sides on every board of each set: agreement, then time. Exit status 1 on any
    disagreement."""
    disagreements = 0
    print("| set | boards | CP-SAT median / p90 / worst (ms) | ours median / p90 / worst (ms) | ratio of medians |")
    print("|---|---:|---:|---:|---:|")
    for path in paths:
        cpsat_times, service_times, skipped = [], [], 0
        for size, board, rules in read_set(path):
            BOXES.setdefault(size, next((r, size // r) for r in range(int(size ** 0.5), 0, -1) if size % r == 0))
            spent = []
            truth = count(size, board, rules, times=spent, seconds=seconds)
            asked = time.perf_counter()
            status, answer = post(url, "/solve", {"board": board, "rules": rules})
            ours = time.perf_counter() - asked
            if truth is None:
                skipped += 1
                print(f"CP-SAT undecided within {seconds} s (ours: {status}, {ours * 1000:.1f} ms): {board}",
                      file=sys.stderr)
                continue
            said = {200: "unique" if answer.get("unique") else "multiple", 422: "none"}.get(status)
            expected = ["none", "unique", "multiple"][len(truth)]
            if said != expected:
                disagreements += 1
                print(f"{path}: /solve answered {status} {said}, CP-SAT counts {expected}: {board}",
                      file=sys.stderr)
                continue
            cpsat_times.append(spent[0])
            service_times.append(ours)
        if not cpsat_times:
            print(f"| {path} | 0 (+{skipped} CP-SAT undecided) | | | |")
            continue
        c, o = timing_summary(cpsat_times), timing_summary(service_times)
        note = f" (+{skipped} CP-SAT undecided)" if skipped else ""
        print(f"| {path} | {len(cpsat_times)}{note} | {c[0]:.2f} / {c[1]:.2f} / {c[2]:.1f} | "
              f"{o[0]:.2f} / {o[1]:.2f} / {o[2]:.1f} | {c[0] / o[0]:.1f} |")
    return 1 if disagreements else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261204)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--timing", action="store_true")
    parser.add_argument("--set", nargs="+", metavar="FILE")
    parser.add_argument("--cpsat-seconds", type=float, default=60.0)
    args = parser.parse_args()
    sets_status = compare_sets(args.url, args.set, args.cpsat_seconds) if args.set else 0
    if args.cases == 0:
        return sets_status
    rng = random.Random(args.seed)
    tally = {"none": 0, "unique": 0, "multiple": 0}
    failures = []
    undecided = []
    cpsat_times, service_times = [], []
    started = time.time()
    for case in range(args.cases):
        size, rules, board = random_case(rng)
        truth = count(size, board, rules, times=cpsat_times)
        if truth is None:
            failures.append(f"case {case}: CP-SAT could not count it within 60 s")
            continue
        asked = time.perf_counter()
        status, answer = post(args.url, "/solve", {"board": board, "rules": rules})
        service_times.append(time.perf_counter() - asked)
        said = {200: "unique" if answer.get("unique") else "multiple", 422: "none"}.get(status)
        expected = ["none", "unique", "multiple"][len(truth)]
        tally[expected] += 1
        problem = None
        if status == 503 and answer.get("code") == "search_limit":
            undecided.append(f"case {case} ({size}x{size}), CP-SAT counts {expected}: "
                             f"{json.dumps({'board': board, 'rules': rules})}")
            continue
        if said != expected:
            problem = f"/solve answered {status} {said} ({answer.get('code', '')}), CP-SAT counts {expected}"
        elif status == 200 and not keeps_the_rules(size, board, rules, answer["solution"]):
            problem = f"/solve's solution {answer['solution']} breaks a rule"
        else:
            status, report = post(args.url, "/validate", {"board": board, "rules": rules})
            if status != 200 or report["solvable"] != bool(truth) or report["unique"] != (len(truth) == 1):
                problem = f"/validate answered {status} {report}, CP-SAT counts {expected}"
        if problem:
            failures.append(f"case {case} ({size}x{size}): {problem}\n  {json.dumps({'board': board, 'rules': rules})}")
        elif args.verbose:
            print(f"case {case}: {size}x{size} {sorted(rules)} {expected}")
    seconds = time.time() - started
    print(f"{args.cases} boards in {seconds:.1f} s: CP-SAT counts none {tally['none']}, unique "
          f"{tally['unique']}, multiple {tally['multiple']}; {len(failures)} disagreement(s), "
          f"{len(undecided)} left undecided by the service (search_limit)")
    for board in undecided:
        print(f"undecided: {board}")
    if args.timing:
        for name, times in (("CP-SAT, in process", cpsat_times), ("the service's /solve", service_times)):
            ordered = sorted(times)
            pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000
            print(f"{name}: median {pick(0.5):.2f} ms, p90 {pick(0.9):.2f} ms, "
                  f"worst {ordered[-1] * 1000:.1f} ms, total {sum(times):.2f} s")
    for failure in failures:
        print(failure, file=sys.stderr)
    if len(undecided) * 100 > args.cases:
        print("more than one board in a hundred left undecided", file=sys.stderr)
        return 1
    # Every outcome must be exercised, or the check proves little.
    if min(tally.values()) < args.cases // 20:
        print(f"too few of one outcome: {tally}", file=sys.stderr)
        return 1
    return 1 if failures or sets_status else 0


if __name__ == "__main__":
    sys.exit(main())
