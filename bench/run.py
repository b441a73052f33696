#!/usr/bin/env python3
"""Feed and post-page throughput at a million posts, on SQLite and PostgreSQL (`make bench`).

For each backend: a fresh database seeded by `selfsound seed` (20,000 people, 1,000,000 posts,
and a second one of 10,000 posts), the release binary serving it on loopback, and `wrk` with 32
connections against each page a person loads. Every figure is also given as a ratio to a
ceiling measured in the same run: the same binary answering a fixed JSON body of the same size
as a feed page without touching the database (`SELFSOUND_BENCH_CEILING=1`). Ratios travel
between machines; absolute numbers do not.

Results go to bench/results/<backend>.json and a table to docs/performance.md (between the
markers). Sizes can be lowered for a quick run: BENCH_USERS, BENCH_POSTS, BENCH_SECONDS; and
one backend measured alone: BENCH_BACKENDS=sqlite (or postgres).
Seeding a million posts takes about ten minutes per backend; with BENCH_KEEP=<folder> the
seeded databases are kept (SQLite files in the folder, PostgreSQL databases named
selfsound_bench_keep_*) and used again by the next run of the same sizes; BENCH_ONLY_SEED=1
with BENCH_KEEP seeds them and measures nothing (seeding needs no quiet machine, measuring
does). BENCH_PROFILE=1 adds one more run of the mix, not counted, with `perf record` on the
whole machine, and writes where its time went to bench/results/<backend>-mix-profile.txt.
The mix is measured at saturation and once more paced at its target's load (PACED_SHARE).
"""
import base64
import contextlib
import hashlib
import hmac
import json
import os
import random
import re
import sqlite3
import statistics
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("BENCH_BIN", os.path.join(ROOT, "target", "release", "selfsound"))
USERS = int(os.environ.get("BENCH_USERS", "20000"))
POSTS = int(os.environ.get("BENCH_POSTS", "1000000"))
SMALL_POSTS = 10_000
SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
KEEP = os.environ.get("BENCH_KEEP")
CONNECTIONS = 32
PG_ADMIN = os.environ.get("PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres")
PG_BASE = PG_ADMIN.rsplit("/", 1)[0]
# The server reaches PostgreSQL on loopback without TLS, as one on the same host through its
# socket would: Debian's PostgreSQL offers TLS on 127.0.0.1 too, and libpq takes it when offered
# (OpenSSL was 6% of the server's time under the community mix, and as much of PostgreSQL's).
PG_OPTIONS = "?sslmode=disable"
PASSWORD = "Seeded#Sound1"
JWT_SECRET = "bench-secret-bench-secret-bench-secret-01"
# Music search has a limit of its own (issue 29): lifted too, still counted, for its rows.
# So have Discover and playlist pages (issue 31).
WRITE_LIMITS = ("comment=100000000/1m,like=100000000/1m,music_search=100000000/1m,discover=100000000/1m,"
                "playlist_read=100000000/1m")
WRITERS = 32
WRITES_LUA = os.path.join(ROOT, "bench", "writes.lua")
MIX_LUA = os.path.join(ROOT, "bench", "mix.lua")
# The community mix (issue 30): how many people, a fifth of them signed out; how many posts
# popularity is spread over; seconds a run, and runs a figure (the median).
MIX_PEOPLE = int(os.environ.get("BENCH_MIX_PEOPLE", "20000"))
MIX_POSTS = int(os.environ.get("BENCH_MIX_POSTS", "200000"))
MIX_SECONDS = int(os.environ.get("BENCH_MIX_SECONDS", "20"))
MIX_RUNS = int(os.environ.get("BENCH_MIX_RUNS", "3"))
# The writes of the mix are many people's at their pace: limits lifted, still counted.
# The mix once more at the load each backend's target sets (issue 30: a quarter of the ceiling on
# SQLite, 15% on PostgreSQL), paced rather than saturating: the latency people see at that load.
PACED_SHARE = {"sqlite": 0.25, "postgres": 0.15}
MIX_LIMITS = "comment=100000000/1m,like=100000000/1m,post=100000000/1m,music_search=100000000/1m"
SEED_WORDS = ["morning", "river", "echo", "blue", "velvet", "storm", "minor", "chord", "city", "lights", "slow",
              "dance", "golden", "hour", "static", "bloom", "night", "drive", "paper", "moon"]
