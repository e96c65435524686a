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

The hostile soak (soak.sh --hostile) runs each of these as its own process, side by side:

  soak_driver.py client      --port P --seconds S
      The well-behaved client: one keep-alive connection (reopened only when the server
      closed it, or after an error) sending POST /solve of an ordinary puzzle and GET
      /healthz alternately every 20 ms; an answer later than 2 s, a refused or reset
      connection, a close mid-request or any status but 200 is an error.
  soak_driver.py admin-probe --port ADMIN_PORT --seconds S
      GET /healthz on the admin address every 200 ms, a new connection each time (as a
      kubelet probes), 2 s timeout.
  soak_driver.py nonreaders  --port P --seconds S [--concurrency 20]
      Connections with a 4 KiB receive buffer (SO_RCVBUF before connect) that pipeline
      GET /openapi.yaml (up to 10,000 a connection) and never read; reopened when the
      server closes them.
  soak_driver.py idle        --port P --seconds S [--concurrency 900] [--half-heads 100]
      Connections opened (1 ms apart) and left silent, and connections that send half a
      request head then one byte of it every 2 s (slowloris); each reopened at once when
      the server closes it.
  soak_driver.py slow-body   --port P --seconds S [--concurrency 20]
      POST /solve with its Content-Length, the body trickled one byte a second.
  soak_driver.py batch-burst --port P --seconds S [--concurrency 4] [--boards 1000] [--every 5]
      Every EVERY seconds, CONCURRENCY batches of BOARDS hard puzzles at once, each on a
      new connection (30 s timeout), the burst awaited before the next.
  soak_driver.py log-spam    --port P --seconds S [--concurrency 2] [--rate 1000]
      Cheap requests the server logs at INFO (GET of an unknown path: 404), RATE a second
      in all, ten pipelined at a time: more lines than the log's queue of 8,192 holds.
  soak_driver.py hup-storm   --pid PID --seconds S --keys-file F [--every 0.1]
      SIGHUP to PID every 0.1 s; before each, F is rewritten (atomically) with the soak's
      key and a second key that changes every time, so each reload takes a new key set.
  soak_driver.py watch       --pid PID --seconds S
      Samples PID's RSS, open fds and threads every 0.5 s, and notes when it died.
  soak_driver.py metrics     --port P
      Reads GET /metrics once and prints its counters and gauges summed by name (and
      http_requests_total by status).

The API key, when the server needs one, comes from the environment (SOAK_API_KEY) and
goes in `Authorization: Bearer KEY` on every request. Every mode stops by itself at its
deadline.

