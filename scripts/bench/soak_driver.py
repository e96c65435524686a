#!/usr/bin/env python3
"""Load driver for scripts/bench/soak.sh: asyncio, raw HTTP/1.1 keep-alive, standard library only.

  soak_driver.py mix   --port P --seconds S [--concurrency C]
      C connections, each sending a weighted mix of valid, invalid and hard requests
      back to back for S seconds.
  soak_driver.py flood --port P --seconds S [--concurrency C]
      C connections (default 500) each sending hard puzzles back to back; latencies are
      kept apart for shed (503) and answered requests.
  soak_driver.py probe --port P --seconds S
      One connection probing GET /healthz every 50 ms (run it as its own process beside a
      flood, so the flood's client work does not count in its latency).

Talks to 127.0.0.1 only. Prints a JSON summary on stdout: requests, status counts, problem
codes of 5xx answers, connection errors, latency percentiles (overall, per kind, /healthz).
"""

import argparse
import asyncio
import json
import random
import time

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
AI_ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
# Not a proper puzzle (many solutions): ~92,000 guesses, ~20 ms: the slowest input known.
NORVIG_HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
# The slowest input known (13 givens, several solutions; about 80,000 guesses, ~20 ms).
SLOWEST = "....8.....18..9..............6.9.....4....8.....62............3.5..........9....."


def rows(line, as_int):
    cells = [(0 if c == "." else int(c)) if as_int else c for c in line]
    return [cells[i : i + 9] for i in range(0, 81, 9)]


def json_body(value):
    return json.dumps(value).encode()


# (kind, weight, method, path, content type, body)
MIX = [
    ("valid", 20, "POST", "/solve", "application/json", json_body({"board": PUZZLE})),
    ("valid", 10, "POST", "/solve", "application/json", json_body({"board": rows(PUZZLE, True)})),
    ("valid", 10, "POST", "/solve", "application/json", json_body({"board": rows(PUZZLE, False)})),
    ("valid", 10, "POST", "/validate", "application/json", json_body({"board": PUZZLE})),
    ("valid", 3, "POST", "/solve/batch", "application/json",
     json_body({"boards": [PUZZLE, EASTER_MONSTER, "." * 81, "x"] * 5})),
    ("valid", 5, "GET", "/healthz", None, b""),
    ("valid", 1, "GET", "/metrics", None, b""),
    ("invalid", 5, "POST", "/solve", "application/json", b'{"board": "53..7'),
    ("invalid", 5, "POST", "/solve", "application/json", b'{"board": [[1.5]]}'),
    ("invalid", 3, "POST", "/solve", "text/plain", json_body({"board": PUZZLE})),
    ("invalid", 3, "POST", "/solve", "application/json", b"{\"board\": \"\xff\xfe\"}"),
    ("invalid", 3, "POST", "/solve", "application/json", b"[" * 30000 + b"]" * 30000),
    ("invalid", 2, "POST", "/solve", "application/json", b'{"board": "' + b"1" * 70000 + b'"}'),
    ("invalid", 3, "GET", "/solve", None, b""),
    ("invalid", 3, "GET", "/nowhere", None, b""),
    ("invalid", 5, "POST", "/solve", "application/json",
     json_body({"board": "55" + PUZZLE[2:]})),  # 422
    ("hard", 4, "POST", "/solve", "application/json", json_body({"board": EASTER_MONSTER})),
    ("hard", 4, "POST", "/validate", "application/json", json_body({"board": AI_ESCARGOT})),
    ("hard", 2, "POST", "/solve", "application/json", json_body({"board": NORVIG_HARD1})),
    ("hard", 2, "POST", "/solve", "application/json", json_body({"board": "." * 81})),
]
FLOOD = [("hard", 1, "POST", "/solve", "application/json", json_body({"board": SLOWEST}))]


def encode(method, path, content_type, body):
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if content_type:
        head += f"Content-Type: {content_type}\r\n"
    if body or method == "POST":
        head += f"Content-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + body