SEED_NAMES = ["Ada", "Miles", "Nina", "Louis", "Ella", "John", "Billie", "Ray", "Aretha", "Herbie", "Joni", "Clara",
              "Amy", "Kurt", "Fela", "Celia", "Astor", "Ravi", "Chet", "Mahalia", "Oum", "Nusrat", "Bjork", "Johann"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def psql(sql):
    subprocess.run(["psql", "-q", PG_ADMIN, "-c", sql], check=True, stdout=subprocess.DEVNULL)


def env_for(database_url, data_dir, port):
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        SELFSOUND_DATA_DIR=data_dir,
        SELFSOUND_BIND=f"127.0.0.1:{port}",
        SELFSOUND_PUBLIC_URL=f"http://127.0.0.1:{port}",
        SELFSOUND_JWT_SECRET=JWT_SECRET,
        SELFSOUND_BENCH_CEILING="1",
        RUST_LOG="warn",
    )
    # The writes measured are many people's at full speed: their limits are lifted, but still
    # counted (what every write costs). Loopback is trusted as a proxy so that each of them
    # signs in from an address of their own, as behind a balancer. A caller's own settings win
    # (bench/soak.py lifts the limit on posts too).
    env.setdefault("SELFSOUND_WRITE_LIMITS", WRITE_LIMITS)
    env.setdefault("SELFSOUND_TRUSTED_PROXIES", "127.0.0.1/32")
    return env


def seed(database_url, data_dir, users, posts):
    started = time.time()
    subprocess.run(
        [BIN, "seed", "--users", str(users), "--posts", str(posts)],
        env=env_for(database_url, data_dir, free_port()),
        check=True,
    )
    return time.time() - started


def warm(database_url, data_dir):
    """Reads the database through the operating system's page cache before a measurement: these
    machines page out file pages left idle for seconds (a DAMON `pageout` scheme), so a run after
    a pause read the database from disk, and its first minutes measured the disk (the "first run
    far below the others" of earlier runs). A server in use keeps what it reads in the cache.

    On PostgreSQL it also vacuums what the runs before changed, as autovacuum does on a server
    that runs it (the posts table after 2% of its rows changed, migration 25): this machine's
    PostgreSQL runs with autovacuum off, and without a vacuum the likes and comments of each run
    left the posts' pages not known all-visible, so the next run's feed walks read a table row
    per post (issue 30: a community's reads at 22% of the ceiling against 31% after a vacuum).
    A checkpoint then writes out what the vacuum changed, before the measurement rather than in
    the middle of it (the mix's p99 39 ms in two runs with it, 41 and 58 without)."""
    if database_url.startswith("postgres"):
        url = database_url.split("?", 1)[0]
        subprocess.run(["psql", "-q", url, "-c", "VACUUM", "-c", "CHECKPOINT",
                        "-c", "CREATE EXTENSION IF NOT EXISTS pg_prewarm",
                        "-c", "SELECT pg_prewarm(c.oid, 'read') FROM pg_class c "
                              "WHERE c.relkind IN ('r', 'i') AND c.relnamespace = 'public'::regnamespace"],
                       check=True, stdout=subprocess.DEVNULL)
        return
    for name in sorted(os.listdir(data_dir)):
        if name.startswith("bench.sqlite3"):
            with open(os.path.join(data_dir, name), "rb") as f:
                while f.read(1 << 22):
                    pass


