"""The peer, side by side: the same vote burst against oTree, with the same client harness.

    python bench/otree_peer.py --scenario class    # 32 clients in groups of 8 (4 "tables")
    python bench/otree_peer.py --scenario school   # 1,000 clients in groups of 7,6,6,6, …

oTree (PyPI ``otree``, pinned below) is installed by this script into its own virtualenv,
``bench/.otree-venv`` (git-ignored; made once, reused), never into the project's. Nothing of
oTree is kept in the repository: the minimal app is written at run time into a temporary
directory. It has one live page; each player sends one vote, the page's ``live_method`` adds
it to the group's counter and broadcasts ``{"voted", "of"}`` to the whole group.

Measured like ``bench/live.py``: clients join (page load via ``/InitializeParticipant/…``,
then the live socket), every client votes at a random instant within the same ``--spread``,
and a vote's latency is "client sent it" → "the group's observer (its first player) received
the count that includes it", ballots matched with counts in order (``bench/harness.py``).
oTree runs as it is deployed (``otree prodserver``: one process, SQLite file database).

Then the comparison table with our figures from ``bench/results/live-<scenario>.json``
(run ``bench/live.py`` first, or pass ``--run-ours``): p50, p95, memory per client, and the
ratio ours / oTree (below 1: ours is faster or smaller). Writes
``bench/results/peer-<scenario>.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import harness, live  # noqa: E402
from bench.harness import HOST, Burst, Server, Voter  # noqa: E402

OTREE_VERSION = "6.0.15"
VENV = ROOT / "bench" / ".otree-venv"
REST_KEY = "bench-rest-key"

SCENARIOS: dict[str, dict[str, Any]] = {
    # The same clients, groups and timing as bench/live.py's scenarios of the same name.
    "class": {"clients": 32, "group_sizes": [8], "repeat": 5, "spread": 1.0, "join_limit": 32,
              "pin": True, "warmup": True},
    "school": {"clients": 1000, "group_sizes": [7, 6, 6, 6], "repeat": 1, "spread": 1.0,
               "join_limit": 100, "pin": False, "warmup": True},
    "smoke": {"clients": 8, "group_sizes": [8], "repeat": 1, "spread": 0.5, "join_limit": 8,
              "pin": False, "warmup": False},
}

SETTINGS_PY = '''
from os import environ
SESSION_CONFIGS = [dict(name="vote", app_sequence=["vote"], num_demo_participants=8,
                        group_sizes="8")]
SESSION_CONFIG_DEFAULTS = dict(real_world_currency_per_point=1.00, participation_fee=0.00,
                               doc="")
PARTICIPANT_FIELDS = []
SESSION_FIELDS = []
LANGUAGE_CODE = "en"
REAL_WORLD_CURRENCY_CODE = "USD"
USE_POINTS = True
ADMIN_USERNAME = "admin"
ADMIN_PASSWORD = environ.get("OTREE_ADMIN_PASSWORD")
DEMO_PAGE_INTRO_HTML = ""
SECRET_KEY = "bench-only"
'''

APP_PY = '''
from otree.api import *


class C(BaseConstants):
    NAME_IN_URL = "vote"
    PLAYERS_PER_GROUP = None
    NUM_ROUNDS = 1


class Subsession(BaseSubsession):
    pass


class Group(BaseGroup):
    votes = models.IntegerField(initial=0)
    size = models.IntegerField(initial=0)


class Player(BasePlayer):
    vote = models.StringField(blank=True)


def creating_session(subsession):
    # Groups of the sizes in the session config, repeated ("7,6,6,6" like our tables).
    sizes = [int(x) for x in str(subsession.session.config["group_sizes"]).split(",")]
    players = subsession.get_players()
    matrix, start, k = [], 0, 0
    while start < len(players):
        size = sizes[k % len(sizes)]
        matrix.append(players[start:start + size])
        start, k = start + size, k + 1
    subsession.set_group_matrix(matrix)
    for group in subsession.get_groups():
        group.size = len(group.get_players())


class Vote(Page):
    @staticmethod
    def live_method(player, data):
        group = player.group
        group.votes += 1
        player.vote = str(data.get("vote", ""))[:10]
        # 0: to every player of the group. "by" lets a client spot its own vote's echo.
        return {0: {"voted": group.votes, "of": group.size, "by": player.id_in_group}}


page_sequence = [Vote]
'''

PAGE_HTML = '''{{ block title }}Vote{{ endblock }}
{{ block content }}<p>Vote.</p>{{ endblock }}
'''

SOCKET_URL = re.compile(r'id="otree-live"\s+data-socket-url="([^"]+)"'
                        r'|data-socket-url="([^"]+)"\s*[^>]*id="otree-live"')


# --------------------------------------------------------------------------- oTree itself


def otree_bin() -> Path:
    """``bench/.otree-venv/bin/otree``, installing oTree there first if needed."""
    exe = VENV / "bin" / "otree"
    marker = VENV / f".otree-{OTREE_VERSION}"
    if exe.exists() and marker.exists():
        return exe
    print(f"Installing otree=={OTREE_VERSION} into {VENV.relative_to(ROOT)} (once, ~1 min)...",
          flush=True)
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--clear", str(VENV)], check=True, timeout=300)
    done = subprocess.run([str(VENV / "bin" / "python"), "-m", "pip", "install", "--quiet",
                           "--disable-pip-version-check", f"otree=={OTREE_VERSION}"],
                          capture_output=True, text=True, timeout=900, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"pip install otree failed:\n{done.stdout}\n{done.stderr}")
    marker.touch()
    return exe


def write_project(where: Path) -> None:
    (where / "vote").mkdir(parents=True)
    (where / "__init__.py").write_text("")
    (where / "settings.py").write_text(SETTINGS_PY)
    (where / "vote" / "__init__.py").write_text(APP_PY)
    (where / "vote" / "Vote.html").write_text(PAGE_HTML)
    (where / "_static").mkdir()
    (where / "_templates").mkdir()


# --------------------------------------------------------------------------- a tiny HTTP client


async def http(method: str, url: str, body: Any = None, timeout: float = 60
               ) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 request on loopback (no keep-alive); status, headers, body."""
    parts = urlsplit(url)
    assert parts.hostname == HOST, "loopback only"
    data = b"" if body is None else json.dumps(body).encode()
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    head = (f"{method} {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nConnection: close\r\n"
            f"otree-rest-key: {REST_KEY}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n")
    async with asyncio.timeout(timeout):
        reader, writer = await asyncio.open_connection(HOST, parts.port)
        try:
            writer.write(head.encode() + data)
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
    header_blob, _, payload = raw.partition(b"\r\n\r\n")
    lines = header_blob.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in
               (line.partition(":") for line in lines[1:])}
    if headers.get("transfer-encoding", "").lower() == "chunked":
        payload = _unchunk(payload)
    return status, headers, payload