async def read_response(reader, method):
    """Returns (status, headers, body); raises on a closed or broken connection."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed")
    status = int(status_line.split()[1])
    headers = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    body = b""
    if method != "HEAD":
        if "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            while True:
                size = int((await reader.readline()).strip(), 16)
                chunk = await reader.readexactly(size + 2)
                if size == 0:
                    break
                body += chunk[:-2]
    return status, headers, body


class Stats:
    def __init__(self):
        self.sent = 0
        self.statuses = {}
        self.codes_5xx = {}
        self.errors = {}
        self.latencies = {}
        self.retry_after_missing = 0
        self.reconnects = 0

    def record(self, kind, status, headers, body, elapsed):
        self.sent += 1
        self.statuses[status] = self.statuses.get(status, 0) + 1
        self.latencies.setdefault(kind, []).append(elapsed)
        if status >= 500:
            try:
                code = json.loads(body).get("code", "?")
            except ValueError:
                code = "not-json"
            self.codes_5xx[f"{status} {code}"] = self.codes_5xx.get(f"{status} {code}", 0) + 1
            if code == "overloaded" and "retry-after" not in headers:
                self.retry_after_missing += 1

    def error(self, what):
        self.errors[what] = self.errors.get(what, 0) + 1


def percentiles(values):
    if not values:
        return None
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))]
    return {
        "n": len(values),
        "p50_ms": round(pick(0.50) * 1e3, 3),
        "p99_ms": round(pick(0.99) * 1e3, 3),
        "max_ms": round(values[-1] * 1e3, 3),
    }


async def worker(port, deadline, requests, weights, stats, rng):
    reader = writer = None
    while time.monotonic() < deadline:
        if writer is None:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError as err:
                stats.error(f"connect: {type(err).__name__}")
                await asyncio.sleep(0.05)
                continue
        kind, _, method, path, content_type, body = rng.choices(requests, weights)[0]
        started = time.monotonic()
        try:
            writer.write(encode(method, path, content_type, body))
            await writer.drain()
            status, headers, answer = await asyncio.wait_for(read_response(reader, method), 30)
        except (OSError, ConnectionError, asyncio.IncompleteReadError, asyncio.TimeoutError,
                ValueError, IndexError) as err:
            stats.error(type(err).__name__)
            writer.close()
            reader = writer = None
            continue
        if kind == "hard" and requests is FLOOD:
            kind = "shed" if status == 503 else "answered"
        stats.record(kind, status, headers, answer, time.monotonic() - started)
        if headers.get("connection", "").lower() == "close":
            # The server closes after answers it sends before reading the whole body
            # (413 on a large body, for one): reconnect, as any client would.
            writer.close()
            reader = writer = None
            stats.reconnects += 1
    if writer is not None:
        writer.close()


async def health_probe(port, deadline, stats):
    reader = writer = None
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(encode("GET", "/healthz", None, b""))
            await writer.drain()
            status, headers, body = await asyncio.wait_for(read_response(reader, "GET"), 10)
            stats.record("healthz", status, headers, body, time.monotonic() - started)
        except (OSError, ConnectionError, asyncio.IncompleteReadError, asyncio.TimeoutError,
                ValueError) as err:
            stats.error(f"healthz {type(err).__name__}")
            reader = writer = None
        await asyncio.sleep(0.05)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["mix", "flood", "probe"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--concurrency", type=int)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    requests = MIX if args.mode == "mix" else FLOOD
    concurrency = args.concurrency or (32 if args.mode == "mix" else 500)
    weights = [r[1] for r in requests]
    stats, health = Stats(), Stats()
    started = time.monotonic()
    deadline = started + args.seconds
    if args.mode == "probe":
        await health_probe(args.port, deadline, health)
        print(json.dumps({
            "statuses": {str(k): v for k, v in health.statuses.items()},
            "errors": health.errors,
            "latency": percentiles(health.latencies.get("healthz", [])),
        }, indent=2))
        return
    rng = random.Random(args.seed)
    tasks = [
        worker(args.port, deadline, requests, weights, stats, random.Random(rng.random()))
        for _ in range(concurrency)
    ]
    await asyncio.gather(*tasks)
    took = time.monotonic() - started
    all_latencies = [x for values in stats.latencies.values() for x in values]
    summary = {
        "mode": args.mode,
        "seconds": round(took, 2),
        "concurrency": concurrency,
        "requests": stats.sent,
        "per_second": round(stats.sent / took, 1),
        "statuses": {str(k): v for k, v in sorted(stats.statuses.items())},
        "codes_5xx": stats.codes_5xx,
        "overloaded_without_retry_after": stats.retry_after_missing,
        "errors": stats.errors,
        "reconnects_after_close": stats.reconnects,
        "latency": percentiles(all_latencies),
        "latency_by_kind": {k: percentiles(v) for k, v in sorted(stats.latencies.items())},
    }
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