class Server:
    def __init__(self, database_url, data_dir):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen([BIN, "serve"], env=env_for(database_url, data_dir, self.port))
        for _ in range(300):
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=1)
                return
            except Exception:
                time.sleep(0.1)
        raise SystemExit("the server did not start")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=20)

    def call(self, path, token=None, body=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, headers=headers)
        with urllib.request.urlopen(req, timeout=30) as res:
            raw = res.read()
            return json.loads(raw), len(raw)

    def token(self, email, address="10.9.0.1"):
        headers = {"Content-Type": "application/json", "X-Forwarded-For": address}
        body = json.dumps({"email": email, "password": PASSWORD}).encode()
        req = urllib.request.Request(self.base + "/authorization/logindefault", data=body, headers=headers)
        with urllib.request.urlopen(req, timeout=30) as res:
            return json.loads(res.read())["access_token"]


def wrk(url, token=None):
    cmd = ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{SECONDS}s", "--latency", url]
    if token:
        cmd[1:1] = ["-H", f"Authorization: Bearer {token}"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))

    def percentile(p):
        m = re.search(rf"^\s+{p}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise SystemExit(f"{url}: {errors.group(1)} failed responses\n{out}")
    return {"rps": rps, "p50_ms": percentile(50), "p99_ms": percentile(99)}


def writes(server, posts, kind):
    """Like toggles or new comments by WRITERS people on `posts`, at full speed: writes/s and
    every failure counted (on SQLite a 503 would be "database is locked")."""
    work = tempfile.mkdtemp(prefix="selfsound-bench-writes-")
    try:
        tokens = [server.token(f"seed{i}@example.com", f"10.9.{i // 250}.{i % 250 + 1}") for i in range(WRITERS)]
        files = [os.path.join(work, "tokens.txt"), os.path.join(work, "posts.txt")]
        with open(files[0], "w") as f:
            f.write("\n".join(tokens) + "\n")
        with open(files[1], "w") as f:
            f.write("\n".join(str(p["id"]) for p in posts) + "\n")
        cmd = ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{SECONDS}s", "--latency", "-s", WRITES_LUA, server.base, "--", *files, kind]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    finally:
        shutil.rmtree(work, ignore_errors=True)
    counts = re.search(r"WRITES ok=(\d+) client_errors=(\d+) server_errors=(\d+)", out)
    ok, client, server_errors = (int(g) for g in counts.groups())
    first = re.search(r"FIRST_ERROR (.*)", out).group(1).strip()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = re.search(r"^\s+50%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
    ms = lambda m: float(m.group(1)) / 1000 if m.group(2) == "us" else float(m.group(1)) * (1000 if m.group(2) == "s" else 1)
    return {"rps": rps, "ok": ok, "client_errors": client, "server_errors": server_errors, "first_error": first,
            "p50_ms": ms(p50), "p99_ms": ms(p99)}


def measure(server, big):
    """The pages of one seeded database, each with the ceiling of its own body size."""
    t100 = server.token("seed0@example.com")
    t1000 = server.token("seed1@example.com")
    page, size = server.call("/posts/feed?limit=10", t100)
    deep, _ = server.call("/posts/feed?limit=1&offset=10000")
    author = page[0]["user"]["id"]
    commented = max(page, key=lambda p: p["comments_count"])["id"]
    cases = {
        "for_you_page1": ("/posts/feed?limit=10", t100),
        "listened_to_100": ("/posts/listened-to?limit=10", t100),
        "listened_to_1000": ("/posts/listened-to?limit=10", t1000),
        "user_posts": (f"/posts/user/{author}?limit=10", t100),
        "post_page": (f"/posts/{page[0]['id']}", t100),
        "comments": (f"/posts/{commented}/comments?limit=20", t100),
        # A tag's page (issue 31): the seeded captions name one of eight tags each.
        "tag_page": ("/posts/tags/jazz?limit=10", t100),
        # Discover (issue 31): its lists held (found again every 5 minutes in the background),
        # the posts shown and the people to listen to of someone who listens to 100 people.
        "discover": ("/discover", t100),
    }
    me = server.call("/authorization/me", t100)[0]
    lists, _ = server.call(f"/playlists/user/{me['id']}?limit=1", t100)
    if lists:
        # A playlist's page (issue 31): the seeded playlists hold 20 tracks and scores each.
        cases["playlist_page"] = (f"/playlists/{lists[0]['id']}", t100)
    if big and deep:
        cases["for_you_cursor_10000"] = (f"/posts/feed?limit=10&before={deep[0]['id']}", t100)
        cases["for_you_offset_10000"] = ("/posts/feed?limit=10&offset=10000", t100)
    if big:
        # Finding music (issue 20): a word of the seeded titles (in about one post of six) and two
        # of them together (about one in 270, few of them among the newest: PostgreSQL's hard case).
        cases["search_1_word"] = ("/posts/search?q=river", t100)
        cases["search_2_words"] = ("/posts/search?q=golden%20hour", t100)
    results = {}
    ceiling = wrk(f"{server.base}/bench/ceiling?bytes={size}")
    results["ceiling"] = dict(ceiling, bytes=size)
    for name, (path, token) in cases.items():
        r = wrk(server.base + path, token)
        r["ratio"] = round(r["rps"] / ceiling["rps"], 3)
        results[name] = r
        print(f"  {name:24} {r['rps']:9.0f} req/s  p50 {r['p50_ms']:6.2f} ms  p99 {r['p99_ms']:6.2f} ms  {r['ratio']:.0%} of ceiling", flush=True)
    if big:
        newest, _ = server.call("/posts/feed?limit=50", t100)
        for kind in ("like", "comment"):
            w = writes(server, newest, kind)
            results[f"{kind}_writes"] = w
            print(f"  {kind + ' writes':24} {w['rps']:9.0f} req/s  p50 {w['p50_ms']:6.2f} ms  p99 {w['p99_ms']:6.2f} ms  "
                  f"failed {w['client_errors']} 4xx, {w['server_errors']} 5xx {w['first_error']}", flush=True)
    return results


def query(database_url, sql):
    """Rows of `sql` (tab-separated text) from the bench's database, either backend."""
    if database_url.startswith("postgres"):
        out = subprocess.run(["psql", "-tA", "-F", "\t", database_url, "-c", sql],
                             check=True, capture_output=True, text=True).stdout
        return [line.split("\t") for line in out.splitlines() if line]
    with sqlite3.connect(database_url) as conn:
        return [[str(v) for v in row] for row in conn.execute(sql)]


def b64(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def mint(user_id, session_id, expires):
    """A token as the server signs one (HS256 over the bench's own secret)."""
    header = b64(json.dumps({"typ": "JWT", "alg": "HS256"}).encode())
    now = int(time.time())
    claims = b64(json.dumps({"sub": str(user_id), "sid": str(session_id), "iat": now, "exp": expires,
                             "iss": "selfsound", "aud": "selfsound-api"}).encode())
    signature = hmac.new(JWT_SECRET.encode(), f"{header}.{claims}".encode(), hashlib.sha256).digest()
    return f"{header}.{claims}.{b64(signature)}"


def sign_in_people(database_url, users):
    """Sessions for `users` made straight in the database (signing 16,000 people in through
    Argon2 would take a quarter of an hour), used a moment ago as a sign-in leaves them, and
    their tokens."""
    created = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
    expires = int(time.time()) + 7 * 24 * 3600
    expires_at = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(expires))
    rows = [(random.randrange(1 << 40, 1 << 62), int(u)) for u in users]
    if database_url.startswith("postgres"):
        data = "".join(f"{sid}\t{uid}\t{created}\t{expires_at}\t{created}\n" for sid, uid in rows)
        subprocess.run(["psql", "-q", database_url, "-c",
                        "COPY sessions (id, user_id, created_at, expires_at, last_seen_at) FROM STDIN"],
                       input=data, text=True, check=True)
    else:
        with sqlite3.connect(database_url) as conn:
            conn.executemany(
                "INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at) VALUES (?, ?, ?, ?, ?)",
                [(sid, uid, created, expires_at, created) for sid, uid in rows])
    return [mint(uid, sid, expires) for sid, uid in rows]


def mix_files(database_url, work):
    """The mix's inputs (see bench/mix.lua): people, posts by popularity, the newest posts,
    search words."""
    rng = random.Random(7)
    users = [r[0] for r in query(database_url, f"SELECT id FROM users ORDER BY id LIMIT {MIX_PEOPLE}")]
    signed_in = users[: len(users) * 4 // 5]
    tokens = sign_in_people(database_url, signed_in) + ["-"] * (len(users) - len(signed_in))
    people = [f"{t} 10.{20 + i // 62500}.{(i // 250) % 250}.{i % 250 + 1}" for i, t in enumerate(tokens)]
    rng.shuffle(people)
    posts = query(database_url, "SELECT id, user_id FROM posts")
    rng.shuffle(posts)
    posts = posts[:MIX_POSTS]
    newest = [r[0] for r in query(database_url, "SELECT id FROM posts ORDER BY id DESC LIMIT 60")]
    words = [f"m {w}" for w in SEED_WORDS] + [f"m {a}%20{b}" for a, b in zip(SEED_WORDS, SEED_WORDS[5:])]
    words += [f"p {n}" for n in SEED_NAMES]
    files = []
    for name, lines in (("people", people), ("posts", [f"{i} {a}" for i, a in posts]), ("newest", newest),
                        ("words", words)):
        path = os.path.join(work, name + ".txt")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        files.append(path)
    return files, len(users), len(posts)


def mix_run(server, files, mode, size, rate=None):
    """One run of wrk through mix.lua; with `rate`, paced to that many requests a second (its two
    threads half each) instead of as fast as the server answers."""
    cmd = ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{MIX_SECONDS}s", "--latency", "-s", MIX_LUA, server.base, "--",
           *files, "mix" if mode == "paced" else mode, f"/bench/ceiling?bytes={size}"]
    env = dict(os.environ, MIX_RATE=f"{rate / 2:.1f}") if rate else None
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    counts = re.search(r"MIX ok=(\d+) client_errors=(\d+) server_errors=(\d+) refused=(\d+)", out)
    ok, client, server_errors, refused = (int(g) for g in counts.groups())
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    ms = lambda m: float(m.group(1)) / 1000 if m.group(2) == "us" else float(m.group(1)) * (1000 if m.group(2) == "s" else 1)
    p50 = ms(re.search(r"^\s+50%\s+([\d.]+)(us|ms|s)\s*$", out, re.M))
    p99 = ms(re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", out, re.M))
    first = re.search(r"FIRST_ERROR (.*)", out).group(1).strip()
    if client or server_errors:
        raise SystemExit(f"the {mode} had {client} 4xx and {server_errors} 5xx answers: {first}")
    return {"rps": rps, "p50_ms": p50, "p99_ms": p99, "ok": ok, "searches_refused": refused}


def community_mix(database_url, data_dir, size):
    """The community mix (bench/mix.lua) against a fresh process each run (its memory cold at
    the start), with the ceiling driven through the same script: the median of MIX_RUNS runs of
    each, and the ratios to the ceiling."""
    work = tempfile.mkdtemp(prefix="selfsound-bench-mix-")
    os.environ["SELFSOUND_WRITE_LIMITS"] = MIX_LIMITS
    try:
        files, people, posts = mix_files(database_url, work)
        runs = {"ceiling": [], "mix": [], "reads": [], "paced": []}
        pace = PACED_SHARE["postgres" if database_url.startswith("postgres") else "sqlite"]
        for _ in range(MIX_RUNS):
            for mode in runs:
                warm(database_url, data_dir)
                server = Server(database_url, data_dir)
                try:
                    rate = pace * runs["ceiling"][-1]["rps"] if mode == "paced" else None
                    runs[mode].append(mix_run(server, files, mode, size, rate))
                finally:
                    server.stop()
        profile = profile_mix(database_url, data_dir, files, size) if os.environ.get("BENCH_PROFILE") else None
    finally:
        os.environ.pop("SELFSOUND_WRITE_LIMITS", None)
        shutil.rmtree(work, ignore_errors=True)
    out = {"people": people, "posts": posts, "seconds": MIX_SECONDS, "runs": MIX_RUNS}
    for mode, results in runs.items():
        rps = statistics.median(r["rps"] for r in results)
        out[mode] = {"rps": rps, "p50_ms": statistics.median(r["p50_ms"] for r in results),
                     "p99_ms": statistics.median(r["p99_ms"] for r in results), "all": results,
                     "searches_refused": sum(r.get("searches_refused", 0) for r in results)}
    if profile:
        out["profile"] = profile
    out["paced"]["share"] = pace
    for mode in ("mix", "reads", "paced"):
        out[mode]["ratio"] = round(out[mode]["rps"] / out["ceiling"]["rps"], 3)
    print(f"  community mix ({people} people, {posts} posts by popularity, median of {MIX_RUNS} x {MIX_SECONDS} s):",
          flush=True)
    for mode in runs:
        r = out[mode]
        ratio = f"  {r['ratio']:.1%} of the ceiling" if "ratio" in r else ""
        refused = f"  ({r['searches_refused']} music searches refused for their cost)" if r["searches_refused"] else ""
        print(f"    {mode:8} {r['rps']:9.0f} req/s  p50 {r['p50_ms']:6.2f} ms  p99 {r['p99_ms']:6.2f} ms{ratio}{refused}",
              flush=True)
    return out


def profile_mix(database_url, data_dir, files, size):
    """One more run of the mix with `perf record` sampling the whole machine (the server, wrk,
    PostgreSQL), not counted among the runs (sampling costs throughput), summed by program and
    thread, and by function; the report
    goes to bench/results/<backend>-mix-profile.txt. Returns its path."""
    if not shutil.which("perf"):
        raise SystemExit("BENCH_PROFILE needs perf: apt-get install -y linux-perf")
    backend = "sqlite" if not database_url.startswith("postgres") else "postgres"
    data = os.path.join(tempfile.mkdtemp(prefix="selfsound-bench-perf-"), "perf.data")
    server = Server(database_url, data_dir)
    try:
        perf = subprocess.Popen(["perf", "record", "-q", "-a", "-F", "999", "-o", data],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            run = mix_run(server, files, "mix", size)
        finally:
            perf.send_signal(2)
            perf.wait(timeout=60)
    finally:
        server.stop()
    # perf pads its header to the longest symbol it knows: the lines are cut back to their text,
    # and to 160 characters (its dotted rule under the header runs as long as that longest name).
    report = lambda *sort: "\n".join(line.rstrip()[:160] for line in subprocess.run(
        ["perf", "report", "-i", data, "--no-children", "--stdio", "--percent-limit", "0.7", *sort],
        check=True, capture_output=True, text=True).stdout.splitlines()) + "\n"
    path = os.path.join(ROOT, "bench", "results", f"{backend}-mix-profile.txt")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(f"# the mix under perf record -a -F 999: {run['rps']:.0f} req/s, p99 {run['p99_ms']:.2f} ms\n")
        f.write("\n# by program and thread\n" + report("--sort", "comm"))
        f.write("\n# by program and library\n" + report("--sort", "comm,dso"))
        f.write("\n# by function\n" + report("--sort", "dso,sym"))
    shutil.rmtree(os.path.dirname(data), ignore_errors=True)
    print(f"  profile of the mix: {os.path.relpath(path, ROOT)}", flush=True)
    return os.path.relpath(path, ROOT)


def pg_exists(name):
    out = subprocess.run(
        ["psql", "-tA", PG_ADMIN, "-c", f"SELECT 1 FROM pg_database WHERE datname = '{name}'"],
        check=True, capture_output=True, text=True,
    ).stdout
    return out.strip() == "1"


def database(backend, label, posts):
    """A database to seed (or, with BENCH_KEEP, one seeded before): (url, data dir, seeded, drop)."""
    if KEEP:
        data_dir = os.path.join(os.path.abspath(KEEP), f"{backend}-{USERS}-{posts}")
        marker = os.path.join(data_dir, "seeded")
        os.makedirs(data_dir, exist_ok=True)
        if backend == "sqlite":
            url = os.path.join(data_dir, "bench.sqlite3")
        else:
            name = f"selfsound_bench_keep_{USERS}_{posts}"
            if not (os.path.exists(marker) and pg_exists(name)):
                psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
                psql(f"CREATE DATABASE {name}")
            url = f"{PG_BASE}/{name}{PG_OPTIONS}"
        return url, data_dir, os.path.exists(marker), lambda: open(marker, "w").close()
    data_dir = tempfile.mkdtemp(prefix=f"selfsound-bench-{backend}-")
    if backend == "sqlite":
        return os.path.join(data_dir, "bench.sqlite3"), data_dir, False, None
    name = f"selfsound_bench_{label}_{os.getpid()}"
    psql(f"DROP DATABASE IF EXISTS {name}")
    psql(f"CREATE DATABASE {name}")
    return f"{PG_BASE}/{name}{PG_OPTIONS}", data_dir, False, None


@contextlib.contextmanager
def seeded(backend, label, posts, out):
    """A database of `posts` posts, seeded (or, with BENCH_KEEP, seeded before), removed after
    unless kept: yields (url, data dir)."""
    url, data_dir, was_seeded, mark_seeded = database(backend, label, posts)
    try:
        if was_seeded:
            print(f"  using the {posts} posts seeded before in {data_dir}", flush=True)
        else:
            out[f"seed_seconds_{label}"] = round(seed(url, data_dir, USERS, posts), 1)
            print(f"  seeded {posts} posts in {out[f'seed_seconds_{label}']} s", flush=True)
            if mark_seeded:
                mark_seeded()
        yield url, data_dir
    finally:
        if not KEEP:
            shutil.rmtree(data_dir, ignore_errors=True)
            if backend == "postgres":
                psql(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")


def save(name, out):
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "bench", "results", f"{name}.json"), "w") as f:
        json.dump(out, f, indent=2)


def run_backend(backend):
    print(f"--- {backend}: {USERS} people, {POSTS} posts", flush=True)
    out = {"backend": backend, "users": USERS, "posts": POSTS, "connections": CONNECTIONS, "seconds": SECONDS}
    if os.environ.get("BENCH_ONLY_SEED"):
        if not KEEP:
            raise SystemExit("BENCH_ONLY_SEED seeds the databases BENCH_KEEP keeps: set BENCH_KEEP too")
        for label, posts in (("large", POSTS), ("small", SMALL_POSTS)):
            with seeded(backend, label, posts, out):
                pass
        return out
    if os.environ.get("BENCH_ONLY_MIX"):
        return only_mix(backend, out)
    for label, posts in (("large", POSTS), ("small", SMALL_POSTS)):
        with seeded(backend, label, posts, out) as (url, data_dir):
            warm(url, data_dir)
            server = Server(url, data_dir)
            try:
                out[label] = measure(server, label == "large")
                size = out[label]["ceiling"]["bytes"]
            finally:
                server.stop()
            if label == "large" and not os.environ.get("BENCH_NO_MIX"):
                out["mix"] = community_mix(url, data_dir, size)
    large, small = out["large"], out["small"]
    out["checks"] = {
        "cursor_vs_page1_p50": round(large["for_you_cursor_10000"]["p50_ms"] / large["for_you_page1"]["p50_ms"], 2),
        "offset_vs_page1_p50": round(large["for_you_offset_10000"]["p50_ms"] / large["for_you_page1"]["p50_ms"], 2),
        "1m_vs_10k_p50": round(large["for_you_page1"]["p50_ms"] / small["for_you_page1"]["p50_ms"], 2),
    }
    save(backend, out)
    return out


def only_mix(backend, out):
    """BENCH_ONLY_MIX=1: the community mix alone, on a database seeded before (BENCH_KEEP) or
    afresh; results to bench/results/<backend>-mix.json, nothing written into the docs."""
    with seeded(backend, "large", POSTS, out) as (url, data_dir):
        server = Server(url, data_dir)
        try:
            _, size = server.call("/posts/feed?limit=10")
        finally:
            server.stop()
        out["mix"] = community_mix(url, data_dir, size)
    save(f"{backend}-mix", out)
    return out


def mix_table(results):
    lines = [
        "| community mix | backend | req/s | ratio to the ceiling through the same script | p50 ms | p99 ms |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for r in results:
        m = r.get("mix")
        if not m:
            continue
        label = f"{m['people']} people, {m['posts']} posts"
        modes = [("ceiling", "ceiling through mix.lua"), ("mix", f"mix, {label}"), ("reads", "the same without writes")]
        if "paced" in m:
            modes.append(("paced", f"the mix paced at {m['paced']['share']:.0%} of the ceiling"))
        for mode, name in modes:
            v = m[mode]
            ratio = f"{v['ratio']:.1%}" if "ratio" in v else "100%"
            lines.append(f"| {name} | {r['backend']} | {v['rps']:.0f} | {ratio} | {v['p50_ms']:.2f} | {v['p99_ms']:.2f} |")
    return "\n".join(lines)


def table(results):
    lines = [
        "| page | backend | req/s | ratio to ceiling | p50 ms | p99 ms |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for r in results:
        for name, v in r["large"].items():
            if name.endswith("_writes"):
                continue
            if name == "ceiling":
                lines.append(f"| ceiling ({v['bytes']} B) | {r['backend']} | {v['rps']:.0f} | 100% | {v['p50_ms']:.2f} | {v['p99_ms']:.2f} |")
            else:
                lines.append(f"| {name} | {r['backend']} | {v['rps']:.0f} | {v['ratio']:.0%} | {v['p50_ms']:.2f} | {v['p99_ms']:.2f} |")
        s = r["small"]["for_you_page1"]
        lines.append(f"| for_you_page1 at {SMALL_POSTS} posts | {r['backend']} | {s['rps']:.0f} | {s['ratio']:.0%} | {s['p50_ms']:.2f} | {s['p99_ms']:.2f} |")
    lines += ["", "| writes | backend | writes/s | p50 ms | p99 ms | failed |", "|---|---|---:|---:|---:|---:|"]
    for r in results:
        for kind in ("like", "comment"):
            w = r["large"].get(f"{kind}_writes")
            if w:
                lines.append(f"| {kind} | {r['backend']} | {w['rps']:.0f} | {w['p50_ms']:.2f} | {w['p99_ms']:.2f} | "
                             f"{w['client_errors'] + w['server_errors']} |")
    lines += ["", mix_table(results), ""]
    for r in results:
        c = r["checks"]
        lines.append(
            f"- {r['backend']}: cursor 10,000 deep / page 1 (p50) = {c['cursor_vs_page1_p50']}×; "
            f"offset 10,000 / page 1 = {c['offset_vs_page1_p50']}×; 1M / 10k posts = {c['1m_vs_10k_p50']}×; "
            + (f"seeding {r['posts']} posts took {r['seed_seconds_large']} s." if "seed_seconds_large" in r else "seeded in an earlier run.")
        )
    return "\n".join(lines)


def main():
    if not shutil.which("wrk"):
        raise SystemExit("make bench needs wrk: apt-get install -y wrk")
    if not os.path.exists(BIN):
        raise SystemExit(f"{BIN} is missing: make bench builds it")
    backends = ["sqlite"]
    if subprocess.run(["pg_isready", "-q", "-d", PG_ADMIN]).returncode == 0:
        backends.append("postgres")
    else:
        print(f"*** no PostgreSQL at {PG_ADMIN}: SQLite only ***")
    only = os.environ.get("BENCH_BACKENDS")
    if only:
        backends = [b for b in backends if b in only.split(",")]
    results = [run_backend(b) for b in backends]
    if os.environ.get("BENCH_ONLY_SEED"):
        return 0
    if os.environ.get("BENCH_ONLY_MIX"):
        print(mix_table(results))
        return 0
    report = os.path.join(ROOT, "docs", "performance.md")
    text = open(report).read() if os.path.exists(report) else ""
    begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
    block = f"{begin}\n{table(results)}\n{end}"
    text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, text, flags=re.S) if begin in text else text + "\n" + block + "\n"
    with open(report, "w") as f:
        f.write(text)
    print(table(results))


if __name__ == "__main__":
    sys.exit(main())