def _unchunk(data: bytes) -> bytes:
    out, pos = bytearray(), 0
    while pos < len(data):
        end = data.index(b"\r\n", pos)
        size = int(data[pos:end].split(b";")[0], 16)
        if size == 0:
            break
        out += data[end + 2:end + 2 + size]
        pos = end + 2 + size + 2
    return bytes(out)


# --------------------------------------------------------------------------- the clients


class Client(Voter):
    pass


async def client_reader(client: Client, ws: Any, me: int, observer_of: str | None,
                        burst_ref: dict[str, Burst]) -> None:
    with contextlib.suppress(Exception):
        async for text in ws:
            now = time.perf_counter()
            frame = json.loads(text)
            payload = frame.get("live_method_payload") or {}
            if "voted" not in payload:
                continue
            burst = burst_ref.get("burst")
            if observer_of is not None and burst is not None:
                burst.arrived(observer_of, payload["voted"], now)
            if payload.get("by") == me and client.sent_at is not None \
                    and client.answered_at is None:
                client.answered_at = now


async def join(client: Client, server: Server, code: str, me: int, observer: bool,
               burst_ref: dict[str, Burst]) -> None:
    started = time.perf_counter()
    try:
        url = f"http://{HOST}:{server.port}/InitializeParticipant/{code}"
        for _hop in range(5):  # follow redirects, bounded
            status, headers, body = await http("GET", url)
            if status in (301, 302, 303, 307) and "location" in headers:
                url = urljoin(url, headers["location"])
                continue
            break
        match = SOCKET_URL.search(body.decode("utf-8", "replace"))
        if status != 200 or not match:
            raise RuntimeError(f"page {status} without a live socket")
        path = (match.group(1) or match.group(2)).replace("&amp;", "&")
        client.ws = await harness.open_socket(server.url(path), origin=server.origin)
        client.join_ms = (time.perf_counter() - started) * 1000
        client.reader = asyncio.create_task(
            client_reader(client, client.ws, me, client.group if observer else None,
                          burst_ref))
    except Exception as exc:
        client.error = f"join: {exc!r}"