Talks to 127.0.0.1 only. Prints a JSON summary on stdout: requests, status counts, problem
codes of 5xx answers, connection errors, latency percentiles (overall, per kind, /healthz).
"""

import argparse
import asyncio
import errno
import fcntl
import json
import os
import random
import resource
import signal
import socket
import struct
import termios
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


def encode(method, path, content_type, body, key=None):
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if key:
        head += f"Authorization: Bearer {key}\r\n"
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


# ---------------------------------------------------------------------------------------
# The hostile soak's groups (soak.sh --hostile). Each runs as its own process.

# Hard boards for the batch bursts: the slowest inputs known and the classic hard puzzles.
HARD_BOARDS = [SLOWEST, NORVIG_HARD1, EASTER_MONSTER, AI_ESCARGOT, "." * 81]
TCP_ESTABLISHED = 1
CONNECT_TIMEOUT = 5


def count(table, what, n=1):
    table[what] = table.get(what, 0) + n


def error_name(err):
    if isinstance(err, asyncio.TimeoutError):
        return "timeout"
    if isinstance(err, asyncio.IncompleteReadError):
        return "closed mid-answer"
    return type(err).__name__


async def open_connection(port, timeout=CONNECT_TIMEOUT):
    return await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)


def close(writer):
    if writer is not None:
        try:
            writer.close()
        except OSError:
            pass


async def well_behaved_client(port, started_at, deadline, key, interval, timeout):
    """One keep-alive connection, /solve and /healthz in turn every `interval` seconds."""
    exchanges = [
        ("solve", "POST", encode("POST", "/solve", "application/json",
                                 json_body({"board": PUZZLE}), key)),
        ("healthz", "GET", encode("GET", "/healthz", None, b"", key)),
    ]
    latencies = {"solve": [], "healthz": []}
    errors, statuses = {}, {}
    connects = idle_closes = 0
    first_error = None
    reader = writer = None
    turn = 0
    next_at = time.monotonic()
    while time.monotonic() < deadline:
        kind, method, raw = exchanges[turn % 2]
        turn += 1
        if writer is not None and reader.at_eof():
            # The server closed the kept-alive connection between requests: reconnect, as
            # any client does; not an error by itself.
            idle_closes += 1
            close(writer)
            reader = writer = None
        started = time.monotonic()

        async def exchange():
            nonlocal reader, writer, connects
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                connects += 1
            writer.write(raw)
            await writer.drain()
            return await read_response(reader, method)

        try:
            status, headers, _ = await asyncio.wait_for(exchange(), timeout)
        except (OSError, ConnectionError, asyncio.IncompleteReadError, asyncio.TimeoutError,
                ValueError, IndexError) as err:
            # read_response raises ConnectionError("closed") on a close before the answer.
            what = f"{kind}: {error_name(err)}"
            if type(err) is ConnectionError and str(err) == "closed":
                what = f"{kind}: closed before the answer"
            count(errors, what)
            if first_error is None:
                first_error = {"at_s": round(started - started_at, 2), "what": what}
            close(writer)
            reader = writer = None
        else:
            elapsed = time.monotonic() - started
            count(statuses, f"{kind} {status}")
            if status == 200:
                latencies[kind].append(elapsed)
            else:
                count(errors, f"{kind}: status {status}")
                if first_error is None:
                    first_error = {"at_s": round(started - started_at, 2),
                                   "what": f"{kind}: status {status}"}
            if headers.get("connection", "").lower() == "close":
                close(writer)
                reader = writer = None
        next_at += interval
        pause = next_at - time.monotonic()
        if pause > 0:
            await asyncio.sleep(min(pause, max(0, deadline - time.monotonic())))
        else:
            next_at = time.monotonic()  # behind: do not burst to catch up
    close(writer)
    both = latencies["solve"] + latencies["healthz"]
    return {
        "requests": turn,
        "answered_200": len(both),
        "errors": errors,
        "error_count": sum(errors.values()),
        "first_error": first_error,
        "statuses": statuses,
        "connections_opened": connects,
        "closed_by_server_while_idle": idle_closes,
        "latency": percentiles(both),
        "latency_by_kind": {k: percentiles(v) for k, v in latencies.items()},
    }


async def admin_probe(port, deadline, interval, timeout):
    """GET /healthz on a new connection every `interval` seconds."""
    latencies, errors, statuses = [], {}, {}
    probes = 0
    while time.monotonic() < deadline:
        started = time.monotonic()
        probes += 1
        writer = None
        try:
            async def probe():
                nonlocal writer
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                await writer.drain()
                return await read_response(reader, "GET")

            status, _, _ = await asyncio.wait_for(probe(), timeout)
            count(statuses, str(status))
            if status == 200:
                latencies.append(time.monotonic() - started)
            else:
                count(errors, f"status {status}")
        except (OSError, ConnectionError, asyncio.IncompleteReadError, asyncio.TimeoutError,
                ValueError, IndexError) as err:
            count(errors, error_name(err))
        close(writer)
        await asyncio.sleep(max(0, min(started + interval - time.monotonic(),
                                       deadline - time.monotonic())))
    return {
        "probes": probes,
        "errors": errors,
        "error_count": sum(errors.values()),
        "statuses": statuses,
        "latency": percentiles(latencies),
    }


def tcp_state(sock):
    """The kernel's TCP state of `sock` (1 established, 7 closed, 8 close-wait: the peer
    sent its FIN), read without reading any data."""
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0]


def unread_bytes(sock):
    buf = fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0\0\0\0")
    return struct.unpack("i", buf)[0]


async def nonreaders(port, deadline, concurrency, key, per_connection=10_000):
    """Connections that pipeline GET /openapi.yaml and never read a byte."""
    request = encode("GET", "/openapi.yaml", None, b"", key)
    stats = {"connections_opened": 0, "closed_by_server": 0, "connect_errors": {},
             "requests_written": 0}
    held = []  # the sockets still open at the deadline
    loop = asyncio.get_running_loop()

    async def one():
        while time.monotonic() < deadline:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.setblocking(False)
            try:
                await asyncio.wait_for(loop.sock_connect(sock, ("127.0.0.1", port)),
                                       CONNECT_TIMEOUT)
            except (OSError, asyncio.TimeoutError) as err:
                count(stats["connect_errors"], error_name(err))
                sock.close()
                await asyncio.sleep(0.1)
                continue
            stats["connections_opened"] += 1
            written = 0  # bytes
            pending = b""
            closed = False
            while time.monotonic() < deadline:
                try:
                    if tcp_state(sock) != TCP_ESTABLISHED:
                        closed = True
                        break
                    while written < per_connection * len(request):
                        if not pending:
                            pending = request * 100
                        n = sock.send(pending)
                        pending = pending[n:]
                        written += n
                except BlockingIOError:
                    pass
                except OSError:  # reset, broken pipe: the server closed it
                    closed = True
                    break
                await asyncio.sleep(0.1)
            stats["requests_written"] += written // len(request)
            if closed:
                stats["closed_by_server"] += 1
                sock.close()
                continue
            held.append(sock)
            return

    await asyncio.gather(*(one() for _ in range(concurrency)))
    # At the deadline: what reached our buffers, unread (peeked, not read), and what the
    # server has written that waits in its own send queues (/proc/net/tcp).
    unread = answers = 0
    ours = set()
    for sock in held:
        try:
            ours.add(sock.getsockname()[1])
            unread += unread_bytes(sock)
            answers += sock.recv(1 << 20, socket.MSG_PEEK).count(b"HTTP/1.1 ")
        except OSError:
            pass
    queued = server_send_queues(port, ours)
    for sock in held:
        sock.close()
    stats.update({
        "connections_open_at_end": len(held),
        "unread_bytes_at_end": unread,
        "answer_heads_in_unread_buffers": answers,
        "server_send_queue_bytes_at_end": queued,
    })
    return stats


def server_send_queues(server_port, peer_ports):
    """Bytes in the send queues of the server's sockets to `peer_ports` on 127.0.0.1."""
    total = 0
    try:
        with open("/proc/net/tcp") as table:
            for line in list(table)[1:]:
                fields = line.split()
                local, remote, queues = fields[1], fields[2], fields[4]
                if (int(local.split(":")[1], 16) == server_port
                        and int(remote.split(":")[1], 16) in peer_ports):
                    total += int(queues.split(":")[0], 16)
    except OSError:
        return None
    return total


