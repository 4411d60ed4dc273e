#!/usr/bin/env bash
# Installs what Vigil needs on Debian or Ubuntu, and nothing that is already there. Safe to run again.
#
# Usage: scripts/setup.sh [--runtime | --tests]
#   --runtime  only what running a built vigil needs (scripts/install.sh --bin)
#   (none)     that and what building it needs (scripts/install.sh, scripts/demo)
#   --tests    that and what the tests need: the servers they run (scripts/test, CI)
set -euo pipefail
tier=${1:-build}
case $tier in --runtime) tier=runtime ;; --tests) tier=tests ;; build) ;;
    *) echo "setup: unknown option $1 (--runtime, --tests or nothing)" >&2; exit 64 ;; esac

# Running Vigil: SQLite for the event log and libwayland-client (linked), tzdata (the statistics
# put time into local days and hours through the system's zone database), and the sensors' C
# libraries, opened when a sensor is first used (CSensorLibraries): libpulse, libinput with
# libudev, libxcb and its MIT-SCREEN-SAVER binding, libdbus (desktop notifications and presence),
# and libgps, whose package is named after its soname (libgps28 on Debian 12, libgps30t64 later);
# libical for calendars (`vigil export --ics`), opened the same way.
packages=(libsqlite3-0 libwayland-client0 tzdata libpulse0 libinput10 libudev1 libxcb1 libxcb-screensaver0 libdbus-1-3 libical3)
libgps=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 'libgps[0-9]*' 2>/dev/null | awk '$1 == "ii" {print $2; exit}' || true)
[ -n "$libgps" ] || libgps=$(apt-cache search --names-only '^libgps[0-9]+(t64)?$' 2>/dev/null | awk 'NR == 1 {print $1}' || true)
[ -n "$libgps" ] && packages+=("$libgps")

# Building it: the C libraries' headers (libgps-dev, libpulse-dev, libinput-dev, libudev-dev,
# libdbus-1-dev, libxcb1-dev, libxcb-screensaver0-dev, libwayland-dev, libical-dev; SQLite's for GRDB),
# pkg-config, python3 (the manual pages, scripts/generate-manuals.py), ca-certificates (the
# Swift packages are fetched over HTTPS) and binutils (the linker; strings and strip for
# scripts/build-deb.sh).
if [ "$tier" != runtime ]; then
  packages+=(libsqlite3-dev pkg-config python3 ca-certificates binutils
             libgps-dev libpulse-dev libinput-dev libudev-dev libdbus-1-dev libxcb1-dev libxcb-screensaver0-dev libwayland-dev libical-dev)
fi

# With --tests, what only the tests need. The detectors' tests run the real servers: gpsd with
# gpsfake (gpsd-clients), PulseAudio with pactl/paplay/parec (pulseaudio-utils); sox makes test
# signals and, with ffmpeg, independently measures their levels. The input tests also use setpriv,
# and the fault tests prlimit (util-linux, always there on Debian); the wall-clock test builds a
# small C shim with the Swift toolchain's own clang. The notification tests start a private
# dbus-daemon (dbus) with a small notification service written with python3-dbus and python3-gi.
# A real browser (headless Chromium) renders the HTML
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
# and pg_ctl into a temporary directory, psql to look at what arrived). The packaging tests render
# the manual pages with groff (groff-base) and man (man-db), and look into the .deb with dpkg-deb.
# The first weekday of `:week` comes from the locale: its test compiles en_US and de_DE with
# localedef from the locales' sources (locales). The import tests make their exports with the real
# Taskwarrior and Timewarrior (taskwarrior, timewarrior). The GNOME tests run a real GNOME Shell
# (gnome-shell) headless with Vigil's extension, and check with Node (nodejs) that the extension's
# flavour for GNOME 45 and later, which Debian 12 cannot run, parses as an ES module. The wlroots
# window-list tests run sway and phoc (Phosh's compositor: Debian 12's wayfire needs a GPU). The
# media action's tests pause and resume a real player, mpv with Debian's MPRIS plug-in (mpv,
# mpv-mpris), and read it back with playerctl. The window actions' X11 tests run Openbox (openbox),
# a stacking EWMH window manager; `vigil status --format i3blocks` is read by a real i3blocks.
# A desktop's notification daemons are
# installed too (dunst, gnome-shell), though no test runs them as the person's: the suite must pass
# on a developer's desktop, where a private test bus that read the system's service directories
# started one at the first notification; with them installed, every run shows it does not.
if [ "$tier" = tests ]; then
  packages+=(gpsd gpsd-clients pulseaudio pulseaudio-utils sox ffmpeg dbus python3-dbus python3-gi
             postgresql chromium python3-pil python3-dbusmock libglib2.0-bin xvfb i3-wm xdotool x11-utils xterm sway gir1.2-gtk-3.0
             python3-venv wtype kwin-wayland weston wayland-utils wayland-protocols plasma-wayland-protocols
             groff-base man-db locales taskwarrior timewarrior dunst gnome-shell nodejs phoc mpv mpv-mpris playerctl openbox i3blocks python3-icalendar python3-recurring-ical-events)
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

if [ "$tier" = runtime ]; then
  echo "setup: ready to run vigil"
  exit 0
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
if [ "$tier" = tests ]; then
  aw="${VIGIL_TEST_TOOLS:-$HOME/.cache/vigil-tests}/aw-server"
  if [ ! -x "$aw/bin/aw-server" ]; then
    echo "setup: installing aw-server 0.12.0 from PyPI into $aw"
    /usr/bin/python3 -m venv "$aw"
    "$aw/bin/pip" install -q "aw-server==0.12.0" "peewee<4"
  fi
fi
echo "setup: ready (Swift $major.$minor)"
