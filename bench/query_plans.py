#!/usr/bin/env python3
"""Writes docs/query-plans.md: every statement the pages run, with its plan on both backends.

The tests that check every statement of a page is index-backed (`test_support::statements::
assert_index_backed`) print each statement and its plan; this runs them with --nocapture and
keeps what they printed, grouped by page and backend. Needs PostgreSQL (as `make test` does).
"""
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = [
    ("Feeds, the post page and comments", "posts", "posts", "every_statement_of_a_page_is_index_backed"),
    ("Notifications", "notifications", "notifications", "a_page_is_one_statement_and_every_statement_is_index_backed"),
    ("Complaints, decisions and the analytics chart", "moderation", "moderation",
     "the_complaints_list_costs_the_same_whatever_its_length"),
]
BLOCK = re.compile(r"--- statement \((\w+)\)\n(.*?)\n--- plan\n(.*?)\n--- end", re.S)


def main():
    out = [
        "# Query plans of the pages",
        "",
        "Written by `python3 bench/query_plans.py`, which runs the tests that check every statement of",
        "a page (For you by offset and cursor, Listened to, a person's posts, the post page, comments,",
        "notifications and the unread count, the complaints list and a decision, the admin chart) is",
        "answered from an index, and keeps the plans they print. PostgreSQL is asked with sequential",
        "scans priced out (`enable_seqscan = off`), so a table still showing `Seq Scan` would have no",
        "index; the tests fail on any such scan, on either backend. These are small databases; at a",
        "million posts the planners choose the same indexes (docs/performance.md, docs/posts.md).",
    ]
    env = dict(os.environ, CI="true")
    for title, package, binary, test in TESTS:
        run = subprocess.run(
            ["cargo", "test", "-q", "-p", package, "--test", binary, "--", test, "--nocapture", "--test-threads=1"],
            cwd=ROOT, env=env, capture_output=True, text=True, check=True,
        )
        by_backend = {}
        for backend, sql, plan in BLOCK.findall(run.stdout):
            by_backend.setdefault(backend, []).append((sql.strip(), plan.rstrip()))
        out += ["", f"## {title}"]
        for backend in ("PostgreSQL", "SQLite"):
            out += ["", f"### {backend}"]
            for sql, plan in by_backend.get(backend, []):
                out += ["", "```sql", sql, "```", "```", plan, "```"]
    with open(os.path.join(ROOT, "docs", "query-plans.md"), "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
