#!/usr/bin/env python3
"""HoDoKu as an independent oracle for the service's hints and grades.

usage: scripts/peers/hodoku-oracle.py URL [--jobs N] [--scale F] [--verbose]

URL is the base address of a running sudoku-service (the script starts nothing itself;
scripts/ci/hodoku-check.sh starts the release server and calls it). hodoku-py
(scripts/peers/requirements-hodoku.txt), a port of HoDoKu 2.2.0's solver and hint engine, must be
importable.

The sample is deterministic: the puzzles spread evenly over each proper set of
data/puzzles (more from the sets HoDoKu solves fast, see SAMPLE), and for each puzzle
three positions: the puzzle itself and the puzzle with the first third and the first two
thirds of the placements of HoDoKu's own solution path filled in (placed cells are
marked '+' for HoDoKu, and sent to us with the puzzle as `givens`). At every position it
asks our POST /hint and HoDoKu's get_hint, and checks:

  (a) validity: wherever HoDoKu's hint is true of the solution, ours is too: a step
      whose placements are the solution's digits in empty cells and whose eliminations
      are candidates of the position that the solution does not hold, or, when our
      logic is stuck, a revealed digit that is the solution's. The solution comes from
      HoDoKu's own backtracking solver, not from ours.
  (b) singles: wherever HoDoKu's hint is a single (full house, naked or hidden single),
      ours is a single too (last value, hidden single in a box or a line, naked single).

and reports, without failing on them unless they fall below a floor: how often the first
hints of the two engines are of the same technique family, and how often HoDoKu's level
(easy, medium, hard, unfair, extreme) is our /grade difficulty (easy, medium, hard,
expert, extreme), exactly and within one level, with the whole table.

Exits 1 on any (a) or (b) violation, or an agreement rate below its floor; prints a
closing "hodoku-oracle: N passed, N failed" line.
"""

import argparse
import json
import multiprocessing
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "data" / "puzzles"

# Puzzles taken from each proper set. HoDoKu's full solve (needed for its level and for
# the positions along its path) takes, per puzzle, about 0.03 s on 17-clue, 0.1 s on
# diabolical, 1.7 s on magictour and 5-6 s on msolve and forum (measured here), so the
# fast sets give most of the 200 and the two hardest a few, to keep the run to minutes.
SAMPLE = {
    "sudoku_exchange_diabolical": 90,
    "puzzles2_17_clue": 60,
    "puzzles3_magictour_top1465": 30,
    "msolve_hardest_to_solve": 10,
    "puzzles5_forum_hardest_1905_11+": 10,
}

# The two engines' levels side by side: HoDoKu's "unfair" is the band between its
# "hard" and "extreme", as our "expert" is between "hard" and "extreme".
HODOKU_LEVELS = ["EASY", "MEDIUM", "HARD", "UNFAIR", "EXTREME"]
OUR_LEVELS = ["easy", "medium", "hard", "expert", "extreme"]

# Technique families, to compare two engines whose techniques are named and cut
# differently. The singles are kept apart (full house, hidden, naked) because (b) and
# the singles agreement are about them.
OUR_FAMILIES = {
    "last_value": "full_house",
    "hidden_single_box": "hidden_single",
    "hidden_single_line": "hidden_single",
    "naked_single": "naked_single",
    "direct_pointing": "intersection",
    "direct_claiming": "intersection",
    "pointing": "intersection",
    "claiming": "intersection",
    "direct_hidden_pair": "subset",
    "direct_hidden_triple": "subset",
    "naked_pair": "subset",
    "naked_triple": "subset",
    "naked_quad": "subset",
    "hidden_pair": "subset",
    "hidden_triple": "subset",
    "hidden_quad": "subset",
    "x_wing": "fish",
    "swordfish": "fish",
    "jellyfish": "fish",
    "finned_x_wing": "fish",
    "finned_swordfish": "fish",
    "finned_jellyfish": "fish",
    "two_strong_links": "single_digit_pattern",
    "three_strong_links": "single_digit_pattern",
    "four_strong_links": "single_digit_pattern",
    "xy_wing": "wing",
    "xyz_wing": "wing",
    "w_wing": "wing",
    "wxyz_wing": "wing",
    "vwxyz_wing": "wing",
    "unique_rectangle_1": "uniqueness",
    "unique_rectangle_2": "uniqueness",
    "unique_rectangle_4": "uniqueness",
    "bug_1": "uniqueness",
    "x_cycle": "chain",
    "y_cycle": "chain",
    "x_chain": "chain",
    "xy_chain": "chain",
    "xy_cycle": "chain",
    "aic": "chain",
    "region_forcing_chains": "forcing",
    "cell_forcing_chains": "forcing",
    "nishio_forcing_chains": "forcing",
    "dynamic_contradiction_forcing_chains": "forcing",
    "dynamic_double_forcing_chains": "forcing",
    "dynamic_cell_forcing_chains": "forcing",
    "dynamic_region_forcing_chains": "forcing",
    "dynamic_forcing_chains_plus": "forcing",
    "nested_forcing_chains": "forcing",
}