async def play_round(server: Server, cfg: dict[str, Any], seed: int) -> dict[str, Any]:
    base = f"http://{HOST}:{server.port}"
    status, _h, body = await http("POST", f"{base}/api/sessions", {
        "session_config_name": "vote", "num_participants": cfg["clients"],
        "modified_session_config_fields": {
            "group_sizes": ",".join(map(str, cfg["group_sizes"]))}}, timeout=300)
    if status != 200:
        raise RuntimeError(f"creating the oTree session: {status} {body[:500]!r}")
    code = json.loads(body)["code"]
    status, _h, body = await http("POST", f"{base}/api/get_session/{code}", {}, timeout=120)
    participants = sorted(json.loads(body)["participants"], key=lambda p: p["id_in_session"])
    # Groups are consecutive players, of the configured sizes (see creating_session).
    clients, members, sizes = [], [], {}
    start, k = 0, 0
    while start < len(participants):
        size = cfg["group_sizes"][k % len(cfg["group_sizes"])]
        group = f"{code}:{k + 1}"
        sizes[group] = min(size, len(participants) - start)
        for i, p in enumerate(participants[start:start + size]):
            clients.append(Client(group=group))
            members.append((p["code"], i + 1, i == 0))
        start, k = start + size, k + 1
    pids = [server.pid]
    rss_before = harness.rss_bytes(pids)
    burst_ref: dict[str, Burst] = {}
    started = time.perf_counter()
    await harness.gather_bounded(
        [lambda c=c, m=m: join(c, server, m[0], m[1], m[2], burst_ref)
         for c, m in zip(clients, members, strict=True)], cfg["join_limit"])
    join_seconds = time.perf_counter() - started
    await asyncio.sleep(1.0)  # let the server settle, as live.py waits for quiet
    rss_after = harness.rss_bytes(pids)
    joined = [c for c in clients if c.ws is not None and c.error is None]
    rng = random.Random(seed)
    for c in joined:
        c.payload = json.dumps({"vote": rng.choice("ABCD")})
    burst = Burst(sizes=sizes)
    burst_ref["burst"] = burst
    cpu_before = harness.cpu_seconds(pids)
    result = await harness.run_burst(joined, burst, spread=cfg["spread"],
                                     timeout=cfg["burst_timeout"], seed=seed)
    cpu_burst = harness.cpu_seconds(pids) - cpu_before
    rss_peak = harness.rss_bytes(pids)
    await _close([c.ws for c in clients])
    sent: dict[str, int] = {}
    for c in joined:
        if c.sent_at is not None:
            sent[c.group] = sent.get(c.group, 0) + 1
    result.update({
        "session": code, "clients": len(clients), "joined": len(joined),
        "join_errors": len(clients) - len(joined),
        "join_ms": [c.join_ms for c in clients if c.join_ms is not None],
        "join_seconds": join_seconds, "rss_before": rss_before, "rss_after": rss_after,
        "rss_peak": rss_peak, "sent_by_group": sent, "server_cpu_seconds_burst": cpu_burst,
        "final_counts": {g: max(burst.arrivals.get(g, {0: 0})) for g in sizes},
    })
    return result


async def _close(sockets: list[Any]) -> None:
    async def close(ws: Any) -> None:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(5):
                await ws.close()

    await harness.gather_bounded([lambda w=w: close(w) for w in sockets if w is not None], 200)


async def drive(server: Server, cfg: dict[str, Any]) -> list[dict[str, Any]]:
    if cfg["warmup"]:
        # One small session first, played and thrown away: oTree loads its pages, templates
        # and models on first use, as our warm-up lesson does in bench/live.py.
        await play_round(server, {**cfg, "clients": cfg["group_sizes"][0], "repeat": 1},
                         cfg["seed"] + 1000)
    rounds = []
    for r in range(cfg["repeat"]):
        rounds.append(await play_round(server, cfg, cfg["seed"] + r))
    return rounds


def db_votes(project: Path) -> dict[str, int]:
    """Votes the oTree database holds, per session (group counters and players' votes)."""
    out: dict[str, int] = {}
    path = project / "db.sqlite3"
    if not path.exists():
        return out
    with contextlib.closing(sqlite3.connect(path)) as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "vote_group" not in tables:
            return out
        rows = db.execute(
            "SELECT s.code, SUM(g.votes) FROM vote_group g JOIN otree_session s "
            "ON g.session_id = s.id GROUP BY s.code").fetchall()
        out = {code: int(total or 0) for code, total in rows}
    return out


