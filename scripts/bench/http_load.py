#!/usr/bin/env python3
"""A small HTTP/1.1 load generator for bench.py's `mock` row: CONNECTIONS keep-alive connections,
each on a thread of its own, send GET PATH for SECONDS; prints one JSON line with the answers
per second, the count and the statuses seen. The same loader measures every server compared, so
its own cost (Python's) is the same on both sides of a ratio.

    python3 scripts/bench/http_load.py URL [--connections 16] [--seconds 5]
"""
import argparse
import http.client
import json
import threading
import time
import urllib.parse


def worker(host, port, path, deadline, counts, statuses, lock):
    connection = http.client.HTTPConnection(host, port, timeout=10)
    done = 0
    seen = {}
    while time.perf_counter() < deadline:
        connection.request("GET", path, headers={"Accept": "application/json"})
        answer = connection.getresponse()
        answer.read()
        seen[answer.status] = seen.get(answer.status, 0) + 1
        done += 1
        if answer.getheader("connection", "").lower() == "close":
            connection.close()
            connection = http.client.HTTPConnection(host, port, timeout=10)
    connection.close()
    with lock:
        counts.append(done)
        for status, n in seen.items():
            statuses[status] = statuses.get(status, 0) + n


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.url)
    path = url.path + ("?" + url.query if url.query else "")
    counts, statuses, lock = [], {}, threading.Lock()
    start = time.perf_counter()
    deadline = start + args.seconds
    threads = [
        threading.Thread(target=worker, args=(url.hostname, url.port, path, deadline, counts, statuses, lock))
        for _ in range(args.connections)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    total = sum(counts)
    print(json.dumps({"per_second": total / elapsed, "requests": total, "statuses": statuses}))


if __name__ == "__main__":
    main()
