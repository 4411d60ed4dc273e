#!/usr/bin/env bash
# What a live session costs: CPU time, context switches and peak memory of `vigil start` with every
# signal on, with the microphone only, with the location only, and with no sensor at all, against a
# real X server (Xvfb) with i3 and an xterm in front, a private PulseAudio whose null source is the
# microphone (16 kHz), and gpsfake's gpsd replaying a receiver's log in a loop at about one fix a
# second. logind is absent (its detector says so and waits); libinput is
# off (no input devices here). Every setup prints plain lines (--plain); with every signal on, the
# JSON lines (--json) and the live screen (under script(1), a terminal) are measured too.
#
# The floor, measured the same way: what any program must do to get the same signals, `parec`
# reading the microphone at 16 kHz mono and `gpspipe -w` reading gpsd's reports, side by side.
#
#   scripts/bench-live.sh [BINARY...]    (default: what scripts/build-release.sh builds)
#
# Each binary runs each setup RUNS times (default 3), interleaved, for SESSION_SECONDS seconds (default 30);
# a session of 1 second is timed too, to subtract start-up. Prints one line per run and a summary:
# min / median / max CPU seconds per session, and the steady-state share of one core.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
SECONDS_PER_RUN=${SESSION_SECONDS:-30} # (not $SECONDS: bash counts its own seconds there)
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=("$(bash scripts/build-release.sh --show-bin-path)/vigil")
for b in "${binaries[@]}"; do [ -x "$b" ] || { echo "bench-live: $b is not an executable (scripts/build-release.sh?)" >&2; exit 66; }; done
for tool in Xvfb i3 xterm pulseaudio pactl parec gpsfake gpspipe script perf bc; do
    command -v $tool >/dev/null || { echo "bench-live: needs $tool (scripts/setup.sh --tests installs it)" >&2; exit 69; }
done

work=$(mktemp -d /tmp/vigil-bench-live.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

display=:$((80 + RANDOM % 100))
Xvfb "$display" -noreset -screen 0 1024x768x24 >"$work/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
printf '# i3 config file (v4)\nfont pango:monospace 8\n' >"$work/i3.conf"
DISPLAY=$display i3 -c "$work/i3.conf" -V >"$work/i3.log" 2>&1 &
pids+=($!)
sleep 1
DISPLAY=$display xterm -class Editor -e sleep 100000 &
pids+=($!)

mkdir -p "$work/pulse"
env PULSE_RUNTIME_PATH="$work/pulse" XDG_RUNTIME_DIR="$work/pulse" HOME="$work/pulse" \
    pulseaudio -n --daemonize=no --use-pid-file=false --exit-idle-time=-1 --log-target=stderr \
    -L "module-null-source source_name=vigilmic" -L "module-null-sink sink_name=vigiltest" \
    -L "module-native-protocol-unix socket=$work/pulse/native auth-anonymous=1" >"$work/pulse.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do pactl --server "unix:$work/pulse/native" info >/dev/null 2>&1 && break; sleep 0.1; done

# gpsfake starts its own gpsd on this port and plays the log over and over, a sentence every 0.2 s:
# the log has about five sentences a fix, so about one fix a second, as a receiver gives them
# (gpspipe counted 43 TPV reports in 20 s at 0.1 s; as fast as -S paces them, 35 a second).
gps_port=$((20000 + RANDOM % 20000))
env PATH=/usr/sbin:/usr/bin:/sbin:/bin gpsfake -q -c 0.2 -P "$gps_port" \
    Tests/LocationDetectorTests/Data/haicom-305N.log >"$work/gpsfake.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do gpspipe -w -n 3 127.0.0.1:"$gps_port" >/dev/null 2>&1 && break; sleep 0.2; done
sleep 1

# A setup's config: libinput off (no devices on this machine), the microphone on the private
# server or off, the location from gpsfake's gpsd or off, and the desktop signals (idle, the
# window in front, calls) on or off.
config() { # name, microphone on/off, location on/off, desktop signals on/off
    mkdir -p "$work/$1"
    {
        echo "input: {enabled: false}"
        echo "location: {enabled: $3, gpsd: \"127.0.0.1:$gps_port\"}"
        echo "audio: {enabled: $2, server: \"unix:$work/pulse/native\"}"
        for key in desktop apps media; do echo "$key: {enabled: $4}"; done
    } >"$work/$1/config.yaml"
}
config all true true true
config microphone true false false
config location false true false
config none false false false

# One session; prints "cpu_seconds context_switches peak_kb". perf's task-clock counts CPU time of
# every thread to the microsecond (/usr/bin/time only to 10 ms); time gives the peak RSS.
session() { # binary, setup (with its output mode: all-json, all-screen), seconds
    local data="$work/${2%%-*}/data-$RANDOM" mode=--plain
    case $2 in *-json) mode=--json ;; *-screen) mode= ;; esac
    mkdir -p "$data"
    local command=(env -u DBUS_SESSION_BUS_ADDRESS DISPLAY="$display" I3SOCK= XDG_CONFIG_HOME="$work/none-config" TERM=xterm-256color
        perf stat -x, -e task-clock,context-switches -o "$work/perf"
        /usr/bin/time -f "%M" -o "$work/time"
        "$1" start --config "$work/${2%%-*}/config.yaml" --data-dir "$data" --minutes "$(echo "$3 / 60" | bc -l)" $mode)
    if [ "$1" = floor ]; then
        # The floor: the same signals read by the tools that come with the servers.
        command=(perf stat -x, -e task-clock,context-switches -o "$work/perf" /usr/bin/time -f "%M" -o "$work/time"
            timeout "$3" sh -c "parec --server unix:$work/pulse/native --device vigilmic --rate 16000 --channels 1 --format s16le >/dev/null & gpspipe -w 127.0.0.1:$gps_port >/dev/null & wait")
    fi
    if [ "${2#*-}" = screen ]; then
        # The live screen needs a terminal: script(1) gives it one (its own CPU is not counted).
        script -qec "$(printf '%q ' "${command[@]}")" /dev/null >"$work/out" 2>&1 </dev/null ||
            { echo "bench-live: the session failed:" >&2; cat "$work/out" >&2; exit 1; }
    else
        "${command[@]}" >"$work/out" 2>&1 </dev/null || [ "$1" = floor ] ||
            { echo "bench-live: the session failed:" >&2; cat "$work/out" >&2; exit 1; }
    fi
    local ms switches
    ms=$(awk -F, '$3 == "task-clock" { print $1 }' "$work/perf")
    switches=$(awk -F, '$3 == "context-switches" { print $1 }' "$work/perf")
    echo "$(echo "$ms / 1000" | bc -l) $switches $(tail -1 "$work/time")"
}

