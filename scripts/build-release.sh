#!/usr/bin/env bash
# The release build the benchmarks measure: optimised, Swift runtime linked
# statically (start-up drops from ~16 ms to ~11 ms without dynamic loading), and on Linux the
# whole executable static where glibc's archives are installed (see below).
# A separate scratch folder keeps it from locking the debug build.
set -euo pipefail
cd "$(dirname "$0")/../.."
# lld with packed relative relocations (DT_RELR): start-up CPU 10.5 ms -> 7.5 ms measured
# on `apx --version`, since the 150k relative relocations of a static-stdlib binary shrink to a bitmap.
# Then non-PIE (--no-pie): an executable at a fixed address needs no relative relocations at all;
# perf showed _dl_relocate_object and its copy-on-write page faults at 15% of a small call's CPU
# even packed. The cost: no ASLR for apx's own code (libraries, stack and heap are still randomised).
# macOS has the Swift runtime in the OS (no static stdlib) and its own linker: neither applies.
# Last, the unwind tables (.eh_frame, 7.8 MB) are discarded by a linker script: why in
# discard-unwind-tables.ld. The binary falls from 45.4 to 37.7 MB; `NO_DISCARD_UNWIND=1`
# keeps them for a debugger that unwinds by DWARF alone.
LINK=()
if [ "$(uname -s)" = Linux ]; then
  LINK=(--static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-pie
    -Xlinker --no-export-dynamic)
  if [ -z "${NO_DISCARD_UNWIND:-}" ]; then
    LINK+=(-Xlinker -T -Xlinker "$PWD/scripts/bench/discard-unwind-tables.ld")
  fi
fi
# libstdc++ linked statically (Linux): the Swift runtime, Dispatch and BoringSSL need it, and as
# a shared library it cost every start 1,700 symbol relocations in the dynamic loader (LD_DEBUG=
# statistics: 1,802 relocations -> 133) and its pages: a small GET took 0.96x the wall time and
# 1.3 MiB less peak RSS without it, `apx --version` 0.88x (50 interleaved pairs), for 57 KB.
# The driver asks for `-lstdc++` itself, so a folder searched first offers the archive under the
# shared library's name (lld reads an archive by its contents, not its name).
# `DYNAMIC_LIBSTDCXX=1` keeps the shared library.
scratch="${SCRATCH:-.build-release}"
case "$scratch" in /*) ;; *) scratch="$PWD/$scratch" ;; esac
if [ "$(uname -s)" = Linux ] && [ -z "${DYNAMIC_LIBSTDCXX:-}" ]; then
  clang="$(dirname "$(readlink -f "$(command -v swiftc)")")/clang"
  archive="$("$clang" -print-file-name=libstdc++.a 2>/dev/null || true)"
  if [ -f "$archive" ]; then
    mkdir -p "$scratch/static-libstdcxx"
    ln -sf "$archive" "$scratch/static-libstdcxx/libstdc++.so"
    LINK+=(-Xswiftc -L -Xswiftc "$scratch/static-libstdcxx")
  else
    echo "build-release.sh: no libstdc++.a found; linking libstdc++ dynamically" >&2
  fi
fi
# Full Foundation stays out: apx's code imports FoundationEssentials only, but SwiftProtobuf
# and its users import Foundation, and each such import asks the linker for libFoundation.a
# and, through it, ICU. One weak specialization that FileManager's code needs then resolves
# into Foundation's Progress.swift.o and drags 41 MB of ICU data in (ld.lld --why-extract).
# Without those autolink requests nothing live is left undefined, and the binary falls
# from 88.6 MB to 45.4 MB stripped (session 6). A later import of a Foundation-only API
# fails this link loudly with an undefined symbol; scripts/check-imports.sh catches it sooner.
# The whole executable static, glibc too (Linux, where its static archives are installed:
# libc6-dev, zlib1g-dev): no dynamic loader at all. The loader had been 22% of a registry gRPC
# call's user-space samples (symbol lookups, lazy binding, four libraries mapped), and the static
# binary made that call 0.90x the wall time (60 interleaved pairs, session 14). glibc's static
# name resolution would load shared NSS modules for anything past /etc/hosts and DNS; apx
# limits it to those two at start (Sources/CStaticGlibc). `DYNAMIC_GLIBC=1` keeps glibc shared,
# as does a system without the archives (a message says so).
if [ "$(uname -s)" = Linux ] && [ -z "${DYNAMIC_GLIBC:-}" ]; then
  if scripts/bench/static-glibc-available.sh; then
    LINK+=(-Xswiftc -static-executable)
  else
    echo "build-release.sh: no libc.a or libz.a found; linking glibc dynamically" >&2
  fi
fi
# No `$ORIGIN` run path: apx ships no shared libraries, and the dynamic loader searched apx's own
# folder (glibc-hwcaps/, tls/, x86_64/) for each library before the system's.
if [ "$(uname -s)" = Linux ]; then
  LINK+=(--disable-local-rpath)
fi
NO_FOUNDATION=()
if [ "$(uname -s)" = Linux ]; then
  for lib in Foundation FoundationInternationalization _FoundationICU CoreFoundation; do
    NO_FOUNDATION+=(-Xswiftc -Xfrontend -Xswiftc -disable-autolink-library -Xswiftc -Xfrontend -Xswiftc "$lib")
  done
fi
# Generic types are instantiated through direct metadata accessors, not from mangled names:
# an instantiation from a mangled name has the runtime demangle it and check each generic
# requirement (`String: Hashable` for a `[String: String]`) with a protocol-conformance lookup,
# and a lookup the runtime has not cached scans all ~10,800 conformance records of this static
# binary. A small GET made 74 such scans (uprobes on the scan), 51 with this flag; the call's
# wall time fell to 0.80x and its CPU to 0.78x (40 interleaved pairs), a gRPC call with
# reflection to 0.78x. Costs 0.27 MB of code (37.7 -> 38.0 MB stripped). Every module is
# compiled from source here, dependencies included, so the flag reaches NIO and AsyncHTTPClient;
# the Swift runtime's and Foundation's prebuilt code keeps its mangled-name accessors.
DIRECT_METADATA=(-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
swift build -c release --scratch-path "${SCRATCH:-.build-release}" --product apx ${LINK[@]+"${LINK[@]}"} "${DIRECT_METADATA[@]}" ${NO_FOUNDATION[@]+"${NO_FOUNDATION[@]}"}
echo "${SCRATCH:-.build-release}/release/apx"
