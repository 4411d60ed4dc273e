#!/usr/bin/env bash
# What watching the application in front costs on each desktop (issue 35): CPU time, context
# switches and peak memory of `vigil start` with the desktop signals (idle, lock, the window in
# front) and nothing else, on real headless desktops, with two GTK windows (app ids bench-editor
# and bench-browser) whose focus a driver swaps every 2 s (far more often than a person does):
#
#   x11    Xvfb with i3; i3's IPC (what Vigil takes where i3 runs), focus by i3-msg
#   sway   headless sway; i3's IPC, focus by swaymsg
#   phoc   headless phoc (wlroots); the window list (wlr-foreign-toplevel-management); no tool
#          here moves its focus, so its windows stay as they are (the steady cost only)
#   gnome  GNOME Shell 43 headless with Vigil's extension (D-Bus signals), focus by its Activate
#   kwin   kwin_wayland --virtual; Vigil's KWin script, focus by a script of the driver's own
#
# Each binary runs each desktop RUNS times (default 3), interleaved, for SESSION_SECONDS seconds (default
# 30), and a 1-s session to subtract start-up; the floor on each desktop is a session with every
# sensor off. A binary from before issue 35 (no GNOME, KWin or wlroots backend) measures what the
# session cost there without the window in front, side by side.
#
#   scripts/bench-desktops.sh [BINARY...]    (default: what scripts/build-release.sh builds)
#   DESKTOPS="gnome kwin" scripts/bench-desktops.sh ...
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
SECONDS_PER_RUN=${SESSION_SECONDS:-30} # (not $SECONDS: bash counts its own seconds there)
DESKTOPS=${DESKTOPS:-x11 sway phoc gnome kwin}
repo=$PWD
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=("$(bash scripts/build-release.sh --show-bin-path)/vigil")
for b in "${binaries[@]}"; do [ -x "$b" ] || { echo "bench-desktops: $b is not an executable (scripts/build-release.sh?)" >&2; exit 66; }; done
for tool in Xvfb i3 i3-msg sway swaymsg phoc gnome-shell kwin_wayland dbus-daemon gdbus wayland-info perf bc; do
    command -v $tool >/dev/null || { echo "bench-desktops: needs $tool (scripts/setup.sh --tests installs it; perf: linux-perf)" >&2; exit 69; }
done
/usr/bin/python3 -c 'import gi, dbusmock' 2>/dev/null || { echo "bench-desktops: needs python3-gi and python3-dbusmock" >&2; exit 69; }

work=$(mktemp -d /tmp/vigil-bench-desktops.XXXXXX)
pids=()
stop_all() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    sleep 1
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
    pids=()
}
trap 'stop_all; rm -rf "$work"' EXIT
window_script=$repo/Tests/DesktopDetectorTests/Data/wayland-window.py

