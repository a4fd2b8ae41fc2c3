"""The client harness shared by ``bench/live.py`` (State in Class) and ``bench/otree_peer.py``.

Both benchmarks measure the same thing the same way: phones in groups (a table, an oTree
group) each send one vote over a real websocket, and an observer socket per group (our
projector; in oTree, the group's first player) receives the updated count. For every ballot
the latency is "phone sent it" → "observer received the count that includes it".

Counts carry no voter, so ballots are attributed in order: per group, the send times sorted
are matched with the arrival times of counts 1, 2, … n sorted (the k-th ballot sent is charged
with the k-th count seen). This is the fair pairing whatever order the server processed them
in, and it is applied identically to both servers.

Also here: servers as subprocesses (stopped by PID in ``finally``), resident memory from
``/proc``, percentiles, the result table and the JSON file under ``bench/results/``.
Everything is bounded: every wait has a timeout; every address is loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import platform
import random
import resource
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
HOST = "127.0.0.1"  # loopback only: nothing here ever talks to another address


# --------------------------------------------------------------------------- machine facts


def commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                             capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=ROOT, text=True, capture_output=True, check=True).stdout
        return out + ("+dirty" if dirty.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def machine() -> dict[str, Any]:
    return {"cores": os.cpu_count(), "python": platform.python_version(),
            "load_average": [round(x, 2) for x in os.getloadavg()], "commit": commit()}


def raise_open_files(wanted: int) -> int:
    """Lift the soft limit on open files towards ``wanted`` (one per socket); the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        soft = new
    return soft


def pin(cpu: int | None) -> list[str]:
    """A ``taskset`` prefix that pins a command to one CPU (nothing if it cannot be done)."""
    if cpu is None or not shutil.which("taskset") or (os.cpu_count() or 1) <= cpu:
        return []
    return ["taskset", "-c", str(cpu)]


def pin_self(cpu: int | None) -> None:
    if cpu is not None and hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > cpu:
        os.sched_setaffinity(0, {cpu})


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


# --------------------------------------------------------------------------- memory


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as f:
                kids.extend(int(k) for k in f.read().split())
    return kids


def _tree(pids: Sequence[int]) -> list[int]:
    out, todo, seen = [], list(pids), set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        out.append(pid)
        todo.extend(_children(pid))
    return out


