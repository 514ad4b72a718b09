#!/usr/bin/env python3
"""Side-by-side benchmarks of whole processes: apx against curl, HTTPie and jq.

Runs on loopback against the embedded demo backend (started here from the
release build), prints a table of medians, throughputs, peak RSS and ratios,
and exits. Never used by tests; figures go into the README's performance table.

    scripts/bench/build-release.sh      # static release build in .build-release/
    python3 scripts/bench/bench.py [--quick] [--only NAME ...]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
APX = os.environ.get("APX_BENCH_BINARY", os.path.join(ROOT, ".build-release", "release", "apx"))
BENCH_REGISTRY = os.path.join(ROOT, "scripts", "bench", "registry")


def run(cmd, stdout=subprocess.DEVNULL, shell=False, env=None):
    """Runs one process; returns (wall seconds, peak RSS of the process tree in MB, exit code)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE, shell=shell, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"command failed ({proc.returncode}): {cmd}\n{err}")
    return wall, usage.ru_maxrss / 1024.0, proc.returncode


def median_wall(cmd, runs, shell=False, env=None):
    run(cmd, shell=shell, env=env)  # warm-up
    return statistics.median(run(cmd, shell=shell, env=env)[0] for _ in range(runs))


def start_demo():
    proc = subprocess.Popen([APX, "demo", "--port", "0", "--grpc-port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if not line:
        raise SystemExit("the demo backend did not start")
    return proc, json.loads(line)


class Report:
    def __init__(self):
        self.rows = []

    def add(self, name, apx, other, unit, target, better="lower"):
        ratio = apx / other if other else float("nan")
        self.rows.append((name, apx, other, unit, ratio, target))
        print(f"{name:<48} apx {apx:10.3f} {unit:<6} vs {other:10.3f}  ratio {ratio:6.2f}  (target {target})",
              flush=True)

    def note(self, name, value, unit, target):
        self.rows.append((name, value, None, unit, None, target))
        print(f"{name:<48} apx {value:10.3f} {unit:<6}  (target {target})", flush=True)


def bench_small_get(base, report, runs):
    env = dict(os.environ, APX_REGISTRY=BENCH_REGISTRY)
    url = base + "/api/v2/bench/small"
    apx = median_wall([APX, "call", "bench.small", "--base-url", base], runs, env=env)
    curl = median_wall(["curl", "-s", url], runs)
    report.add("small GET: median wall, apx / curl -s", apx * 1000, curl * 1000, "ms", "<= 1.5x")
    if shutil.which("http"):
        httpie = median_wall(["http", "--body", url], max(5, runs // 4))
        report.add("small GET: median wall, apx / HTTPie", apx * 1000, httpie * 1000, "ms", "<= 0.1x")
    else:
        print("  (HTTPie not installed: pip install httpie)")


def bench_pretty_json(base, report, megabytes):
    env = dict(os.environ, APX_REGISTRY=BENCH_REGISTRY)
    url = f"{base}/api/v2/bench/json?mb={megabytes}"
    size = len(subprocess.run(["curl", "-s", url], capture_output=True).stdout) / 1e6
    apx, apx_rss, _ = run([APX, "call", "bench.json", f"mb:={megabytes}", "-o", "json", "--base-url", base], env=env)
    jq, _, _ = run(f"curl -s '{url}' | jq . > /dev/null", shell=True)
    report.add(f"{megabytes} MB JSON pretty-printed: throughput MB/s", size / apx, size / jq, "MB/s", ">= 2x curl|jq",
               better="higher")
    report.note(f"{megabytes} MB JSON pretty-printed: apx peak RSS", apx_rss, "MB", "constant")


def bench_raw(base, report, size):
    env = dict(os.environ, APX_REGISTRY=BENCH_REGISTRY)
    url = f"{base}/api/v2/bench/bytes?size={size}"
    apx, apx_rss, _ = run([APX, "call", "bench.bytes", f"size:={size}", "-o", "raw", "--base-url", base], env=env)
    curl, curl_rss, _ = run(["curl", "-s", url])
    mb = size / 1e6
    report.add(f"{size >> 20} MiB -o raw > /dev/null: throughput MB/s", mb / apx, mb / curl, "MB/s", ">= 0.8x curl",
               better="higher")
    report.note(f"{size >> 20} MiB -o raw: apx peak RSS", apx_rss, "MB", "<= 64 MB")


def bench_big_registry(base, report, runs):
    with tempfile.TemporaryDirectory() as big:
        for f in range(100):
            endpoints = {f"e{i}": {"kind": "rest", "method": "GET", "path": f"/api/v2/x{f}/{i}"} for i in range(100)}
            with open(os.path.join(big, f"api{f:03d}.json"), "w") as out:
                json.dump({"api": f"api{f:03d}", "environments": {"demo": {"base_url": base}}, "endpoints": endpoints}, out)
        shutil.copy(os.path.join(BENCH_REGISTRY, "bench.json"), big)
        small = median_wall([APX, "call", "bench.small", "--registry", BENCH_REGISTRY, "--base-url", base], runs)
        large = median_wall([APX, "call", "bench.small", "--registry", big, "--base-url", base], runs)
        report.note("10,000 endpoints in 100 files: added time per call", (large - small) * 1000, "ms", "<= 20 ms")


def bench_sse(base, report, count):
    env = dict(os.environ, APX_REGISTRY=BENCH_REGISTRY)
    url = f"{base}/api/v2/bench/events?count={count}"
    apx, apx_rss, _ = run([APX, "call", "bench.events", f"count:={count}", "-o", "ndjson", "--base-url", base], env=env)
    size = len(subprocess.run(["curl", "-sN", url], capture_output=True).stdout) / 1e6
    curl, _, _ = run(["curl", "-sN", url])
    report.note(f"SSE {count:,} events -o ndjson: events/s", count / apx, "ev/s", ">= 300,000")
    report.note(f"SSE {count:,} events: apx peak RSS", apx_rss, "MB", "<= 64 MB, flat")
    report.add(f"SSE {count:,} events: stream bytes/s, apx / curl -N", size / apx, size / curl, "MB/s", "(reference)",
               better="higher")


BENCHES = ["small", "pretty", "raw", "registry", "sse"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller sizes and fewer runs")
    parser.add_argument("--only", nargs="*", choices=BENCHES, help="run only these benchmarks")
    args = parser.parse_args()
    if not os.access(APX, os.X_OK):
        raise SystemExit(f"{APX} not found: run scripts/bench/build-release.sh first")
    for tool in ["curl", "jq"]:
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is needed: apt-get install {tool}")
    only = set(args.only or BENCHES)
    runs = 10 if args.quick else 30
    demo, urls = start_demo()
    base = urls["http"]
    report = Report()
    try:
        if "small" in only:
            bench_small_get(base, report, runs)
        if "pretty" in only:
            bench_pretty_json(base, report, 20 if args.quick else 100)
        if "raw" in only:
            bench_raw(base, report, (256 if args.quick else 1024) << 20)
        if "registry" in only:
            bench_big_registry(base, report, runs)
        if "sse" in only:
            bench_sse(base, report, 100_000 if args.quick else 1_000_000)
            if not args.quick:
                bench_sse(base, report, 100_000)
    finally:
        demo.terminate()
        demo.wait(timeout=10)


if __name__ == "__main__":
    main()
