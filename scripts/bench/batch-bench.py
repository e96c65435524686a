#!/usr/bin/env python3
"""/solve/batch against the command line, over the same puzzles, in the same run.

usage: scripts/bench/batch-bench.py [--rounds N] [--repeat K] [--threads T] [--scaling]
                              [--connections-per-thread C] [--binary PATH] [FILE]

Starts the release server on 127.0.0.1 (as shipped: request ids, metrics, CORS and
per-request logging on; the log goes to a file), cuts FILE (default: the 17-clue set)
into requests of 1,000 boards (the default batch limit, MAX_BATCH_BOARDS, and far under
the 1 MiB body limit: a 17-clue request is about 85 KB), and posts them from T x C client
connections (T default 2, C default 1; with C = 2 a request is always queued while another
one's answer travels, as a client after throughput would do) until the set is covered K times (default 5: the 17-clue set takes
a tenth of a second, too short to time alone); each answer is checked after the clock
stops (200, one result per board, every solution the command line's). Then it times
`solve --threads T` as a whole process over a file of the same K copies of the set. The
two alternate for N rounds (default 3)
after a warm-up of each; it prints each round (with the server's CPU time a board and how
idle the machine was meanwhile) and the medians:

    batch PUZZLES/S  cli PUZZLES/S  ratio BATCH/CLI

With --scaling it does this at T = 1 and T = 2 and prints how much faster two are than
one, for both. At T = 1 the server is pinned to one core (taskset) with one solver slot,
so that it has one core as `solve --threads 1` has one thread; the client is not pinned.
At T = 2 nothing is pinned: the client shares the machine's cores with the server, as a
real client on the same machine would.

Wall-clock figures: on a shared machine read the ratios, which compare runs made in the
same minute, and quote the load (printed first). A benchmark, not a test: CI does not run
it.
"""
import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BATCH_BOARDS = 1000


