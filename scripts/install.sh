#!/usr/bin/env bash
# Installs apx: the release build of scripts/build-release.sh (on Linux with a static Swift
# runtime and glibc shared), stripped, into PREFIX/bin,
# with its bash, zsh and fish completions and its man page under PREFIX/share. Running it again
# upgrades in place; --uninstall removes exactly the files the last install wrote (listed in
# PREFIX/share/apx/installed-files).
#
#   scripts/install.sh [--prefix DIR]               build and install (DIR defaults to ~/.local)
#   scripts/install.sh [--prefix DIR] --binary FILE install FILE (an apx already built) instead
#   scripts/install.sh [--prefix DIR] --uninstall   remove what was installed there
#
# Exit codes: 0 done, 2 bad arguments, 1 a failed build or copy (the message says which).
set -euo pipefail

usage() {
  sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
}

PREFIX="${HOME:?HOME is not set; pass --prefix}/.local"
UNINSTALL=0
BINARY=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix)
      [ $# -ge 2 ] && [ -n "$2" ] || { echo "install.sh: --prefix needs a folder" >&2; exit 2; }
      PREFIX="$2"; shift 2 ;;
    --prefix=*) PREFIX="${1#--prefix=}"; shift ;;
    --binary)
      [ $# -ge 2 ] && [ -x "$2" ] || { echo "install.sh: --binary needs an executable apx file" >&2; exit 2; }
      BINARY="$2"; shift 2 ;;
    --uninstall) UNINSTALL=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
case "$PREFIX" in /*) ;; *) PREFIX="$(pwd)/$PREFIX" ;; esac
MANIFEST="$PREFIX/share/apx/installed-files"

if [ "$UNINSTALL" = 1 ]; then
  if [ ! -f "$MANIFEST" ]; then
    echo "install.sh: nothing to uninstall: $MANIFEST does not exist (was apx installed with --prefix $PREFIX?)" >&2
    exit 2
  fi
  while IFS= read -r file; do
    [ -n "$file" ] && rm -f -- "$file" && echo "removed $file"
  done < "$MANIFEST"
  rm -f -- "$MANIFEST"
  rmdir -- "$PREFIX/share/apx" 2>/dev/null || true
  echo "apx uninstalled from $PREFIX"
  exit 0
fi

if [ -n "$BINARY" ]; then
  case "$BINARY" in /*) BUILT="$BINARY" ;; *) BUILT="$(pwd)/$BINARY" ;; esac
  cd "$(dirname "$0")/.."
else
  cd "$(dirname "$0")/.."
  SCRATCH="${SCRATCH:-.build-release}"
  echo "== building the release (a first build takes 10-20 minutes on 2 cores)"
  SCRATCH="$SCRATCH" scripts/build-release.sh >/dev/null
  BUILT="$SCRATCH/release/apx"
  [ -x "$BUILT" ] || { echo "install.sh: the build did not produce $BUILT" >&2; exit 1; }
fi

# Everything is staged first, so a failure leaves the installed version as it was.
STAGE="$(mktemp -d)"
trap 'rm -rf "$STAGE"' EXIT
cp "$BUILT" "$STAGE/apx"
# Debug info and symbols are most of the file; crashes still name functions through the Swift
# runtime's own metadata, and the unwind tables stay.
strip "$STAGE/apx"
"$STAGE/apx" completions bash > "$STAGE/apx.bash"
"$STAGE/apx" completions zsh > "$STAGE/_apx"
"$STAGE/apx" completions fish > "$STAGE/apx.fish"
"$STAGE/apx" manual > "$STAGE/apx.1"

# Where each shell and man look under a prefix.
FILES=(
  "apx:bin/apx:755"
  "apx.bash:share/bash-completion/completions/apx:644"
  "_apx:share/zsh/site-functions/_apx:644"
  "apx.fish:share/fish/vendor_completions.d/apx.fish:644"
  "apx.1:share/man/man1/apx.1:644"
)
mkdir -p "$PREFIX/share/apx"
: > "$STAGE/manifest"
for entry in "${FILES[@]}"; do
  IFS=: read -r name target mode <<< "$entry"
  dest="$PREFIX/$target"
  mkdir -p "$(dirname "$dest")"
  # A copy beside the target, then a rename: a running apx keeps its old file.
  install -m "$mode" "$STAGE/$name" "$dest.new.$$"
  mv -f "$dest.new.$$" "$dest"
  echo "$dest" >> "$STAGE/manifest"
  echo "installed $dest"
done
# An upgrade removes what the previous install wrote and this one no longer does.
if [ -f "$MANIFEST" ]; then
  grep -vxF -f "$STAGE/manifest" "$MANIFEST" | while IFS= read -r old; do
    [ -n "$old" ] && rm -f -- "$old" && echo "removed $old (no longer installed)"
  done || true
fi
cp "$STAGE/manifest" "$MANIFEST"

echo "apx $("$PREFIX/bin/apx" --version | sed 's/^apx //') installed in $PREFIX ($(du -h "$PREFIX/bin/apx" | cut -f1) binary)"
case ":$PATH:" in
  *":$PREFIX/bin:"*) ;;
  *) echo "note: $PREFIX/bin is not on PATH; add it with:  export PATH=\"$PREFIX/bin:\$PATH\"  (in ~/.bashrc or ~/.zshrc)" ;;
esac
echo "man page: man apx (if $PREFIX/share/man is on MANPATH); completions load in new shells"
