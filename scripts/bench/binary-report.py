#!/usr/bin/env python3
"""Where an apx binary's bytes go, and what its start-up has to walk.

    scripts/bench/binary-report.py [BINARY]     (default .build-release/release/apx)

Prints: the file size and its size once stripped; the largest sections; the bytes of
defined symbols per Swift module (from the mangled names; ICU and other C/C++ code
grouped apart); the protocol-conformance records the Swift runtime scans on each first
conformance lookup; and the dynamic relocations the loader applies. Uses binutils
(`size`, `nm`, `strip`, `readelf`), nothing else.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def sections(binary):
    out = {}
    for line in run("size", "-A", binary).splitlines()[2:]:
        parts = line.split()
        if len(parts) >= 2 and parts[1].isdigit() and parts[0] != "Total":
            out[parts[0]] = int(parts[1])
    return out


def module_of(symbol):
    match = re.match(r"\$s(\d+)", symbol)
    if match:
        length = int(match.group(1))
        start = 2 + len(match.group(1))
        return symbol[start:start + length]
    if symbol.startswith("icudt"):
        return "(ICU data)"
    if "icu_" in symbol or symbol.startswith("_ZN6icu") or symbol.startswith("u_") or symbol.startswith("ucol_"):
        return "(ICU code)"
    return "(C, C++ and other)"


def modules(binary):
    totals = collections.Counter()
    for line in run("nm", "-S", "--defined-only", binary).splitlines():
        parts = line.split()
        if len(parts) == 4:
            totals[module_of(parts[3])] += int(parts[1], 16)
    return totals


def mb(n):
    return f"{n / 1e6:7.2f} MB"


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build-release", "release", "apx")
    if not os.path.exists(binary):
        raise SystemExit(f"{binary} not found: run scripts/build-release.sh first, or name a binary")
    with tempfile.TemporaryDirectory() as tmp:
        stripped = os.path.join(tmp, "apx")
        subprocess.run(["strip", "-o", stripped, binary], check=True)
        stripped_size = os.path.getsize(stripped)
    secs = sections(binary)
    print(f"{binary}: {mb(os.path.getsize(binary))}, stripped {mb(stripped_size)}")
    print("largest sections:")
    for name, size in sorted(secs.items(), key=lambda kv: -kv[1])[:8]:
        print(f"  {mb(size)}  {name}")
    print("defined symbols by module (the largest 25):")
    for name, size in modules(binary).most_common(25):
        print(f"  {mb(size)}  {name}")
    conformances = secs.get("swift5_protocol_conformances", 0) // 4
    relocations = secs.get(".rela.dyn", 0) // 24 + secs.get(".rela.plt", 0) // 24
    relr = secs.get(".relr.dyn", 0)
    print(f"protocol-conformance records: {conformances}")
    print(f"dynamic relocations: {relocations} RELA" + (f", {relr} bytes of RELR bitmap" if relr else ""))
    metadata = sum(v for k, v in secs.items() if k in (
        "swift5_fieldmd", "swift5_reflstr", "swift5_typeref", "swift5_assocty", "swift5_capture", "swift5_builtin"))
    print(f"reflection metadata: {mb(metadata)}")


if __name__ == "__main__":
    main()