async def idle_flood(port, deadline, silent, half_heads, key):
    """Silent connections, and half-sent heads trickled a byte every 2 s; each reopened
    when the server closes it."""
    half_head = (f"POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n"
                 if key else "POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\n").encode() \
        + b"Content-Type: application/json\r\nX-Slow: "
    groups = {
        name: {"connections_opened": 0, "closed_by_server": 0, "reset_by_server": 0,
               "connect_errors": {}, "answers": {}, "lifetimes": [], "open_at_end": 0,
               "oldest_open_at_end_s": 0}
        for name in ("silent", "half_heads")
    }

    async def one(name, place):
        stats = groups[name]
        # Opened a millisecond apart, not all at once: a burst overflows the listen backlog
        # (128) and the connections the kernel dropped the last ACK of are open for the
        # client only (silent, nothing tells it), never held by the server.
        await asyncio.sleep(place / 1000)
        while (connection := await connect_until(port, deadline, stats)) is not None:
            reader, writer = connection
            opened = time.monotonic()
            try:
                if name == "half_heads":
                    writer.write(half_head)
                while True:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        stats["open_at_end"] += 1
                        stats["oldest_open_at_end_s"] = max(stats["oldest_open_at_end_s"],
                                                            round(time.monotonic() - opened, 1))
                        break
                    try:
                        data = await asyncio.wait_for(reader.read(4096),
                                                      min(left, 2) if name == "half_heads" else left)
                    except asyncio.TimeoutError:
                        if name == "half_heads" and time.monotonic() < deadline:
                            writer.write(b"a")
                            await writer.drain()
                        continue
                    if data.startswith(b"HTTP/1.1 "):
                        count(stats["answers"], data[9:12].decode("latin-1"))
                    if not data:
                        stats["closed_by_server"] += 1
                        stats["lifetimes"].append(time.monotonic() - opened)
                        break
            except (OSError, ConnectionError):
                stats["reset_by_server"] += 1
                stats["lifetimes"].append(time.monotonic() - opened)
            close(writer)

    await asyncio.gather(*(one("silent", i) for i in range(silent)),
                         *(one("half_heads", silent + i) for i in range(half_heads)))
    for stats in groups.values():
        lifetimes = stats.pop("lifetimes")
        stats["lifetime_until_closed"] = percentiles(lifetimes)
    return {"at_once": {"silent": silent, "half_heads": half_heads}, **groups}