printf '%-28s %-11s %6s %8s %8s\n' binary setup cpu_s switches peak_MB
declare -A results
setups=(all all-json all-screen microphone location none)
for run in $(seq "$RUNS"); do
    for setup in "${setups[@]}"; do
        for b in "${binaries[@]}" $([ "$setup" = all ] && echo floor); do
            read -r cpu sw kb < <(session "$b" "$setup" "$SECONDS_PER_RUN")
            read -r cpu1 _ _ < <(session "$b" "$setup" 1)
            steady=$(echo "$cpu - $cpu1" | bc -l)
            printf '%-28s %-11s %6.3f %8d %8.1f   (1-s session %.3f s)\n' "$b" "$setup" "$cpu" "$sw" "$(echo "$kb / 1024" | bc -l)" "$cpu1"
            results["$b|$setup"]+="$steady $kb "
        done
    done
done

echo
echo "steady-state share of one core (CPU of a ${SECONDS_PER_RUN}-s session minus a 1-s one, over $((SECONDS_PER_RUN - 1)) s), and peak RSS:"
for b in "${binaries[@]}" floor; do
    for setup in "${setups[@]}"; do
        [ -n "${results["$b|$setup"]:-}" ] || continue
        python3 - "$b" "$setup" "$((SECONDS_PER_RUN - 1))" ${results["$b|$setup"]} <<'PY'
import statistics, sys
b, setup, span = sys.argv[1], sys.argv[2], float(sys.argv[3])
v = [float(x) for x in sys.argv[4:]]
shares = sorted(100 * c / span for c in v[0::2])
rss = sorted(k / 1024 for k in v[1::2])
print(f"  {b:28} {setup:11} core %: {shares[0]:.3f} / {statistics.median(shares):.3f} / {shares[-1]:.3f}"
      f"   peak MB: {rss[0]:.1f} / {statistics.median(rss):.1f} / {rss[-1]:.1f}")
PY
    done
done