# --------------------------------------------------------------------------- main


def run_otree(cfg: dict[str, Any]) -> dict[str, Any]:
    exe = otree_bin()
    harness.raise_open_files(cfg["clients"] * 2 + 1000)
    with tempfile.TemporaryDirectory(prefix="sic-otree-") as tmpname:
        project = Path(tmpname) / "peer"
        write_project(project)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("DATABASE_URL", "REDIS_URL", "DJANGO", "PYTHONPATH",
                                    "VIRTUAL_ENV"))}
        env.update({"OTREE_PRODUCTION": "1", "OTREE_REST_KEY": REST_KEY,
                    "OTREE_ADMIN_PASSWORD": "bench-" + str(random.random()),
                    "PYTHONUNBUFFERED": "1",
                    # prodserver starts its helper as `otree` from PATH
                    "PATH": f"{exe.parent}{os.pathsep}{env.get('PATH', '')}"})
        port = harness.free_port()
        argv = [*harness.pin(0 if cfg["pin"] else None), str(exe), "prodserver",
                f"{HOST}:{port}"]
        server = Server(argv, port=port, env=env, cwd=project, log=Path(tmpname) / "otree.log")
        try:
            server.wait_ready(120)
            if cfg["pin"]:
                harness.pin_self(1)
            rounds = asyncio.run(asyncio.wait_for(drive(server, cfg), 1200))
        finally:
            server.stop()
            log = server.tail(20000)
        stored = db_votes(project)
    return report_otree(cfg, rounds, stored, log)