SINGLE_FAMILIES = {"full_house", "hidden_single", "naked_single"}


def hodoku_family(type_name):
    """The family of a HoDoKu SolutionType name (the enum member's name)."""
    exact = {
        "FULL_HOUSE": "full_house",
        "HIDDEN_SINGLE": "hidden_single",
        "NAKED_SINGLE": "naked_single",
        "LOCKED_CANDIDATES_1": "intersection",
        "LOCKED_CANDIDATES_2": "intersection",
        "LOCKED_PAIR": "intersection",
        "LOCKED_TRIPLE": "intersection",
        "SKYSCRAPER": "single_digit_pattern",
        "TWO_STRING_KITE": "single_digit_pattern",
        "DUAL_TWO_STRING_KITE": "single_digit_pattern",
        "TURBOT_FISH": "single_digit_pattern",
        "EMPTY_RECTANGLE": "single_digit_pattern",
        "DUAL_EMPTY_RECTANGLE": "single_digit_pattern",
        "XY_WING": "wing",
        "XYZ_WING": "wing",
        "W_WING": "wing",
        "BUG_PLUS_1": "uniqueness",
        "HIDDEN_RECTANGLE": "uniqueness",
        "REMOTE_PAIR": "chain",
        "X_CHAIN": "chain",
        "XY_CHAIN": "chain",
        "AIC": "chain",
        "SUE_DE_COQ": "als",
        "DEATH_BLOSSOM": "als",
        "BRUTE_FORCE": "last_resort",
    }
    if type_name in exact:
        return exact[type_name]
    prefixes = [
        (("NAKED_", "HIDDEN_"), "subset"),
        (("UNIQUENESS_", "AVOIDABLE_"), "uniqueness"),
        (("SIMPLE_COLORS", "MULTI_COLORS"), "coloring"),
        (("ALS_",), "als"),
        (("FORCING_", "KRAKEN_"), "forcing"),
        (("TEMPLATE_",), "last_resort"),
    ]
    for starts, family in prefixes:
        if type_name.startswith(starts):
            return family
    if "NICE_LOOP" in type_name or type_name.endswith("AIC"):
        return "chain"
    fish = ("X_WING", "SWORDFISH", "JELLYFISH", "SQUIRMBAG", "WHALE", "LEVIATHAN")
    if type_name.endswith(fish):
        return "fish"
    return "other"