wait_for() { # seconds, command...
    local deadline=$((SECONDS + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.2
    done
}

private_bus() { # a dbus-daemon of the session kind; prints its address
    # Its socket in the work folder (the session config's default is a new one in /tmp).
    dbus-daemon --session --address="unix:path=$work/$1.socket" --nofork --print-address=3 3>"$work/bus-$1" >/dev/null 2>&1 &
    pids+=($!)
    wait_for 10 test -s "$work/bus-$1"
    head -1 "$work/bus-$1"
}

# Starts a desktop: sets env (the session's environment), focus (a command moving the focus to an
# app id) and opens the two windows.
start_desktop() {
    local d=$work/$1
    mkdir -p "$d/home" "$d/run"
    chmod 700 "$d/run"
    env=(PATH=/usr/bin:/bin HOME="$d/home" XDG_RUNTIME_DIR="$d/run" XDG_CONFIG_HOME="$d/home/.config" XDG_DATA_HOME="$d/home/.local/share")
    printf 'Editor\n' >"$d/editor.title"
    printf 'Browser\n' >"$d/browser.title"
    case $1 in
    x11)
        local display=:$((80 + RANDOM % 100))
        Xvfb "$display" -noreset -screen 0 1280x800x24 >"$d/xvfb.log" 2>&1 &
        pids+=($!)
        wait_for 20 test -e "/tmp/.X11-unix/X${display#:}"
        printf '# i3 config file (v4)\nfont pango:monospace 8\n' >"$d/i3.conf"
        env+=(DISPLAY="$display" GDK_BACKEND=x11)
        env -i "${env[@]}" i3 -c "$d/i3.conf" >"$d/i3.log" 2>&1 &
        pids+=($!)
        wait_for 20 env -i "${env[@]}" i3-msg -t get_version
        # (GTK's WM_CLASS: the program name as the instance, capitalised as the class.)
        focus() { env -i "${env[@]}" i3-msg "[instance=\"$1\"] focus" >/dev/null; }
        ;;
    sway)
        # sway refuses to run as root: as nobody, in a runtime folder of nobody's (see Tests/Support).
        printf 'xwayland disable\n' >"$d/sway.conf"
        chown 65534:65534 "$d/run"
        chmod 755 "$work" "$d"
        setpriv --reuid=65534 --regid=65534 --clear-groups env -i PATH=/usr/bin:/bin XDG_RUNTIME_DIR="$d/run" WLR_BACKENDS=headless \
            WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman sway -c "$d/sway.conf" >"$d/sway.log" 2>&1 &
        pids+=($!)
        wait_for 20 sh -c "ls $d/run/sway-ipc.*.sock"
        env+=(WAYLAND_DISPLAY=wayland-1 SWAYSOCK="$(ls "$d"/run/sway-ipc.*.sock)")
        wait_for 20 env -i "${env[@]}" wayland-info
        focus() { env -i "${env[@]}" swaymsg "[app_id=\"$1\"] focus" >/dev/null; }
        ;;
    phoc)
        env -i "${env[@]}" WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman phoc >"$d/phoc.log" 2>&1 &
        pids+=($!)
        env+=(WAYLAND_DISPLAY=wayland-0)
        wait_for 20 env -i "${env[@]}" wayland-info
        focus() { :; }
        ;;
    gnome)
        local session system
        session=$(private_bus gnome-session)
        system=$(private_bus gnome-system)
        env -i PATH=/usr/bin:/bin DBUS_SYSTEM_BUS_ADDRESS="$system" /usr/bin/python3 -m dbusmock --system --template logind >"$d/logind.log" 2>&1 &
        pids+=($!)
        wait_for 30 gdbus call --address "$system" --dest org.freedesktop.login1 --object-path /org/freedesktop/login1 --method org.freedesktop.DBus.Peer.Ping
        env+=(GSETTINGS_BACKEND=keyfile DBUS_SESSION_BUS_ADDRESS="$session" DBUS_SYSTEM_BUS_ADDRESS="$system" WAYLAND_DISPLAY=wayland-vigil
            XDG_SESSION_TYPE=wayland XDG_CURRENT_DESKTOP=GNOME)
        # The extension from the last binary (the first may be from before it).
        env -i "${env[@]}" "${binaries[-1]}" desktop install >"$d/install.log" 2>&1
        env -i "${env[@]}" gnome-shell --headless --wayland --no-x11 --virtual-monitor 1280x800 --wayland-display=wayland-vigil >"$d/shell.log" 2>&1 &
        pids+=($!)
        wait_for 60 env -i "${env[@]}" gdbus call --session --dest org.gnome.Shell --object-path /org/vigil/Focus --method org.vigil.Focus1.Current ||
            { echo "bench-desktops: GNOME Shell did not start with Vigil's extension:" >&2; tail -20 "$d/shell.log" >&2; exit 1; }
        focus() { env -i "${env[@]}" gdbus call --session --dest org.gnome.Shell --object-path /org/vigil/Focus --method org.vigil.Focus1.Activate "$1" >/dev/null; }
        ;;
    kwin)
        local session
        session=$(private_bus kwin-session)
        cp /usr/bin/kwin_wayland "$d/kwin_wayland" # without its file capability (see Tests/Support)
        env+=(DBUS_SESSION_BUS_ADDRESS="$session" WAYLAND_DISPLAY=wayland-vigil XDG_CURRENT_DESKTOP=KDE)
        env -i "${env[@]}" KWIN_COMPOSE=Q "$d/kwin_wayland" --virtual --socket wayland-vigil --no-lockscreen --no-global-shortcuts \
            --no-kactivities >"$d/kwin.log" 2>&1 &
        pids+=($!)
        wait_for 30 env -i "${env[@]}" wayland-info
        focus() {
            local name=bench-focus-$RANDOM
            printf 'const w = workspace.clientList().find(c => String(c.resourceClass) === "%s");\nif (w) { workspace.activeClient = w; }\n' "$1" >"$work/$name.js"
            local id
            id=$(env -i "${env[@]}" gdbus call --session --dest org.kde.KWin --object-path /Scripting --method org.kde.kwin.Scripting.loadScript "$work/$name.js" "$name" | tr -dc '0-9')
            env -i "${env[@]}" gdbus call --session --dest org.kde.KWin --object-path "/$id" --method org.kde.kwin.Script.run >/dev/null
            env -i "${env[@]}" gdbus call --session --dest org.kde.KWin --object-path /Scripting --method org.kde.kwin.Scripting.unloadScript "$name" >/dev/null
            rm -f "$work/$name.js"
        }
        ;;
    esac
    for w in editor browser; do
        env -i "${env[@]}" /usr/bin/python3 "$window_script" "bench-$w" "$d/$w.title" >"$d/$w.log" 2>&1 &
        pids+=($!)
    done
    sleep 3
    # The driver: the focus to the other window every 2 s, for as long as the desktop runs.
    (while true; do focus bench-editor; sleep 2; focus bench-browser; sleep 2; done) >/dev/null 2>&1 &
    pids+=($!)
    sleep 2
    mkdir -p "$d/sensors" "$d/none"
    {
        for key in input audio location media; do echo "$key: {enabled: false}"; done
        echo "apps: {rules: [{name: bench, class: bench-browser, category: distracting}]}"
    } >"$d/sensors/config.yaml"
    for key in input audio location media desktop apps; do echo "$key: {enabled: false}"; done >"$d/none/config.yaml"
}

