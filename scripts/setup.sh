#!/usr/bin/env bash
# Installs what Vigil needs to build and test on Debian or Ubuntu, and nothing that is already there.
# Safe to run again. Used by scripts/demo, scripts/test and CI (.ci/run).
set -euo pipefail

# System packages: SQLite for the event log (GRDB links the system library), pkg-config for the
# C libraries, python3 for regenerating the sample recordings, and the detectors' C libraries:
# libgps, libpulse, libinput with libudev. Their tests run the real servers: gpsd with gpsfake
# (gpsd-clients), PulseAudio with pactl/paplay/parec (pulseaudio-utils); sox makes test signals and, with
# ffmpeg, independently measures their levels. The input tests also use setpriv, and the fault
# tests prlimit (util-linux, always there on Debian); the wall-clock test builds a small C shim
# with the Swift toolchain's own clang. Desktop notifications go through libdbus; their tests start a private
# dbus-daemon (dbus) with a small notification service written with python3-dbus and python3-gi.
# tzdata: the statistics put time into local days and hours (Foundation and, in the tests,
# Python's zoneinfo read the system's zone database). The X11 detectors (idle time, blanking, the
# window in front) link libxcb and its MIT-SCREEN-SAVER binding. The Wayland idle detector links
# libwayland-client (libwayland-dev; the protocols' glue is generated and committed).
packages=(libsqlite3-dev pkg-config python3 ca-certificates tzdata
          libgps-dev gpsd gpsd-clients
          libpulse-dev pulseaudio pulseaudio-utils sox ffmpeg
          libinput-dev libudev-dev
          libdbus-1-dev dbus python3-dbus python3-gi
          libxcb1-dev libxcb-screensaver0-dev
          libwayland-dev)
# With --tests, what only the tests need: a real browser (headless Chromium) renders the HTML
# report, and python3-pil counts the chart colours in its screenshot. The desktop-presence tests
# run logind, GNOME's idle monitor and screen saver, and org.freedesktop.ScreenSaver as
# python-dbusmock services (python3-dbusmock: logind needs systemd as PID 1, GNOME Shell a full
# session) on private dbus-daemons, driven with gdbus (libglib2.0-bin). The X11 and i3 tests run
# a real X server (xvfb) with a real window manager (i3-wm, whose i3-msg moves the focus),
# windows of set classes (xterm; xmessage and xdpyinfo from x11-utils) and input from xdotool;
# the same i3 IPC from sway, headless, with GTK windows (gir1.2-gtk-3.0 through python3-gi).
# The Wayland idle tests run sway (org_kde_kwin_idle) with key presses from wtype, KWin
# (kwin-wayland: Debian 12's one compositor with ext-idle-notify-v1) and Weston (no idle protocol),
# and wait for the compositors with wayland-info (wayland-utils); the check that the committed
# protocol glue is what wayland-scanner makes reads the protocols' XML (wayland-protocols,
# plasma-wayland-protocols). The sync tests start their own PostgreSQL server (postgresql: initdb
# and pg_ctl into a temporary directory, psql to look at what arrived). The first weekday of
# `:week` comes from the locale: its test compiles en_US and de_DE with localedef from the
# locales' sources (locales). The import tests make their exports with the real Taskwarrior and
# Timewarrior (taskwarrior, timewarrior).
if [ "${1:-}" = "--tests" ]; then
  packages+=(postgresql chromium python3-pil python3-dbusmock libglib2.0-bin xvfb i3-wm xdotool x11-utils xterm sway gir1.2-gtk-3.0
             python3-venv wtype kwin-wayland weston wayland-utils wayland-protocols plasma-wayland-protocols locales
             taskwarrior timewarrior)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then sudo="sudo"; else
    if [ ${#missing[@]} -gt 0 ]; then
      echo "setup: these packages are missing and you are not root (no sudo either): ${missing[*]}" >&2
      echo "setup: install them as root: apt-get install ${missing[*]}" >&2
      exit 1
    fi
  fi
fi

# CI starts from a fresh machine: always refresh the package lists there.
if [ ${#missing[@]} -gt 0 ] || [ "${CI:-}" = "true" ]; then
  echo "setup: apt-get update"
  $sudo apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v swift >/dev/null; then
  echo "setup: no Swift toolchain on PATH. Vigil needs Swift 6.1 or newer:" >&2
  echo "setup: see https://www.swift.org/install/linux/ , then run this again." >&2
  exit 1
fi
version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' | head -1)
read -r major minor <<<"${version:-0 0}"
if [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 1 ]; }; then
  echo "setup: Swift $major.$minor found; Vigil needs 6.1 or newer (https://www.swift.org/install/linux/)." >&2
  exit 1
fi
# With --tests: ActivityWatch's own server (aw-server, from PyPI), whose export the tests replay,
# in a virtual environment of its own (peewee 4 breaks aw-server 0.12's storage: pinned below 4).
if [ "${1:-}" = "--tests" ]; then
  aw="${VIGIL_TEST_TOOLS:-$HOME/.cache/vigil-tests}/aw-server"
  if [ ! -x "$aw/bin/aw-server" ]; then
    echo "setup: installing aw-server 0.12.0 from PyPI into $aw"
    /usr/bin/python3 -m venv "$aw"
    "$aw/bin/pip" install -q "aw-server==0.12.0" "peewee<4"
  fi
fi
echo "setup: ready (Swift $major.$minor)"