def report_otree(cfg: dict[str, Any], rounds: list[dict[str, Any]], stored: dict[str, int],
                 log: str) -> dict[str, Any]:
    latencies = [x for r in rounds for x in r["latencies_ms"]]
    sent = sum(r["sent"] for r in rounds)
    lost = doubled = 0
    for r in rounds:
        n = sum(r["sent_by_group"].values())
        counted = stored.get(r["session"], 0)
        lost += max(0, n - counted)
        doubled += max(0, counted - n)
    mem = sorted((r["rss_after"] - r["rss_before"]) / max(1, r["joined"]) for r in rounds)
    return {
        "server": f"oTree {OTREE_VERSION} prodserver (1 process, SQLite file)",
        "clients": sum(r["clients"] for r in rounds), "ballots_sent": sent,
        "ballot_to_group_ms": harness.summary(latencies),
        "own_echo_ms": harness.summary([x for r in rounds for x in r["answer_ms"]]),
        "join_ms": harness.summary([x for r in rounds for x in r["join_ms"]]),
        "memory_per_client_kib": round(mem[len(mem) // 2] / 1024, 1),
        "server_rss_mib": {"before_clients": round(rounds[0]["rss_before"] / 2**20, 1),
                           "clients_connected": round(rounds[0]["rss_after"] / 2**20, 1),
                           "after_burst": round(max(r["rss_peak"] for r in rounds) / 2**20,
                                                1)},
        "server_cpu_ms_per_ballot": round(
            1000 * sum(r["server_cpu_seconds_burst"] for r in rounds) / max(1, sent), 2),
        "lost_votes": lost, "doubled_votes": doubled,
        "counts_missing_at_observer": sum(r["counts_missing"] for r in rounds),
        "errors": sum(r["errors"] + r["join_errors"] for r in rounds),
        "server_tracebacks": log.count("Traceback"),
        "burst_seconds": [round(r["seconds"], 3) for r in rounds],
    }


def ratio(ours: Any, theirs: Any) -> float | None:
    if not ours or not theirs:
        return None
    return round(ours / theirs, 3)


def compare(cfg: dict[str, Any], ours: dict[str, Any] | None, peer: dict[str, Any]
            ) -> dict[str, Any]:
    o = ours or {}
    ol = o.get("ballot_to_projector_ms", {})
    pl = peer["ballot_to_group_ms"]
    rows = [
        ["vote → count seen, p50 (ms)", ol.get("p50"), pl["p50"], ratio(ol.get("p50"),
                                                                       pl["p50"])],
        ["vote → count seen, p95 (ms)", ol.get("p95"), pl["p95"], ratio(ol.get("p95"),
                                                                       pl["p95"])],
        ["vote → count seen, p99 (ms)", ol.get("p99"), pl["p99"], ratio(ol.get("p99"),
                                                                       pl["p99"])],
        ["memory per client (KiB)", o.get("memory_per_phone_kib"),
         peer["memory_per_client_kib"], ratio(o.get("memory_per_phone_kib"),
                                              peer["memory_per_client_kib"])],
        ["server CPU per vote (ms)", o.get("server_cpu_ms_per_ballot"),
         peer["server_cpu_ms_per_ballot"], ratio(o.get("server_cpu_ms_per_ballot"),
                                                 peer["server_cpu_ms_per_ballot"])],
        ["join p50 (ms)", o.get("join_ms", {}).get("p50"), peer["join_ms"]["p50"],
         ratio(o.get("join_ms", {}).get("p50"), peer["join_ms"]["p50"])],
        ["lost / doubled votes", f"{o.get('lost_votes', '—')} / {o.get('doubled_votes', '—')}",
         f"{peer['lost_votes']} / {peer['doubled_votes']}", None],
        ["errors", o.get("errors"), peer["errors"], None],
    ]
    print(f"\nSide by side: {cfg['scenario']} — {cfg['clients']} clients, groups of "
          f"{cfg['group_sizes']}, votes within {cfg['spread']} s, × {cfg['repeat']} run(s)")
    print(f"  ours:  {describe_ours(o)}")
    print(f"  oTree: {peer['server']}")
    print(harness.table(["measure", "State in Class", "oTree", "ours / oTree"], rows))
    return {"rows": [dict(zip(["measure", "ours", "otree", "ratio"], r, strict=True))
                     for r in rows]}


def describe_ours(o: dict[str, Any]) -> str:
    if not o:
        return "no result (run bench/live.py first, or pass --run-ours)"
    c = o["config"]
    return (f"{c['servers']} daphne, {c['layer']} layer, {c['db']}; {o['phones']} phones "
            f"(commit {o['commit']})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="class")
    parser.add_argument("--repeat", type=int)
    parser.add_argument("--spread", type=float)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--burst-timeout", type=float, default=120.0)
    parser.add_argument("--no-pin", action="store_true")
    parser.add_argument("--ours", type=Path, help="our live result (default: "
                        "bench/results/live-<scenario>.json)")
    parser.add_argument("--run-ours", action="store_true",
                        help="run bench/live.py's same scenario first, in this process")
    args = parser.parse_args(argv)
    cfg = dict(SCENARIOS[args.scenario])
    for key in ("repeat", "spread"):
        if getattr(args, key) is not None:
            cfg[key] = getattr(args, key)
    if args.no_pin:
        cfg["pin"] = False
    cfg.update(scenario=args.scenario, seed=args.seed, burst_timeout=args.burst_timeout)

    ours_path = (args.ours or harness.RESULTS / f"live-{args.scenario}.json").resolve()
    if args.run_ours:
        live_argv = ["--scenario", args.scenario, "--repeat", str(cfg["repeat"]), "--spread",
                     str(cfg["spread"]), "--seed", str(args.seed)]
        live.run(live.parse_args(live_argv + (["--no-pin"] if args.no_pin else [])))
    ours = json.loads(ours_path.read_text()) if ours_path.exists() else None

    peer = run_otree(cfg)
    print(f"\noTree {OTREE_VERSION}: {peer['clients']} clients, {peer['ballots_sent']} votes")
    rows = []
    for label, key in (("vote → group observer (ms)", "ballot_to_group_ms"),
                       ("vote → own echo (ms)", "own_echo_ms"),
                       ("join: page + socket (ms)", "join_ms")):
        s = peer[key]
        rows.append([label, s["n"], s["p50"], s["p95"], s["p99"], s["max"]])
    print(harness.table(["measure", "n", "p50", "p95", "p99", "max"], rows))
    side = compare(cfg, ours, peer)
    result = {"benchmark": "peer", "scenario": args.scenario, **harness.machine(),
              "config": {k: cfg[k] for k in ("clients", "group_sizes", "repeat", "spread",
                                             "join_limit", "pin", "seed")},
              "otree": peer, "ours_result": str(ours_path.relative_to(ROOT))
              if ours else None,
              "ours": ours and {k: ours.get(k) for k in (
                  "ballot_to_projector_ms", "memory_per_phone_kib", "server_cpu_ms_per_ballot",
                  "join_ms", "lost_votes", "doubled_votes", "errors", "config", "commit",
                  "load_average")},
              "side_by_side": side}
    path = harness.write_result(f"peer-{args.scenario}", result)
    print(f"wrote {path.relative_to(ROOT)}")
    return 0 if peer["lost_votes"] == 0 and peer["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