async def slow_bodies(port, deadline, concurrency, key):
    """POST /solve with its Content-Length, the body a byte a second."""
    body = json_body({"board": PUZZLE})
    head = encode("POST", "/solve", "application/json", b"", key).replace(
        b"Content-Length: 0", f"Content-Length: {len(body)}".encode())
    stats = {"connections_opened": 0, "requests": 0, "body_bytes_trickled": 0,
             "answers": {}, "closed_by_server_without_answer": 0, "connect_errors": {},
             "closed_by_server_after_answer": 0}
    latencies = []

    async def one():
        while (connection := await connect_until(port, deadline, stats)) is not None:
            reader, writer = connection
            stats["requests"] += 1
            started = time.monotonic()
            answer = asyncio.ensure_future(read_response(reader, "POST"))
            try:
                writer.write(head)
                sent = 0
                while not answer.done() and time.monotonic() < deadline:
                    if sent < len(body):
                        writer.write(body[sent:sent + 1])
                        await writer.drain()
                        sent += 1
                        stats["body_bytes_trickled"] += 1
                    await asyncio.wait({answer}, timeout=min(1, max(0, deadline - time.monotonic())))
            except (OSError, ConnectionError):
                pass
            if answer.done() and not answer.cancelled():
                try:
                    status, headers, _ = answer.result()
                    count(stats["answers"], str(status))
                    latencies.append(time.monotonic() - started)
                    try:
                        if await asyncio.wait_for(reader.read(1), 0.5) == b"":
                            stats["closed_by_server_after_answer"] += 1
                    except (asyncio.TimeoutError, OSError):
                        pass
                except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError,
                        IndexError):
                    stats["closed_by_server_without_answer"] += 1
            else:
                answer.cancel()
            close(writer)

    await asyncio.gather(*(one() for _ in range(concurrency)))
    stats["answer_latency"] = percentiles(latencies)
    return stats


async def batch_bursts(port, deadline, concurrency, boards, every, key):
    """Bursts of `concurrency` batches of `boards` hard boards at once."""
    body = json_body({"boards": [HARD_BOARDS[i % len(HARD_BOARDS)] for i in range(boards)]})
    request = encode("POST", "/solve/batch", "application/json", body, key)
    stats = {"bursts": 0, "batches": 0, "boards_a_batch": boards, "body_bytes": len(body),
             "statuses": {}, "errors": {}, "unfinished_at_deadline": 0, "board_results": {}}
    latencies = []

    async def one():
        writer = None
        started = time.monotonic()
        try:
            async def exchange():
                nonlocal writer
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(request)
                await writer.drain()
                return await read_response(reader, "POST")

            # 30 s, but not past the deadline: the run stops by itself.
            wait = max(1, min(30, deadline - started))
            status, _, answer = await asyncio.wait_for(exchange(), wait)
        except (OSError, ConnectionError, asyncio.IncompleteReadError, asyncio.TimeoutError,
                ValueError, IndexError) as err:
            if isinstance(err, asyncio.TimeoutError) and time.monotonic() >= deadline:
                stats["unfinished_at_deadline"] += 1
            else:
                count(stats["errors"], error_name(err))
        else:
            count(stats["statuses"], str(status))
            latencies.append(time.monotonic() - started)
            if status == 200:
                for result in json.loads(answer)["results"]:
                    count(stats["board_results"],
                          result["error"]["code"] if "error" in result else "solved")
            elif status >= 500:
                try:
                    count(stats["statuses"], f"{status} {json.loads(answer).get('code')}")
                except ValueError:
                    pass
        close(writer)

    while time.monotonic() < deadline:
        started = time.monotonic()
        stats["bursts"] += 1
        stats["batches"] += concurrency
        await asyncio.gather(*(one() for _ in range(concurrency)))
        await asyncio.sleep(max(0, min(started + every - time.monotonic(),
                                       deadline - time.monotonic())))
    stats["batch_latency"] = percentiles(latencies)
    return stats