def cpu_seconds(pids: Sequence[int]) -> float:
    """CPU time (user + system) used so far by these processes and their descendants."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in _tree(pids):
        with contextlib.suppress(OSError, ValueError, IndexError), \
                open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
    return total / tick


def rss_bytes(pids: Sequence[int]) -> int:
    """Resident memory of these processes and all their descendants (Linux ``/proc``)."""
    total = 0
    for pid in _tree(pids):
        with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


# --------------------------------------------------------------------------- servers


class Server:
    """One server process on a loopback port; its output goes to ``log``; stopped by PID.

    It gets its own process group, so that ``stop`` also ends the children it started itself
    (oTree's prodserver starts a timeout subprocess) and nothing else.
    """

    def __init__(self, argv: list[str], *, port: int, env: dict[str, str], cwd: Path,
                 log: Path, wrapped: bool = False) -> None:
        self.port, self.log = port, log
        self.wrapped = wrapped  # argv starts a wrapper (a profiler) that runs the server
        self._out = log.open("wb")
        self.process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=self._out,
                                        stderr=subprocess.STDOUT, start_new_session=True)

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited ({self.process.returncode}):\n{self.tail()}")
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), 0.5):
                return
            time.sleep(0.1)
        raise RuntimeError(f"server did not listen on {self.port} in {timeout} s:\n"
                           f"{self.tail()}")

    def stop(self) -> None:
        if self.wrapped and self.process.poll() is None:
            # Stop the server under the wrapper first, so that the wrapper (py-spy) sees it
            # exit and writes its output.
            for kid in _children(self.process.pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(kid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=60)
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)  # our own group: pgid == our pid
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        else:  # the leader is gone; end what is left of its group (by its id) all the same
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
        self._out.close()

    def tail(self, chars: int = 4000) -> str:
        if not self._out.closed:
            self._out.flush()
        return self.log.read_text(errors="replace")[-chars:]

    def url(self, path: str) -> str:
        return f"ws://{HOST}:{self.port}{path}"

    @property
    def origin(self) -> str:
        return f"http://{HOST}:{self.port}"


async def open_socket(url: str, *, origin: str, cookie: str = "", timeout: float = 30
                      ) -> ClientConnection:
    headers = {"Cookie": cookie} if cookie else {}
    return await connect(url, origin=origin, additional_headers=headers, proxy=None,
                         open_timeout=timeout, close_timeout=2, ping_interval=None,
                         max_size=2**24, compression=None)


# --------------------------------------------------------------------------- the vote burst


@dataclass
class Voter:
    """One phone: where it sits, what it sends, and what happened to it."""

    group: str
    ws: ClientConnection | None = None
    payload: str = ""
    join_ms: float | None = None
    sent_at: float | None = None
    answered_at: float | None = None  # the server's answer to this phone (ack / own echo)
    error: str | None = None
    reader: Any = None  # the task reading this socket


@dataclass
class Burst:
    """The arrivals seen by each group's observer, filled in by the app-specific readers."""

    sizes: dict[str, int]  # group → number of voters
    arrivals: dict[str, dict[int, float]] = field(default_factory=dict)  # group → count → t
    started: float = 0.0

    def arrived(self, group: str, count: int, at: float) -> None:
        self.arrivals.setdefault(group, {}).setdefault(count, at)

    def complete(self) -> bool:
        return all(len(self.arrivals.get(g, {})) >= n for g, n in self.sizes.items())


async def run_burst(voters: list[Voter], burst: Burst, *, spread: float, timeout: float,
                    seed: int = 1) -> dict[str, Any]:
    """Every voter sends once, at a random instant within ``spread`` seconds; then wait (at
    most ``timeout``) until every group's observer has seen every count. Latencies in ms."""
    rng = random.Random(seed)
    offsets = [rng.uniform(0, spread) for _ in voters]
    burst.started = time.perf_counter()

    async def send(voter: Voter, offset: float) -> None:
        await asyncio.sleep(max(0.0, burst.started + offset - time.perf_counter()))
        assert voter.ws is not None
        voter.sent_at = time.perf_counter()
        try:
            await voter.ws.send(voter.payload)
        except Exception as exc:  # a closed socket is an error to count, not a crash
            voter.error = f"send: {exc!r}"

    await asyncio.gather(*(send(v, o) for v, o in zip(voters, offsets, strict=True)))
    deadline = time.perf_counter() + timeout
    while not burst.complete() and time.perf_counter() < deadline:
        await asyncio.sleep(0.01)
    elapsed = time.perf_counter() - burst.started
    # A count may reach the observer before the last voter's own answer: wait (bounded) for
    # every voter's answer too, so none is left out of the answer times.
    while (any(v.answered_at is None and v.error is None for v in voters)
           and time.perf_counter() < deadline):
        await asyncio.sleep(0.01)

    latencies: list[float] = []
    sent_by_group: dict[str, list[float]] = {}
    for v in voters:
        if v.sent_at is not None and v.error is None:
            sent_by_group.setdefault(v.group, []).append(v.sent_at)
    missing = 0
    for group, sends in sent_by_group.items():
        arrivals = sorted(burst.arrivals.get(group, {}).values())
        sends.sort()
        missing += max(0, len(sends) - len(arrivals))
        latencies.extend((a - s) * 1000 for s, a in zip(sends, arrivals, strict=False))
    timeline = {g: {"sent_ms": [round((s - burst.started) * 1000, 1) for s in sends],
                    "counts_ms": {k: round((t - burst.started) * 1000, 1) for k, t in
                                  sorted(burst.arrivals.get(g, {}).items())}}
                for g, sends in sent_by_group.items()}
    sent = sum(len(s) for s in sent_by_group.values())
    answers = [(v.answered_at - v.sent_at) * 1000 for v in voters
               if v.answered_at is not None and v.sent_at is not None]
    return {"latencies_ms": latencies, "answer_ms": answers, "sent": sent,
            "counts_missing": missing, "errors": sum(v.error is not None for v in voters),
            "error_samples": sorted({v.error for v in voters if v.error})[:5],
            "seconds": elapsed, "complete": burst.complete(), "timeline": timeline}


async def gather_bounded(factories: list[Callable[[], Any]], limit: int) -> list[Any]:
    """Run coroutine factories with at most ``limit`` at once (joins, page loads)."""
    gate = asyncio.Semaphore(limit)

    async def one(factory: Callable[[], Any]) -> Any:
        async with gate:
            return await factory()

    return await asyncio.gather(*(one(f) for f in factories), return_exceptions=True)


async def wait_quiet(last_frame: Callable[[], float], quiet: float, timeout: float) -> bool:
    """Wait until no frame has arrived for ``quiet`` seconds (at most ``timeout``)."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if time.perf_counter() - last_frame() >= quiet:
            return True
        await asyncio.sleep(0.05)
    return False


# --------------------------------------------------------------------------- figures


def percentile(values: Sequence[float], q: float) -> float | None:
    """Linear interpolation between closest ranks (``q`` in 0–100); None if empty."""
    if not values:
        return None
    data = sorted(values)
    pos = (len(data) - 1) * q / 100
    low = int(pos)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (pos - low)


def summary(values: Sequence[float]) -> dict[str, Any]:
    def r(x: float | None) -> float | None:
        return None if x is None else round(x, 2)

    return {"n": len(values), "p50": r(percentile(values, 50)), "p95": r(percentile(values, 95)),
            "p99": r(percentile(values, 99)), "max": r(max(values) if values else None),
            "mean": r(sum(values) / len(values) if values else None)}


def fmt(value: Any, digits: int = 1) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def table(headers: list[str], rows: list[list[Any]]) -> str:
    cells = [[fmt(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(widths[0]) if i == 0 else h.rjust(widths[i])
                     for i, h in enumerate(headers))
    out = [line, "-" * len(line)]
    for r in cells:
        out.append("  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i])
                             for i, c in enumerate(r)))
    return "\n".join(out)


def write_result(name: str, result: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    return path