# One session; prints "cpu_seconds context_switches peak_kb".
session() { # desktop, binary, setup (sensors, none), seconds
    local d=$work/$1 data
    data=$d/data-$RANDOM
    mkdir -p "$data"
    env -i "${env[@]}" perf stat -x, -e task-clock,context-switches -o "$work/perf" /usr/bin/time -f "%M" -o "$work/time" \
        "$2" start --config "$d/$3/config.yaml" --data-dir "$data" --minutes "$(echo "$4 / 60" | bc -l)" --plain >"$work/out" 2>&1 </dev/null ||
        { echo "bench-desktops: the session failed on $1:" >&2; cat "$work/out" >&2; exit 1; }
    echo "$(awk -F, '$3 == "task-clock" { print $1 / 1000 }' "$work/perf") $(awk -F, '$3 == "context-switches" { print $1 }' "$work/perf") $(tail -1 "$work/time")"
}

printf '%-6s %-40s %-8s %7s %8s %8s\n' desktop binary setup cpu_s switches peak_MB
declare -A results
for desktop in $DESKTOPS; do
    start_desktop "$desktop"
    # What the last binary's sensors say here (the backend it uses).
    env -i "${env[@]}" "${binaries[-1]}" sensors --config "$work/$desktop/sensors/config.yaml" 2>&1 | grep -i "front" | sed "s/^/  $desktop: /" || true
    # That the driver moves the focus and the last binary sees it: a 9-s session, recorded.
    mkdir -p "$work/$desktop/check"
    env -i "${env[@]}" "${binaries[-1]}" start --config "$work/$desktop/sensors/config.yaml" --data-dir "$work/$desktop/check" --minutes 0.15 \
        --plain --record "$work/$desktop/check/session.jsonl" >/dev/null 2>&1 </dev/null || true
    echo "  $desktop: $(grep -c '"app"' "$work/$desktop/check/session.jsonl" 2>/dev/null || echo 0) changes of the window in front in a 9-s session"
    for _ in $(seq "$RUNS"); do
        for b in "${binaries[@]}"; do
            for setup in sensors none; do
                read -r cpu sw kb < <(session "$desktop" "$b" "$setup" "$SECONDS_PER_RUN")
                read -r cpu1 _ _ < <(session "$desktop" "$b" "$setup" 1)
                printf '%-6s %-40s %-8s %7.3f %8d %8.1f   (1-s session %.3f s)\n' "$desktop" "$b" "$setup" "$cpu" "$sw" "$(echo "$kb / 1024" | bc -l)" "$cpu1"
                results["$desktop|$b|$setup"]+="$(echo "$cpu - $cpu1" | bc -l) $kb $sw "
            done
        done
    done
    stop_all
done

echo
echo "steady-state share of one core (CPU of a ${SECONDS_PER_RUN}-s session minus a 1-s one, over $((SECONDS_PER_RUN - 1)) s) min / median / max, context switches, peak RSS:"
for desktop in $DESKTOPS; do
    for b in "${binaries[@]}"; do
        for setup in sensors none; do
            python3 - "$desktop" "$b" "$setup" "$((SECONDS_PER_RUN - 1))" ${results["$desktop|$b|$setup"]} <<'PY'
import statistics, sys
desktop, b, setup, span = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
v = [float(x) for x in sys.argv[5:]]
shares = sorted(100 * c / span for c in v[0::3])
rss = sorted(k / 1024 for k in v[1::3])
switches = sorted(v[2::3])
print(f"  {desktop:6} {b[-40:]:40} {setup:8} core %: {shares[0]:.3f} / {statistics.median(shares):.3f} / {shares[-1]:.3f}"
      f"   switches {switches[0]:.0f}-{switches[-1]:.0f}   peak MB {rss[0]:.1f}-{rss[-1]:.1f}")
PY
        done
    done
done