async def log_spam(port, deadline, concurrency, rate, key):
    """Cheap requests the server logs at INFO (404s of an unknown path, with the key), at
    `rate` a second over `concurrency` keep-alive connections, ten pipelined at a time: more
    lines than the log's queue holds, so a log that does not drain must drop them."""
    request = encode("GET", "/nowhere", None, b"", key)
    stats = {"rate_asked": rate, "requests": 0, "statuses": {}, "errors": {},
             "connections_opened": 0}
    per_connection = rate / max(1, concurrency)

    async def one():
        reader = writer = None
        next_at = time.monotonic()
        while time.monotonic() < deadline:
            try:
                if writer is None:
                    reader, writer = await open_connection(port)
                    stats["connections_opened"] += 1
                writer.write(request * 10)
                await writer.drain()
                for _ in range(10):
                    status, _, _ = await asyncio.wait_for(read_response(reader, "GET"), 10)
                    count(stats["statuses"], str(status))
                    stats["requests"] += 1
            except (OSError, ConnectionError, asyncio.IncompleteReadError, asyncio.TimeoutError,
                    ValueError, IndexError) as err:
                count(stats["errors"], error_name(err))
                close(writer)
                reader = writer = None
                await asyncio.sleep(0.1)
            next_at += 10 / per_connection
            pause = next_at - time.monotonic()
            if pause > 0:
                await asyncio.sleep(min(pause, max(0, deadline - time.monotonic())))
            else:
                next_at = time.monotonic()
        close(writer)

    await asyncio.gather(*(one() for _ in range(concurrency)))
    return stats


def write_keys(path, key, n):
    """The soak's key and a key that changes with `n`, written whole then renamed over."""
    tmp = f"{path}.tmp"
    with open(tmp, "w") as out:
        out.write(f"# hostile soak, rewrite {n}\nsoak {key}\nrotating rot{n:016d}xyz\n")
    os.replace(tmp, path)


async def hup_storm(pid, deadline, every, keys_file, key):
    sent = rewrites = 0
    died = False
    while time.monotonic() < deadline:
        if keys_file and key:
            write_keys(keys_file, key, sent)
            rewrites += 1
        try:
            os.kill(pid, signal.SIGHUP)
            sent += 1
        except ProcessLookupError:
            died = True
            break
        await asyncio.sleep(max(0, min(every, deadline - time.monotonic())))
    if keys_file and key:
        write_keys(keys_file, key, sent)
    return {"sighups_sent": sent, "keys_file_rewrites": rewrites, "target_gone": died}


def proc_sample(pid):
    status = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            status[name] = value.split()
    return {
        "rss_kb": int(status["VmRSS"][0]),
        "fds": len(os.listdir(f"/proc/{pid}/fd")),
        "threads": int(status["Threads"][0]),
        "state": status["State"][0],
    }


async def watch(pid, deadline, started):
    samples = []
    died_at = None
    while time.monotonic() < deadline:
        try:
            sample = proc_sample(pid)
        except (FileNotFoundError, ProcessLookupError, KeyError):
            died_at = round(time.monotonic() - started, 2)
            break
        if sample["state"] == "Z":
            died_at = round(time.monotonic() - started, 2)
            break
        samples.append(sample)
        await asyncio.sleep(0.5)
    pick = lambda key: [s[key] for s in samples]
    return {
        "samples": len(samples),
        "died_at_s": died_at,
        "rss_kb": {"first": samples[0]["rss_kb"], "max": max(pick("rss_kb")),
                   "last": samples[-1]["rss_kb"]} if samples else None,
        "fds": {"first": samples[0]["fds"], "max": max(pick("fds")),
                "last": samples[-1]["fds"]} if samples else None,
        "threads_max": max(pick("threads")) if samples else None,
    }


