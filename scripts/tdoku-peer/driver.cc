// A command-line front end for tdoku (https://github.com/t-dillon/tdoku, BSD-2-Clause),
// used only to time it beside sudoku-service on this machine; tdoku itself is never part
// of the project (scripts/tdoku-peer/run.sh compiles it from a checkout you provide).
//
//   driver plain FILE...        one line per puzzle: the first solution, or "none"
//                               (solve and count up to 2, the same work as
//                               `sudoku-service solve` and `refsolve plain`)
//   driver bench PASSES FILE... in-process puzzles/s, best of PASSES, like our
//                               examples/throughput
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

// tdoku's configuration 1: keep a solution to hand back (with 0 and a limit of 2 it only
// counts), so that it does the same work as ours.
static const uint32_t kKeepSolution = 1;

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

static int plain(int argc, char **argv) {
    static char buffer[1 << 16];
    std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    char solution[82] = {0};
    for (int i = 2; i < argc; i++) {
        for (const std::string &puzzle : read_puzzles(argv[i])) {
            size_t guesses = 0;
            size_t count = TdokuSolverDpllTriadSimd(puzzle.c_str(), 2, kKeepSolution, solution, &guesses);
            std::puts(count > 0 ? solution : "none");
        }
    }
    return 0;
}

static int bench(int argc, char **argv) {
    int passes = std::atoi(argv[2]);
    char solution[82] = {0};
    for (int i = 3; i < argc; i++) {
        std::vector<std::string> puzzles = read_puzzles(argv[i]);
        double best = 1e300;
        size_t guesses = 0;
        for (int pass = 0; pass < passes; pass++) {
            guesses = 0;
            auto started = std::chrono::steady_clock::now();
            for (const std::string &puzzle : puzzles) {
                size_t n = 0;
                TdokuSolverDpllTriadSimd(puzzle.c_str(), 2, kKeepSolution, solution, &n);
                guesses += n;
            }
            std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
            if (took.count() < best) best = took.count();
        }
        std::printf("%s: %zu puzzles, %.0f puzzles/s (%.2f us each), %.2f guesses/puzzle, best of %d\n",
                    argv[i], puzzles.size(), puzzles.size() / best, best * 1e6 / puzzles.size(),
                    double(guesses) / puzzles.size(), passes);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 3 && std::strcmp(argv[1], "plain") == 0) return plain(argc, argv);
    if (argc >= 4 && std::strcmp(argv[1], "bench") == 0) return bench(argc, argv);
    std::fprintf(stderr, "usage: driver plain FILE... | driver bench PASSES FILE...\n");
    return 2;
}
