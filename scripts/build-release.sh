#!/usr/bin/env bash
# The release build that scripts/install.sh installs, CI tests and the benchmarks measure:
# `swift build -c release` with documented options only. Prints the binary's path.
#
#   scripts/build-release.sh            (SCRATCH=DIR picks the build folder; default .build-release,
#                                        apart from the debug build's so neither locks the other)
#
# On Linux:
# - the Swift runtime and Foundation are linked statically (--static-swift-stdlib), so the binary
#   runs on a machine without a Swift toolchain; glibc stays a shared library, so host names
#   resolve through the system's resolver as configured (NSS, systemd-resolved, mDNS);
# - libstdc++ is linked statically too, where its archive is installed (the Swift runtime,
#   Dispatch and BoringSSL need it; the driver asks for `-lstdc++`, so a folder searched first
#   offers the archive under the shared library's name); `DYNAMIC_LIBSTDCXX=1` keeps it shared;
# - lld with packed relative relocations (DT_RELR): a position-independent executable keeps
#   ASLR, and its relative relocations shrink to a bitmap the loader applies quickly;
# - no dynamic symbol table of apx's own symbols (--no-export-dynamic): nothing loads apx as a
#   library, and the table was a tenth of the binary (over 5 MB of .dynsym and .dynstr);
# - full Foundation and ICU's data are linked in: GraphQLSwift, which apx's GraphQL calls and the
#   demo's GraphQL API need, requires Foundation. The autolink guard that kept Foundation out
#   acted on this one link, not per module, so it cannot spare GraphQLSwift alone and is gone;
#   scripts/check-imports.sh keeps apx's own modules on FoundationEssentials
#   (docs/architecture.md, "Foundation and the size cap").
# The executable stays position-independent and keeps its unwind tables (debuggers, crash
# reports and C++ exceptions need them). macOS has the Swift runtime in the OS and its own linker:
# none of the Linux options apply there.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${SCRATCH:-.build-release}"
case "$scratch" in /*) ;; *) scratch="$PWD/$scratch" ;; esac

OPTIONS=()
if [ "$(uname -s)" = Linux ]; then
  OPTIONS=(--static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
    -Xlinker --no-export-dynamic)
  clang="$(dirname "$(readlink -f "$(command -v swiftc)")")/clang"
  archive="$("$clang" -print-file-name=libstdc++.a 2>/dev/null || true)"
  if [ -n "${DYNAMIC_LIBSTDCXX:-}" ]; then
    :
  elif [ -f "$archive" ]; then
    mkdir -p "$scratch/static-libstdcxx"
    ln -sf "$archive" "$scratch/static-libstdcxx/libstdc++.so"
    OPTIONS+=(-Xswiftc -L -Xswiftc "$scratch/static-libstdcxx")
  else
    echo "build-release.sh: no libstdc++.a found; linking libstdc++ dynamically" >&2
  fi
fi
swift build -c release --scratch-path "$scratch" --product apx ${OPTIONS[@]+"${OPTIONS[@]}"}
echo "$scratch/release/apx"
