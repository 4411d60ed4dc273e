#!/usr/bin/env bash
# What the all-day watch costs: CPU time and peak memory of `vigil daemon --watch` against the same
# daemon without the watch, on a real X server (Xvfb) with i3, while a driver plays a person at the
# computer: the focus moves between two windows every WATCH_SWITCH seconds (i3-msg) and a key is
# pressed every second (xdotool), with a pause of 20 s now and then (idle, then back). logind is
# absent (its detector says so and waits).
#
#   scripts/bench-watch.sh [BINARY]    (default: what scripts/build-release.sh builds)
#
# Each setup runs RUNS times (default 3), interleaved, for WATCH_SECONDS seconds (default 60).
# Prints one line per run and a summary: min / median / max share of one core and peak memory,
# and the watch's own share (with the watch less without it, medians).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
RUN_SECONDS=${WATCH_SECONDS:-60}
SWITCH=${WATCH_SWITCH:-10}
binary=${1:-"$(bash scripts/build-release.sh --show-bin-path)/vigil"}
[ -x "$binary" ] || { echo "bench-watch: $binary is not an executable (scripts/build-release.sh?)" >&2; exit 66; }
for tool in Xvfb i3 xterm xdotool i3-msg bc; do
    command -v $tool >/dev/null || { echo "bench-watch: needs $tool (scripts/setup.sh --tests installs it)" >&2; exit 69; }
done

work=$(mktemp -d /tmp/vigil-bench-watch.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

display=:$((80 + RANDOM % 100))
Xvfb "$display" -noreset -screen 0 1024x768x24 >"$work/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
printf '# i3 config file (v4)\nfont pango:monospace 8\nipc-socket %s/i3.sock\n' "$work" >"$work/i3.conf"
DISPLAY=$display i3 -c "$work/i3.conf" >"$work/i3.log" 2>&1 &
pids+=($!)
sleep 1
for cls in Editor Videos; do DISPLAY=$display xterm -class $cls -e sleep 100000 & pids+=($!); done
sleep 1

# The person: a key a second, the focus moved every $SWITCH s, a 20 s pause every 90 s.
DISPLAY=$display bash -c "
    i=0
    while true; do
        i=\$((i + 1))
        if [ \$((i % $SWITCH)) -eq 0 ]; then
            cls=Editor; [ \$((i / $SWITCH % 2)) -eq 1 ] && cls=Videos
            i3-msg -s '$work/i3.sock' \"[class=\\\"\$cls\\\"] focus\" >/dev/null
        fi
        if [ \$((i % 90)) -ge 70 ]; then sleep 1; continue; fi
        xdotool key shift; sleep 1
    done" &
pids+=($!)

ticks=$(getconf CLK_TCK)
# One daemon for RUN_SECONDS: prints "CPU-seconds peak-KiB".
run() {
    local home=$work/home-$1-$2
    mkdir -p "$home/config/vigil"
    printf 'desktop:\n  poll: 1s\n' >"$home/config/vigil/config.yaml"
    local args=(daemon); [ "$1" = watch ] && args+=(--watch)
    env -i PATH=/usr/bin:/bin HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" DISPLAY="$display" \
        I3SOCK="$work/i3.sock" DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent "$binary" "${args[@]}" >"$home/daemon.log" 2>&1 &
    local pid=$!
    sleep 3  # start-up (the log opened, the detectors connected), not counted
    local before; before=$(awk '{print $14 + $15}' /proc/$pid/stat)
    sleep "$RUN_SECONDS"
    local after; after=$(awk '{print $14 + $15}' /proc/$pid/stat)
    local peak; peak=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
    kill -TERM $pid; wait $pid || true
    if [ "$1" = watch ]; then
        local rows; rows=$(sqlite3 "$home/data/vigil/vigil.sqlite3" "SELECT count(*) FROM day_stretches" 2>/dev/null || echo "?")
        echo "$(echo "($after - $before) / $ticks" | bc -l) $peak $rows"
    else
        echo "$(echo "($after - $before) / $ticks" | bc -l) $peak -"
    fi
}

declare -A shares peaks
for r in $(seq "$RUNS"); do
    for setup in plain watch; do
        read -r cpu peak rows < <(run $setup "$r")
        share=$(echo "100 * $cpu / $RUN_SECONDS" | bc -l)
        printf '%-6s run %d: %.2f s CPU in %d s = %.3f %% of a core, peak %d KiB, %s stretches\n' "$setup" "$r" "$cpu" "$RUN_SECONDS" "$share" "$peak" "$rows"
        shares[$setup]+="$share "
        peaks[$setup]+="$peak "
    done
done
stats() { tr ' ' '\n' <<<"$1" | grep -v '^$' | sort -g | awk '{a[NR] = $1} END {printf "%.3f / %.3f / %.3f", a[1], a[int((NR + 1) / 2)], a[NR]}'; }
median() { tr ' ' '\n' <<<"$1" | grep -v '^$' | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
echo "share of one core, min / median / max: daemon $(stats "${shares[plain]}") %, daemon --watch $(stats "${shares[watch]}") %"
echo "peak memory (KiB), min / median / max: daemon $(stats "${peaks[plain]}"), daemon --watch $(stats "${peaks[watch]}")"
echo "the watch's own share (medians, with less without): $(echo "$(median "${shares[watch]}") - $(median "${shares[plain]}")" | bc -l | xargs printf '%.3f') % of a core"
