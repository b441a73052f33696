#!/usr/bin/env python3
"""Ten minutes of mixed traffic at half of measured capacity against the release build (`make soak`).

The embedded installation (SQLite, media in a folder) seeded with SOAK_USERS people and
SOAK_POSTS posts; 40 of them signed in. The traffic (bench/soak.lua, through wrk with 16
connections): feeds, post pages, comment pages, like toggles, comments and picture uploads, each
request as one of the 40. First a short run at full speed measures the mix's capacity; then the
soak runs at half of it for SOAK_SECONDS (600), while the server's resident memory and open file
descriptors are sampled every 5 s.

Passes when no request failed (no 4xx, 5xx or socket error), resident memory at the end is within
SOAK_RSS_GROWTH_MB (64 MB) of where it was a minute in (after warm-up), and file descriptors
at the end are within 16 of their count a minute in. Figures go to bench/results/soak.json and
between the markers of docs/operations.md.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as bench  # noqa: E402  (the benchmark's server and seeding helpers)

ROOT = bench.ROOT
USERS = int(os.environ.get("SOAK_USERS", "1000"))
POSTS = int(os.environ.get("SOAK_POSTS", "20000"))
SECONDS = int(os.environ.get("SOAK_SECONDS", "600"))
RSS_GROWTH_MB = float(os.environ.get("SOAK_RSS_GROWTH_MB", "64"))
CONNECTIONS = 16
SIGNED_IN = 40
LUA = os.path.join(ROOT, "bench", "soak.lua")
DOC = os.path.join(ROOT, "docs", "operations.md")
LIMITS = "post=10000000/1h,comment=10000000/5m,like=10000000/10m"


def wrk(base, seconds, files, pause_ms, connections=CONNECTIONS):
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", LUA, base, "--", *files, str(pause_ms)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    soak = re.search(
        r"SOAK ok=(\d+) client_errors=(\d+) server_errors=(\d+) socket_errors=(\d+) p50_ms=([\d.]+) p99_ms=([\d.]+) first_error=(.*)",
        out,
    )
    ok, client, server, socket, p50, p99, first = soak.groups()
    return {
        "rps": rps,
        "ok": int(ok),
        "client_errors": int(client),
        "server_errors": int(server),
        "socket_errors": int(socket),
        "p50_ms": float(p50),
        "p99_ms": float(p99),
        "first_error": first.strip(),
    }


def sign_in(server, i):
    """Person i signs in from an address of their own (the server trusts loopback as a proxy
    here, as behind a balancer): 40 sign-ins from one address would be throttled, rightly."""
    body = json.dumps({"email": f"seed{i}@example.com", "password": bench.PASSWORD}).encode()
    headers = {"Content-Type": "application/json", "X-Forwarded-For": f"10.0.{i // 250}.{i % 250 + 1}"}
    req = bench.urllib.request.Request(server.base + "/authorization/logindefault", data=body, headers=headers)
    with bench.urllib.request.urlopen(req, timeout=30) as res:
        return json.loads(res.read())["access_token"]


def proc_status(pid):
    with open(f"/proc/{pid}/status") as f:
        rss_kb = int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    return rss_kb / 1024, fds


def png(path):
    """A 96x96 RGB PNG with varied pixels (made here: no image tool needed)."""
    import random
    import struct
    import zlib

    rng = random.Random(7)
    rows = b"".join(b"\x00" + bytes(rng.randrange(256) for _ in range(96 * 3)) for _ in range(96))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 96, 96, 8, 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def main():
    work = tempfile.mkdtemp(prefix="selfsound-soak-")
    data = os.path.join(work, "data")
    db = os.path.join(data, "selfsound.sqlite3")
    os.makedirs(data, mode=0o700)
    os.environ["SELFSOUND_WRITE_LIMITS"] = LIMITS
    os.environ["SELFSOUND_TRUSTED_PROXIES"] = "127.0.0.1/32"
    print(f"seeding {USERS} people and {POSTS} posts in {work}", flush=True)
    bench.seed(db, data, USERS, POSTS)
    server = bench.Server(db, data)
    try:
        tokens = [sign_in(server, i) for i in range(SIGNED_IN)]
        page, _ = server.call("/posts/feed?limit=50", tokens[0])
        files = [os.path.join(work, n) for n in ("tokens.txt", "posts.txt", "soak.png")]
        with open(files[0], "w") as f:
            f.write("\n".join(tokens) + "\n")
        with open(files[1], "w") as f:
            f.write("\n".join(str(p["id"]) for p in page) + "\n")
        png(files[2])

        capacity = wrk(server.base, 20, files, 0)
        target = capacity["rps"] / 2
        pause_ms = max(1, round(CONNECTIONS * 1000 / target))
        print(f"capacity of the mix: {capacity['rps']:.0f} req/s; soaking at about {target:.0f} req/s "
              f"({pause_ms} ms between a connection's requests) for {SECONDS} s", flush=True)

        samples, stop = [], threading.Event()

        def sample():
            started = time.time()
            while not stop.is_set():
                rss, fds = proc_status(server.proc.pid)
                samples.append({"t": round(time.time() - started), "rss_mb": round(rss, 1), "fds": fds})
                stop.wait(5)

        sampler = threading.Thread(target=sample)
        sampler.start()
        soak = wrk(server.base, SECONDS, files, pause_ms)
        stop.set()
        sampler.join()
    finally:
        server.stop()

    warm = next((s for s in samples if s["t"] >= 60), samples[0])
    end = samples[-1]
    result = {
        "seconds": SECONDS,
        "users": USERS,
        "posts": POSTS,
        "capacity_rps": round(capacity["rps"]),
        "soak_rps": round(soak["rps"]),
        "requests": soak["ok"] + soak["client_errors"] + soak["server_errors"],
        "errors": soak["client_errors"] + soak["server_errors"] + soak["socket_errors"],
        "first_error": soak["first_error"],
        "p50_ms": soak["p50_ms"],
        "p99_ms": soak["p99_ms"],
        "rss_mb": {"start": samples[0]["rss_mb"], "after_1_min": warm["rss_mb"],
                   "peak": max(s["rss_mb"] for s in samples), "end": end["rss_mb"]},
        "fds": {"start": samples[0]["fds"], "after_1_min": warm["fds"],
                "peak": max(s["fds"] for s in samples), "end": end["fds"]},
        "samples": samples,
    }
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "bench", "results", "soak.json"), "w") as f:
        json.dump(result, f, indent=1)
    summary = (
        f"{SECONDS} s at {result['soak_rps']} req/s (half of the mix's {result['capacity_rps']} req/s), "
        f"{result['requests']} requests, {result['errors']} errors; p50 {soak['p50_ms']:.1f} ms, "
        f"p99 {soak['p99_ms']:.1f} ms; RSS start {result['rss_mb']['start']} MB, after 1 min "
        f"{result['rss_mb']['after_1_min']} MB, peak {result['rss_mb']['peak']} MB, end {result['rss_mb']['end']} MB; "
        f"file descriptors start {result['fds']['start']}, peak {result['fds']['peak']}, end {result['fds']['end']}"
    )
    print(summary)
    write_doc(summary)
    failures = []
    if result["errors"]:
        failures.append(f"{result['errors']} failed requests (first: {result['first_error']})")
    if end["rss_mb"] - warm["rss_mb"] > RSS_GROWTH_MB:
        failures.append(f"resident memory grew {end['rss_mb'] - warm['rss_mb']:.0f} MB after warm-up")
    if end["fds"] - warm["fds"] > 16:
        failures.append(f"file descriptors grew from {warm['fds']} to {end['fds']}")
    if failures:
        raise SystemExit("soak failed: " + "; ".join(failures))


def write_doc(summary):
    with open(DOC) as f:
        text = f.read()
    start, end = "<!-- soak:start -->", "<!-- soak:end -->"
    if start not in text:
        return
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    stamp = time.strftime("%Y-%m-%d")
    with open(DOC, "w") as f:
        f.write(f"{head}{start}\nLast run ({stamp}, this two-core machine, SQLite): {summary}.\n{end}{tail}")


if __name__ == "__main__":
    sys.exit(main())
