#!/usr/bin/env bash
# Runs a command inside a fresh D-Bus session bus where GNOME Keyring serves the Secret Service
# with its "login" collection (the default one) created and unlocked, so that libsecret's
# `secret-tool` works headless: in a container, in CI, over ssh, as root, with no X display and
# no systemd user session.
#
#   scripts/with-keyring.sh swift test --filter Keychain
#   scripts/with-keyring.sh sh -c 'printf tok | secret-tool store --label=x service apx account a'
#
# Needs, on Debian/Ubuntu: apt-get install gnome-keyring libsecret-tools dbus-x11
# (gnome-keyring-daemon, secret-tool, and dbus-run-session and dbus-send from dbus-daemon and
# dbus-bin; gnome-keyring needs a session-bus package, dbus-x11 or dbus-user-session).
#
# The keyring lives in a scratch folder (the daemon's XDG_DATA_HOME; the user's own keyrings are
# not touched) and is deleted afterwards; the bus and the daemon end with the command. The
# keyring's password is fixed and not a secret. The command's environment is unchanged but for
# DBUS_SESSION_BUS_ADDRESS. Exit status: the command's; 127 when a tool is missing; 1 when the
# keyring did not come up.
set -euo pipefail

if [ "${1-}" = --inside-session ]; then
  scratch=$2
  shift 2
  exec 2>&3 3>&- # the command's stderr back (see the end of this file)
  printf 'apx-test-keyring' | XDG_DATA_HOME="$scratch/data" XDG_RUNTIME_DIR="$scratch" \
    gnome-keyring-daemon --unlock --components=secrets >/dev/null
  # --unlock returns before the daemon owns its bus name. Anything that calls the Secret Service
  # before then makes the bus start a second daemon by D-Bus activation, one without the password
  # or the scratch folder, and the login collection is then locked or missing. So wait (at most
  # 10 s), asking the bus only, which starts nothing.
  owned=no
  for _ in $(seq 200); do
    if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
      org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; then
      owned=yes
      break
    fi
    sleep 0.05
  done
  if [ "$owned" != yes ]; then
    echo "with-keyring.sh: gnome-keyring-daemon did not take org.freedesktop.secrets on the session bus" >&2
    exit 1
  fi
  locked=$(dbus-send --session --print-reply --dest=org.freedesktop.secrets \
    /org/freedesktop/secrets/collection/login org.freedesktop.DBus.Properties.Get \
    string:org.freedesktop.Secret.Collection string:Locked 2>&1 || true)
  case "$locked" in
    *"boolean false"*) ;;
    *)
      echo "with-keyring.sh: the keyring's login collection is not unlocked: $locked" >&2
      exit 1
      ;;
  esac
  exec "$@"
fi

if [ $# -eq 0 ]; then
  echo "usage: scripts/with-keyring.sh COMMAND [ARGUMENT...]" >&2
  exit 2
fi

missing=()
for tool in gnome-keyring-daemon secret-tool dbus-run-session dbus-send; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "with-keyring.sh: missing ${missing[*]}; on Debian/Ubuntu: apt-get install gnome-keyring libsecret-tools dbus-x11" >&2
  exit 127
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/apx-keyring.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
status=0
# dbus-run-session starts a private bus, runs the command with DBUS_SESSION_BUS_ADDRESS set, and
# stops the bus after it (the keyring daemon leaves with its bus). The command's stderr is fd 3,
# the real one; what is left on fd 2 is the bus daemon's, less the line it writes for root in a
# container ("Failed to set fd limit to 65536: Operation not permitted"), which means nothing here.
dbus-run-session -- "${BASH:-bash}" "${BASH_SOURCE[0]}" --inside-session "$scratch" "$@" 3>&2 \
  2> >(grep --line-buffered -v 'Failed to set fd limit' >&2) || status=$?
exit "$status"
