// A command-line front end for tdoku (https://github.com/t-dillon/tdoku, BSD-2-Clause),
// used only to time it beside sudoku-service on this machine; tdoku itself is never part
// of the project (scripts/peers/tdoku/run.sh compiles it from a checkout you provide).
//
//   driver plain FILE...              one line per puzzle: the first solution found, or
//                                     "none"; on stderr how many were unique, multiple or
//                                     had none. One search that counts up to 2 solutions
//                                     and hands back the first: the work of
//                                     `sudoku-service solve` (prove uniqueness, return the
//                                     solution).
//   driver count FILE...              one line per puzzle: the number of solutions up to 2
//                                     (0, 1 or 2), no solution. tdoku's cheapest uniqueness
//                                     proof, and less work than ours.
//   driver bench VARIANT PASSES FILE... in-process puzzles/s of VARIANT (plain or count),
//                                     best of PASSES, like our examples/throughput.
//
// Why two variants: tdoku's TdokuSolverDpllTriadSimd keeps a solution only when the count
// reaches the limit. With a limit of 2 (the uniqueness proof) it keeps none for a unique
// puzzle, so asking it for "the solution, and is it unique" that way returns nothing
// useful (an earlier version of this driver printed 111...1 for every unique puzzle and
// timed that: a count, less work than ours). TdokuEnumerate runs the same search with the
// same limit and reports every solution it reaches, so `plain` takes the first one from
// there: one search, count to 2, the solution returned, as ours does. `count` is kept to
// show what the solution costs tdoku (next to nothing: the same search tree).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

extern "C" size_t TdokuSolverDpllTriadSimd(const char *puzzle, size_t limit,
                                           uint32_t configuration, char *solution,
                                           size_t *num_guesses);
extern "C" size_t TdokuEnumerate(const char *puzzle, size_t limit,
                                 void (*callback)(const char *, void *), void *callback_arg);

// tdoku's configuration 0 with a limit of 2: count, keep no solution.
static const uint32_t kCountOnly = 0;

// Lines that hold a puzzle: not blank, not a '#' comment; the first 81 characters.
static std::vector<std::string> read_puzzles(const char *path) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path);
        std::exit(2);
    }
    std::vector<std::string> puzzles;
    std::string line;
    while (std::getline(in, line)) {
        if (line.size() < 81 || line[0] == '#') continue;
        std::string puzzle = line.substr(0, 81);
        // tdoku reads every character other than '1'-'9' as a clue unless it is '.'.
        for (char &c : puzzle) {
            if (c < '1' || c > '9') c = '.';
        }
        puzzles.push_back(puzzle);
    }
    return puzzles;
}

// The first solution a search reports; later ones are only counted by tdoku.
struct FirstSolution {
    char grid[82];
    bool found;
};

static void keep_first(const char *solution, void *arg) {
    FirstSolution *first = static_cast<FirstSolution *>(arg);
    if (!first->found) {
        std::memcpy(first->grid, solution, 81);
        first->grid[81] = '\0';
        first->found = true;
    }
}

// Solves and proves uniqueness in one search: the count (up to 2) and the first solution.
static size_t solve_and_prove(const std::string &puzzle, FirstSolution &first) {
    first.found = false;
    return TdokuEnumerate(puzzle.c_str(), 2, keep_first, &first);
}

static size_t count_up_to_two(const std::string &puzzle, size_t &guesses) {
    char unused[82] = {0};
    return TdokuSolverDpllTriadSimd(puzzle.c_str(), 2, kCountOnly, unused, &guesses);
}

static int plain(int argc, char **argv) {
    static char buffer[1 << 16];
    std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    FirstSolution first{};
    size_t tally[3] = {0, 0, 0};
    for (int i = 2; i < argc; i++) {
        for (const std::string &puzzle : read_puzzles(argv[i])) {
            size_t count = solve_and_prove(puzzle, first);
            tally[count]++;
            std::puts(first.found ? first.grid : "none");
        }
    }
    std::fprintf(stderr, "unique %zu, multiple %zu, none %zu\n", tally[1], tally[2], tally[0]);
    return 0;
}

static int count(int argc, char **argv) {
    static char buffer[1 << 16];
    std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    for (int i = 2; i < argc; i++) {
        for (const std::string &puzzle : read_puzzles(argv[i])) {
            size_t guesses = 0;
            std::printf("%zu\n", count_up_to_two(puzzle, guesses));
        }
    }
    return 0;
}

static int bench(int argc, char **argv) {
    bool plain_variant = std::strcmp(argv[2], "plain") == 0;
    if (!plain_variant && std::strcmp(argv[2], "count") != 0) {
        std::fprintf(stderr, "bench VARIANT must be plain or count, not %s\n", argv[2]);
        return 2;
    }
    int passes = std::atoi(argv[3]);
    FirstSolution first{};
    for (int i = 4; i < argc; i++) {
        std::vector<std::string> puzzles = read_puzzles(argv[i]);
        // Counted outside the timed passes (TdokuEnumerate reports no guesses; both
        // variants run the same search).
        size_t guesses = 0;
        for (const std::string &puzzle : puzzles) {
            size_t n = 0;
            count_up_to_two(puzzle, n);
            guesses += n;
        }
        double best = 1e300;
        size_t checksum = 0;
        for (int pass = 0; pass < passes; pass++) {
            auto started = std::chrono::steady_clock::now();
            for (const std::string &puzzle : puzzles) {
                size_t n = 0;
                checksum += plain_variant ? solve_and_prove(puzzle, first) + first.grid[80]
                                          : count_up_to_two(puzzle, n);
            }
            std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
            if (took.count() < best) best = took.count();
        }
        std::printf("%s: %zu puzzles, %.0f puzzles/s (%.2f us each), %.2f guesses/puzzle, "
                    "best of %d, %s (checksum %zu)\n",
                    argv[i], puzzles.size(), puzzles.size() / best, best * 1e6 / puzzles.size(),
                    double(guesses) / puzzles.size(), passes, argv[2], checksum);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 3 && std::strcmp(argv[1], "plain") == 0) return plain(argc, argv);
    if (argc >= 3 && std::strcmp(argv[1], "count") == 0) return count(argc, argv);
    if (argc >= 5 && std::strcmp(argv[1], "bench") == 0) return bench(argc, argv);
    std::fprintf(stderr,
                 "usage: driver plain FILE... | driver count FILE... | "
                 "driver bench plain|count PASSES FILE...\n");
    return 2;
}