async def connect_until(port, deadline, stats):
    """A new connection, counted in stats["connections_opened"]; after a failure (counted
    in stats["connect_errors"]) tried again 0.2 s later; None once the deadline has passed."""
    while time.monotonic() < deadline:
        try:
            connection = await open_connection(port)
        except (OSError, asyncio.TimeoutError) as err:
            count(stats["connect_errors"], error_name(err))
            await asyncio.sleep(0.2)
            continue
        stats["connections_opened"] += 1
        return connection
    return None


async def read_metrics(port):
    reader, writer = await open_connection(port)
    writer.write(encode("GET", "/metrics", None, b""))
    await writer.drain()
    status, _, body = await asyncio.wait_for(read_response(reader, "GET"), 10)
    close(writer)
    totals, by_status = {}, {}
    for line in body.decode().splitlines():
        if not line or line.startswith("#"):
            continue
        name_labels, _, value = line.rpartition(" ")
        name = name_labels.partition("{")[0]
        if name.endswith(("_bucket", "_sum", "_count")):
            continue
        totals[name] = totals.get(name, 0) + float(value)
        if name == "http_requests_total" and 'status="' in name_labels:
            code = name_labels.split('status="')[1].split('"')[0]
            by_status[code] = by_status.get(code, 0) + float(value)
    return {"status": status, "totals": totals, "http_requests_by_status": by_status}


HOSTILE_MODES = ["client", "admin-probe", "nonreaders", "idle", "slow-body", "batch-burst",
                 "log-spam", "hup-storm", "watch", "metrics"]


async def hostile(args):
    key = os.environ.get("SOAK_API_KEY") or None
    # A thousand sockets in one process: lift the soft fd limit to the hard one.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
        except (ValueError, OSError):
            pass
    started = time.monotonic()
    deadline = started + args.seconds
    if args.mode == "client":
        result = await well_behaved_client(args.port, started, deadline, key, 0.02, 2.0)
    elif args.mode == "admin-probe":
        result = await admin_probe(args.port, deadline, 0.2, 2.0)
    elif args.mode == "nonreaders":
        result = await nonreaders(args.port, deadline, args.concurrency or 20, key)
    elif args.mode == "idle":
        result = await idle_flood(args.port, deadline, 900 if args.concurrency is None
                                  else args.concurrency, args.half_heads, key)
    elif args.mode == "slow-body":
        result = await slow_bodies(args.port, deadline, args.concurrency or 20, key)
    elif args.mode == "batch-burst":
        result = await batch_bursts(args.port, deadline, args.concurrency or 4, args.boards,
                                    args.every or 5, key)
    elif args.mode == "log-spam":
        result = await log_spam(args.port, deadline, args.concurrency or 2, args.rate, key)
    elif args.mode == "hup-storm":
        result = await hup_storm(args.pid, deadline, args.every or 0.1, args.keys_file, key)
    elif args.mode == "watch":
        result = await watch(args.pid, deadline, started)
    else:
        result = await read_metrics(args.port)
    if args.mode != "metrics":
        result = {"mode": args.mode, "seconds": round(time.monotonic() - started, 2), **result}
    print(json.dumps(result, indent=2))


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["mix", "flood", "probe", *HOSTILE_MODES])
    parser.add_argument("--port", type=int)
    parser.add_argument("--pid", type=int, help="hup-storm, watch: the server's process")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--concurrency", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--half-heads", type=int, default=100, help="idle")
    parser.add_argument("--boards", type=int, default=1000, help="batch-burst")
    parser.add_argument("--every", type=float, help="batch-burst, hup-storm: seconds")
    parser.add_argument("--keys-file", help="hup-storm: rewritten before each SIGHUP")
    parser.add_argument("--rate", type=float, default=1000, help="log-spam: requests a second")
    args = parser.parse_args()
    if not 0 < args.seconds <= 3700:
        parser.error("--seconds must be over 0 and at most 3700")
    if args.mode in ("hup-storm", "watch"):
        if args.pid is None:
            parser.error(f"{args.mode} needs --pid")
    elif args.port is None:
        parser.error(f"{args.mode} needs --port")
    if args.mode in HOSTILE_MODES:
        await hostile(args)
        return
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
