#!/usr/bin/env bash
# Checks that the release binary (scripts/build-release.sh: the Swift runtime and Foundation linked
# into it) computes what the debug build computes, byte for byte: every report format, the log, and
# a replay, over two simulated months in a time zone with summer time. Run by scripts/test after
# both builds; exits 1 and names the first output that differs.
set -euo pipefail
cd "$(dirname "$0")/.."
release=$(bash scripts/build-release.sh --show-bin-path)/vigil
debug=$(swift build --show-bin-path)/vigil
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
zone=(--time-zone America/New_York)
export TZ=America/New_York  # for the commands without --time-zone (log)
"$debug" simulate --data-dir "$work/log" --days 60 --seed 7 --until 2026-11-21 "${zone[@]}" >/dev/null
same() { # NAME ARGS...: both binaries, the same output
    local name=$1; shift
    local binary rc
    for binary in debug release; do
        rc=0
        "${!binary}" "$@" >"$work/$binary.out" 2>&1 || rc=$?
        echo "exit $rc" >>"$work/$binary.out"
    done
    cmp -s "$work/debug.out" "$work/release.out" ||
        { echo "check-release: the release binary's $name differs from the debug build's:" >&2
          diff "$work/debug.out" "$work/release.out" | head -20 >&2; exit 1; }
}
for format in text json markdown csv html; do
    same "report ($format)" report --data-dir "$work/log" --last all --now 2026-11-21T20:00:00Z "${zone[@]}" --format "$format"
done
same log log --data-dir "$work/log" --limit 50
same replay replay --json Samples/coffee-break/session.jsonl
# The sensor libraries are opened when a sensor needs them (CSensorLibraries): none of them may be
# linked into the binary, as a function called from Swift without a stub would have it linked.
needed=$(readelf -d "$release" | grep -oE 'lib(pulse|pulse-simple|input|udev|xcb|xcb-screensaver|gps|dbus-1|ical)\.so[^]]*' || true)
[ -z "$needed" ] || { echo "check-release: the binary needs $needed at start-up: add the functions it calls to Sources/Adapters/C/CSensorLibraries/symbols.txt and run scripts/generate-sensor-stubs.py" >&2; exit 1; }
echo "check-release: the release binary computes what the debug build does (reports, log, replay)"