def release_binary():
    subprocess.run(["cargo", "build", "--release", "--locked", "--quiet", "--bin", "sudoku-service"],
                   cwd=ROOT, check=True)
    meta = subprocess.run(["cargo", "metadata", "--format-version", "1", "--no-deps"],
                          cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return os.path.join(json.loads(meta)["target_directory"], "release", "sudoku-service")


def read_puzzles(path):
    with open(path) as f:
        return [line[:81] for line in (l.strip() for l in f) if line and not line.startswith("#")]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The release server on a free port of 127.0.0.1, with `slots` solver slots, pinned to
    the first `cores` cores when given."""

    def __init__(self, binary, slots, cores, log_dir):
        self.port = free_port()
        command = [binary, "--listen", f"127.0.0.1:{self.port}", "--max-concurrent-solves", str(slots)]
        if cores is not None:
            command = ["taskset", "-c", ",".join(str(c) for c in range(cores)), *command]
        self.log = open(os.path.join(log_dir, f"server-{slots}.log"), "w")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=self.log)
        for _ in range(100):
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        sys.exit("the server did not come up")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log.close()


def post_all(port, bodies, connections):
    """Posts every body once, `connections` at a time on keep-alive connections; returns
    the seconds taken and the answers by body index (checked later, off the clock).

    Each request is written whole from bytes made before the clock starts, and an answer is
    read as its status line, its Content-Length and that many bytes, nothing parsed: the
    client shares the server's two cores, and with http.client it spent about 150 us of
    CPU a request there, time the command line never pays."""
    requests = [(f"POST /solve/batch HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
                 ).encode() + body for body in bodies]
    answers = [None] * len(bodies)
    next_body = iter(range(len(bodies)))
    lock = threading.Lock()
    failures = []

    def read_answer(sock, pending):
        while b"\r\n\r\n" not in pending:
            chunk = sock.recv(1 << 16)
            if not chunk:
                raise OSError("the server closed the connection")
            pending += chunk
        head, _, rest = pending.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split()[1])
        length = next(int(line.split(b":", 1)[1]) for line in lines[1:]
                      if line.lower().startswith(b"content-length:"))
        body = bytearray(rest)
        while len(body) < length:
            chunk = sock.recv(max(1 << 16, length - len(body)))
            if not chunk:
                raise OSError("the server closed the connection")
            body += chunk
        return status, bytes(body[:length]), bytes(body[length:])

    def client():
        with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
            pending = b""
            while True:
                with lock:
                    index = next(next_body, None)
                if index is None:
                    return
                try:
                    sock.sendall(requests[index])
                    status, body, pending = read_answer(sock, pending)
                    answers[index] = (status, body)
                except OSError as err:
                    failures.append(err)
                    return

    threads = [threading.Thread(target=client) for _ in range(connections)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.perf_counter() - started
    if failures:
        sys.exit(f"a request failed: {failures[0]}")
    return took, answers


def check(answers, chunks, expected):
    """Every answer a 200 with one result per board, each the command line's solution."""
    at = 0
    for (status, body), chunk in zip(answers, chunks):
        if status != 200:
            sys.exit(f"/solve/batch answered {status}: {body[:200]!r}")
        results = json.loads(body)["results"]
        if len(results) != len(chunk):
            sys.exit(f"{len(results)} results for {len(chunk)} boards")
        for result in results:
            if result.get("solution") != expected[at]:
                sys.exit(f"board {at}: {result} is not the command line's {expected[at]}")
            at += 1


def cli_seconds(binary, path, threads):
    started = time.perf_counter()
    subprocess.run([binary, "solve", "--threads", str(threads), path],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def cpu_seconds(pid):
    """User and system CPU time of process `pid` so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_ticks():
    """The machine's idle and total CPU ticks so far."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:9]]
    return fields[3] + fields[4], sum(fields)


def measure(binary, path, repeat, threads, rounds, pin, log_dir, connections):
    """Median puzzles/s of /solve/batch and of the command line at `threads`, over `repeat`
    copies of the puzzles of `path`."""
    puzzles = read_puzzles(path) * repeat
    path = os.path.join(log_dir, "puzzles.txt")
    with open(path, "w") as f:
        f.writelines(puzzle + "\n" for puzzle in puzzles)
    chunks = [puzzles[i:i + BATCH_BOARDS] for i in range(0, len(puzzles), BATCH_BOARDS)]
    bodies = [json.dumps({"boards": chunk}).encode() for chunk in chunks]
    solved = subprocess.run([binary, "solve", "--threads", str(threads), path], check=True,
                            capture_output=True, text=True).stdout.split()
    server = Server(binary, threads, threads if pin else None, log_dir)
    try:
        check(post_all(server.port, bodies, connections)[1], chunks, solved)  # warm-up, checked
        cli_seconds(binary, path, threads)
        batch, cli = [], []
        for round_number in range(1, rounds + 1):
            server_cpu, (idle, total) = cpu_seconds(server.process.pid), idle_ticks()
            took, answers = post_all(server.port, bodies, connections)
            server_cpu = cpu_seconds(server.process.pid) - server_cpu
            idle, total = (a - b for a, b in zip(idle_ticks(), (idle, total)))
            check(answers, chunks, solved)
            batch.append(len(puzzles) / took)
            cli.append(len(puzzles) / cli_seconds(binary, path, threads))
            print(f"  T={threads} round {round_number}: batch {batch[-1]:9.0f}/s  "
                  f"cli {cli[-1]:9.0f}/s  ratio {batch[-1] / cli[-1]:.2f}  "
                  f"(server {server_cpu * 1e6 / len(puzzles):.2f} us CPU a board, "
                  f"machine idle {idle / max(total, 1):.0%})", flush=True)
    finally:
        server.stop()
    return statistics.median(batch), statistics.median(cli)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", default=os.path.join(ROOT, "data/puzzles/puzzles2_17_clue"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--scaling", action="store_true")
    parser.add_argument("--binary")
    parser.add_argument("--connections-per-thread", type=int, default=1,
                        help="client connections for each server thread (default 1)")
    args = parser.parse_args()
    binary = args.binary or release_binary()
    print(f"{os.path.basename(args.file)} x {args.repeat}, {args.rounds} rounds, {BATCH_BOARDS} boards a request; "
          f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}", flush=True)
    with tempfile.TemporaryDirectory() as log_dir:
        if not args.scaling:
            batch, cli = measure(binary, args.file, args.repeat, args.threads, args.rounds, False,
                                 log_dir, args.threads * args.connections_per_thread)
            print(f"batch {batch:.0f} cli {cli:.0f} ratio {batch / cli:.3f}")
            return
        per = args.connections_per_thread
        one = measure(binary, args.file, args.repeat, 1, args.rounds, True, log_dir, per)
        two = measure(binary, args.file, args.repeat, 2, args.rounds, False, log_dir, 2 * per)
    print(f"T=1: batch {one[0]:.0f} cli {one[1]:.0f} ratio {one[0] / one[1]:.3f}")
    print(f"T=2: batch {two[0]:.0f} cli {two[1]:.0f} ratio {two[0] / two[1]:.3f}")
    print(f"scaling: batch {two[0] / one[0]:.3f} cli {two[1] / one[1]:.3f}")


if __name__ == "__main__":
    main()