def spread(name, count):
    """`count` puzzles spread evenly over a set, as `puzzle_sets::spread` takes them."""
    lines = [
        line.strip()
        for line in (PUZZLES / name).read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    step = max(len(lines) // max(count, 1), 1)
    return lines[::step][:count]


def peers(cell):
    row, col = divmod(cell, 9)
    box = (row // 3) * 27 + (col // 3) * 3
    cells = {row * 9 + c for c in range(9)} | {r * 9 + col for r in range(9)}
    cells |= {box + r * 9 + c for r in range(3) for c in range(3)}
    cells.discard(cell)
    return cells


PEERS = [peers(cell) for cell in range(81)]


def step_problems(position, solution, placements, eliminations):
    """Why a step given as (cell, digit) lists is not true of `solution` at `position`
    (81 characters, '.' empty); empty when it is."""
    problems = []
    if not placements and not eliminations:
        problems.append("the step changes nothing")
    for cell, digit in placements:
        if position[cell] != ".":
            problems.append(f"places {digit} in the filled cell r{cell // 9 + 1}c{cell % 9 + 1}")
        elif solution[cell] != str(digit):
            problems.append(f"places a wrong {digit} in r{cell // 9 + 1}c{cell % 9 + 1}")
    for cell, digit in eliminations:
        name = f"r{cell // 9 + 1}c{cell % 9 + 1}"
        if position[cell] != ".":
            problems.append(f"removes {digit} from the filled cell {name}")
        elif solution[cell] == str(digit):
            problems.append(f"removes the solution's {digit} from {name}")
        elif any(position[peer] == str(digit) for peer in PEERS[cell]):
            problems.append(f"removes {digit} from {name}, where a peer already rules it out")
    return problems


# --- HoDoKu's side (in worker processes) -------------------------------------------

def hodoku_work(item):
    """HoDoKu's solution, level, path positions and hints for one puzzle."""
    from hodoku import Solver
    from hodoku.core.grid import Grid
    from hodoku.generator.generator import SudokuGenerator

    set_name, index, puzzle = item
    started = time.perf_counter()
    grid = Grid()
    grid.set_sudoku(puzzle)
    generator = SudokuGenerator()
    count = generator.get_number_of_solutions(grid)
    solution = generator.get_solution_as_string() if count == 1 else None

    solver = Solver()
    result = solver.solve(puzzle)
    # The placements along HoDoKu's path, in order: the steps whose indices are
    # placements (singles, forcing chains, brute force), as HoDoKu's own solve loop
    # applies them.
    placements = []
    for step in result.steps:
        if is_placement(step.type.name):
            placements.extend(zip(step.indices, step.values))
    positions = [puzzle]
    for fraction in (1, 2):
        cells = list(puzzle)
        for cell, digit in placements[: len(placements) * fraction // 3]:
            cells[cell] = str(digit)
        positions.append("".join(cells))

    hints = []
    for position in positions:
        marked = "".join(
            "+" + now if now != given else given for now, given in zip(position, puzzle)
        )
        step = solver.get_hint(marked)
        if step is None:
            hints.append(None)
            continue
        hints.append({
            "type": step.type.name,
            "placements": list(zip(step.indices, step.values)) if is_placement(step.type.name) else [],
            "eliminations": [(c.index, c.value) for c in step.candidates_to_delete],
        })
    return {
        "set": set_name,
        "index": index,
        "puzzle": puzzle,
        "solution": solution,
        "solution_count": count,
        "level": result.level.name if result.solved else None,
        "positions": positions,
        "hints": hints,
        "seconds": time.perf_counter() - started,
    }


def is_placement(type_name):
    return type_name in {"FULL_HOUSE", "NAKED_SINGLE", "HIDDEN_SINGLE", "BRUTE_FORCE"} or (
        type_name.startswith("FORCING_")
    )


# --- our side (HTTP) ---------------------------------------------------------------

def post(url, path, body):
    """(status, JSON answer) of a POST to the service."""
    request = urllib.request.Request(
        url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as err:
        return err.code, json.load(err)


def our_hint(url, position, puzzle):
    """Our /hint at `position` (with the puzzle as the givens) as
    (kind, technique, placements, eliminations)."""
    status, body = post(url, "/hint", {"board": position, "givens": puzzle})
    if status != 200:
        raise RuntimeError(f"/hint answered {status}: {body}")
    cells = lambda key: [(e["row"] * 9 + e["col"], e["digit"]) for e in body.get(key) or []]
    return body.get("kind"), body.get("technique"), cells("placements"), cells("eliminations")


def our_difficulty(url, puzzle):
    status, body = post(url, "/grade", {"board": puzzle})
    if status != 200:
        raise RuntimeError(f"/grade answered {status}: {body}")
    return body["difficulty"]


# --- the comparison ----------------------------------------------------------------

def percent(part, whole):
    return f"{100 * part / whole:.1f}% ({part}/{whole})" if whole else "n/a (0/0)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="base URL of a running sudoku-service")
    parser.add_argument("--jobs", type=int, default=2, help="HoDoKu worker processes")
    parser.add_argument(
        "--scale", type=float, default=1.0,
        help="multiply every set's sample size (0.1 for a quick look)")
    # Floors for the agreement rates. Both engines are deterministic and the sample is
    # fixed, so the rates move only when the code does; measured on this sample (see
    # BENCHMARKS.md, "Hints"): families 99.3%, levels 60.0% exact and 97.0% within one.
    # The floors leave room for a change of the technique order or the grader's bands,
    # and catch a broken grader: one answering the same level for every puzzle agrees
    # exactly on at most 34% of this sample (67 of 200: those HoDoKu calls extreme).
    parser.add_argument("--family-floor", type=float, default=0.95,
                        help="least agreement of first-hint families, 0-1 (default 0.95)")
    parser.add_argument("--level-floor", type=float, default=0.50,
                        help="least exact agreement of levels, 0-1 (default 0.50)")
    parser.add_argument("--near-level-floor", type=float, default=0.90,
                        help="least agreement of levels within one, 0-1 (default 0.90)")
    parser.add_argument("--verbose", action="store_true", help="print every position")
    args = parser.parse_args()
    url = args.url.rstrip("/")

    work = [
        (name, index, puzzle)
        for name, count in SAMPLE.items()
        for index, puzzle in enumerate(spread(name, max(1, round(count * args.scale))))
    ]
    started = time.perf_counter()
    violations = []
    totals = Counter()
    families = Counter()  # (hodoku family, ours) over positions where both found a step
    levels = Counter()  # (hodoku level, our difficulty)
    hodoku_seconds = 0.0
    with multiprocessing.Pool(args.jobs) as pool:
        for done in pool.imap(hodoku_work, work):
            hodoku_seconds += done["seconds"]
            where = f"{done['set']}#{done['index']}"
            solution = done["solution"]
            if solution is None:
                violations.append(f"{where}: HoDoKu counts {done['solution_count']} solutions")
                continue
            totals["puzzles"] += 1
            difficulty = our_difficulty(url, done["puzzle"])
            levels[(done["level"] or "INCOMPLETE", difficulty)] += 1
            for depth, (position, theirs) in enumerate(zip(done["positions"], done["hints"])):
                here = f"{where} position {depth} {position}"
                totals["positions"] += 1
                kind, technique, placements, eliminations = our_hint(url, position, done["puzzle"])
                ours_ok = not step_problems(position, solution, placements, eliminations)
                if kind == "stuck":
                    totals["ours stuck"] += 1
                    ours_family = "stuck"
                else:
                    ours_family = OUR_FAMILIES.get(technique, f"unknown:{technique}")
                theirs_family = hodoku_family(theirs["type"]) if theirs else "none"
                theirs_ok = theirs is not None and not step_problems(
                    position, solution, theirs["placements"], theirs["eliminations"])
                if args.verbose:
                    print(f"{here}: ours {kind} {technique} ok={ours_ok}; "
                          f"HoDoKu {theirs and theirs['type']} ok={theirs_ok}")
                if not theirs_ok:
                    totals["HoDoKu invalid"] += 1
                    print(f"note: {here}: HoDoKu's hint {theirs} is not true of the solution")
                else:
                    totals["HoDoKu valid"] += 1
                    if ours_ok:
                        totals["ours valid where HoDoKu valid"] += 1
                    else:
                        problems = step_problems(position, solution, placements, eliminations)
                        violations.append(f"(a) {here}: our {kind} {technique}: {'; '.join(problems)}")
                if theirs_family in SINGLE_FAMILIES:
                    totals["HoDoKu single"] += 1
                    if ours_family in SINGLE_FAMILIES:
                        totals["ours single where HoDoKu single"] += 1
                        totals["same single"] += ours_family == theirs_family
                    else:
                        violations.append(
                            f"(b) {here}: HoDoKu {theirs['type']}, ours {kind} {technique}")
                if theirs_family == "last_resort":
                    totals["HoDoKu brute force"] += 1
                elif ours_family == "stuck" and theirs is not None:
                    totals["ours stuck where HoDoKu has logic"] += 1
                if theirs is not None and theirs_family != "last_resort" and ours_family != "stuck":
                    families[(theirs_family, ours_family)] += 1

    elapsed = time.perf_counter() - started
    both = sum(families.values())
    same_family = sum(n for (theirs, ours), n in families.items() if theirs == ours)
    # The same with the three singles as one family: HoDoKu tries naked singles before
    # hidden ones and we (as SE) hidden before naked, so the fine rate mostly counts that.
    coarse = lambda family: "single" if family in SINGLE_FAMILIES else family
    same_coarse = sum(n for (theirs, ours), n in families.items() if coarse(theirs) == coarse(ours))
    graded = sum(n for (theirs, _), n in levels.items() if theirs in HODOKU_LEVELS)
    exact = sum(n for (theirs, ours), n in levels.items()
                if theirs in HODOKU_LEVELS and HODOKU_LEVELS.index(theirs) == OUR_LEVELS.index(ours))
    near = sum(n for (theirs, ours), n in levels.items()
               if theirs in HODOKU_LEVELS and abs(HODOKU_LEVELS.index(theirs) - OUR_LEVELS.index(ours)) <= 1)

    print(f"hodoku-oracle: {totals['puzzles']} puzzles, {totals['positions']} positions "
          f"({elapsed:.0f} s; HoDoKu {hodoku_seconds:.0f} s of work on {args.jobs} processes)")
    print(f"(a) ours valid where HoDoKu's is: {percent(totals['ours valid where HoDoKu valid'], totals['HoDoKu valid'])}"
          f"; HoDoKu invalid at {totals['HoDoKu invalid']}")
    print(f"(b) ours a single where HoDoKu's is: "
          f"{percent(totals['ours single where HoDoKu single'], totals['HoDoKu single'])}; "
          f"the same single: {percent(totals['same single'], totals['ours single where HoDoKu single'])}")
    print(f"first-hint family agreement (both found a logical step): {percent(same_coarse, both)}; "
          f"with the singles told apart: {percent(same_family, both)}")
    print(f"ours stuck: {totals['ours stuck']} (where HoDoKu found a logical step: "
          f"{totals['ours stuck where HoDoKu has logic']}); HoDoKu brute force: {totals['HoDoKu brute force']}")
    print(f"levels, HoDoKu against /grade: exact {percent(exact, graded)}, within one level {percent(near, graded)}")
    print("  HoDoKu \\ ours  " + " ".join(f"{name:>8}" for name in OUR_LEVELS))
    for theirs in HODOKU_LEVELS + ["INCOMPLETE"]:
        row = [levels[(theirs, ours)] for ours in OUR_LEVELS]
        if any(row):
            print(f"  {theirs.lower():<14} " + " ".join(f"{n:>8}" for n in row))
    print("families, HoDoKu (rows) against ours:")
    for (theirs, ours), n in sorted(families.items(), key=lambda kv: -kv[1]):
        print(f"  {theirs:<22} {ours:<22} {n}")

    checks = [
        ("(a) validity", not any(v.startswith("(a)") for v in violations)),
        ("(b) singles", not any(v.startswith("(b)") for v in violations)),
        ("the sample's puzzles are proper", not any(v.startswith(tuple(SAMPLE)) for v in violations)),
        (f"family agreement >= {args.family_floor:.0%}", both == 0 or same_coarse / both >= args.family_floor),
        (f"level agreement >= {args.level_floor:.0%}", graded == 0 or exact / graded >= args.level_floor),
        (f"level agreement within one >= {args.near_level_floor:.0%}",
         graded == 0 or near / graded >= args.near_level_floor),
    ]
    for violation in violations:
        print(f"VIOLATION {violation}")
    failed = 0
    for name, ok in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {name}")
        failed += not ok
    print(f"hodoku-oracle: {len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
