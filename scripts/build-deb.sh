#!/usr/bin/env bash
# Builds a Debian package of Vigil, vigil_VERSION_ARCH.deb, for `sudo apt install ./vigil_*.deb`:
# /usr/bin/vigil and vigil-sync (release, the Swift runtime linked in: scripts/build-release.sh),
# the manual pages (vigil(1), vigil-COMMAND(1), vigil.yaml(5)), bash, zsh and fish completions,
# the documented default config /usr/share/vigil/vigil.yaml, Vigil's GNOME Shell extension in
# /usr/share/gnome-shell/extensions (`vigil desktop install` enables it) and the reminder daemon's user unit
# /usr/lib/systemd/user/vigil-daemon.service (enable it with
# `systemctl --user enable --now vigil-daemon.service`).
#
# Depends: the packages of the libraries the binaries link (ldd), with the versions their shlibs
# files ask for. Recommends: those of the sensors' libraries, which Vigil opens when a sensor is
# first used (CSensorLibraries) and does without when they are missing.
#
# Usage: scripts/build-deb.sh [--bin DIR] [--output DIR] [--allow-unpackaged]
#   --bin DIR           package the vigil and vigil-sync already built in DIR (default: build release)
#   --output DIR        where the .deb goes (default: .build/deb)
#   --allow-unpackaged  package even when a linked library belongs to no Debian package (a debug
#                       build links the toolchain's Swift runtime: such a package runs only here)
#   --compression TYPE  dpkg-deb's -Z: xz (default), gzip, zstd or none (the tests: no time spent)
# Prints the path of the .deb on the last line.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="" output=.build/deb allow_unpackaged=false compression=xz
while [ $# -gt 0 ]; do
    case $1 in
        --bin) bin=${2:?--bin needs a directory}; shift ;;
        --output) output=${2:?--output needs a directory}; shift ;;
        --allow-unpackaged) allow_unpackaged=true ;;
        --compression) compression=${2:?--compression needs xz, gzip, zstd or none}; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "build-deb: unknown option $1 (see scripts/build-deb.sh --help)" >&2; exit 64 ;;
    esac
    shift
done
if [ -z "$bin" ]; then
    bash scripts/build-release.sh
    bin=$(bash scripts/build-release.sh --show-bin-path)
fi
for program in vigil vigil-sync; do
    [ -x "$bin/$program" ] || { echo "build-deb: no $bin/$program; build it first (scripts/build-release.sh)" >&2; exit 1; }
done

version=$("$bin/vigil" --version)
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root

# (No `exit` in awk or `head` after a pipe: the writer's SIGPIPE would fail the pipeline.)
# The package of a library file, and the dependency its shlibs file declares for the soname
# ("libsqlite3-0 (>= 3.6.0)"), else the package alone.
dependency() { # SONAME PATH
    local soname=$1 path=$2 candidate package name major line
    package=""
    for candidate in "$path" "$(readlink -f "$path")" "${path#/usr}" "/usr$path"; do
        package=$(dpkg -S "$candidate" 2>/dev/null | awk -F: 'NR == 1 { print $1 }') && [ -n "$package" ] && break
    done
    [ -n "$package" ] || return 1
    name=${soname%%.so*} major=${soname#*.so.}
    line=$(cat /var/lib/dpkg/info/"$package".shlibs /var/lib/dpkg/info/"$package":*.shlibs 2>/dev/null || true) line=$(echo "$line" |
        awk -v n="$name" -v m="$major" '$1 == n && $2 == m && !found { found = 1; $1 = ""; $2 = ""; sub(/^ +/, ""); print }')
    echo "${line:-$package}"
}
depends=() recommends=() unpackaged=() linked=()
while read -r soname path; do
    linked+=("$soname")
    if dep=$(dependency "$soname" "$path"); then depends+=("$dep"); else unpackaged+=("$path"); fi
done < <(ldd "$bin/vigil" "$bin/vigil-sync" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | sort -u)
# The sonames the binary opens later (dlopen): sensor-stubs.c's table, as compiled into it.
while read -r soname; do
    printf '%s\n' "${linked[@]}" | grep -qxF "$soname" && continue
    path=$(ldconfig -p | awk -v s="$soname" '$1 == s && !found { found = 1; print $NF }')
    if [ -n "$path" ] && dep=$(dependency "$soname" "$path"); then recommends+=("$dep")
    else echo "build-deb: $soname (opened when first used) is not installed here, so it is not in Recommends" >&2; fi
done < <(strings -a "$bin/vigil" | grep -E '^lib(pulse|pulse-simple|input|udev|xcb|xcb-screensaver|dbus-1|gps|ical)\.so\.[0-9]+$' | sort -u)
if [ ${#unpackaged[@]} -gt 0 ]; then
    if ! $allow_unpackaged; then
        echo "build-deb: no Debian package has these linked libraries: ${unpackaged[*]}" >&2
        echo "build-deb: package a release build (scripts/build-release.sh links the Swift runtime in), or pass --allow-unpackaged" >&2
        exit 1
    fi
    echo "build-deb: not in Depends (no package has them; this .deb runs only where they are): ${unpackaged[*]}" >&2
fi
join() { local IFS=$'\n'; printf '%s\n' "$@" | sort -u | paste -sd, - | sed 's/,/, /g'; }

# The files.
install -D -m 755 "$bin/vigil" "$root/usr/bin/vigil"
install -D -m 755 "$bin/vigil-sync" "$root/usr/bin/vigil-sync"
# Debian's packages carry no debugging information (Policy 10.1); a backtrace still names functions.
strip --strip-debug "$root/usr/bin/vigil" "$root/usr/bin/vigil-sync"
python3 scripts/generate-manuals.py --vigil "$bin/vigil" --output "$root/usr/share/man" --config-doc /usr/share/vigil/vigil.yaml >/dev/null
find "$root/usr/share/man" -type f -exec gzip -9n {} +
install -d "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d"
"$bin/vigil" --generate-completion-script bash >"$root/usr/share/bash-completion/completions/vigil"
"$bin/vigil" --generate-completion-script zsh >"$root/usr/share/zsh/vendor-completions/_vigil"
"$bin/vigil" --generate-completion-script fish >"$root/usr/share/fish/vendor_completions.d/vigil.fish"
install -D -m 644 config/vigil.yaml "$root/usr/share/vigil/vigil.yaml"
# Vigil's GNOME Shell extension, in the system's extensions folder, in the flavour of the GNOME
# Shell this release ships (the package is built for the release it is built on: 43 on Debian 12).
# Each person enables it with `vigil desktop install` or GNOME's Extensions app.
shell=$(apt-cache policy gnome-shell 2>/dev/null | awk '$1 == "Candidate:" { print $2 }' | sed 's/^[0-9]*://; s/[^0-9].*//')
if [ -n "$shell" ] && [ "$shell" != 0 ]; then
    "$bin/vigil" desktop install --shell-version "$shell" --into "$root/usr/share/gnome-shell/extensions" >/dev/null
    chmod 644 "$root/usr/share/gnome-shell/extensions/vigil@vigil.dev/"*
else
    echo "build-deb: this release has no gnome-shell package, so the package has no GNOME Shell extension" >&2
fi
install -d "$root/usr/lib/systemd/user"
sed 's|^ExecStart=%h/.local/bin/vigil|ExecStart=/usr/bin/vigil|' config/vigil-daemon.service >"$root/usr/lib/systemd/user/vigil-daemon.service"
grep -q '^ExecStart=/usr/bin/vigil ' "$root/usr/lib/systemd/user/vigil-daemon.service" ||
    { echo "build-deb: config/vigil-daemon.service's ExecStart is not %h/.local/bin/vigil any more; update this script" >&2; exit 1; }
# The documentation the help texts point to (JSON fields, the date grammar, sync), uncompressed so
# that the paths the help gives open as they are.
for doc in README.md docs/*.md docs/sync-schema.sql; do install -D -m 644 "$doc" "$root/usr/share/doc/vigil/$(basename "$doc")"; done
find "$root" -type f ! -path "*/usr/bin/*" -exec chmod 644 {} +
find "$root" -type d -exec chmod 755 {} +

install -d "$root/DEBIAN"
{
    echo "Package: vigil"
    echo "Version: $version"
    echo "Architecture: $arch"
    echo "Maintainer: ${DEBFULLNAME:-Vigil maintainers} <${DEBEMAIL:-vigil@localhost}>"
    echo "Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)"
    echo "Depends: $(join "${depends[@]}")"
    [ ${#recommends[@]} -eq 0 ] || echo "Recommends: $(join "${recommends[@]}")"
    echo "Suggests: gpsd, pulseaudio | pipewire-pulse"
    echo "Section: utils"
    echo "Priority: optional"
    echo "Description: notice the moment you drift: focus sessions with procrastination detection"
    echo " Vigil watches input activity, microphone loudness and location during a focus"
    echo " session, scores how distracted you are, and logs every episode for statistics;"
    echo " with tasks, habits, reports, reminders (a systemd user service) and sync between"
    echo " your computers through PostgreSQL. It counts, it never records what you type; it"
    echo " measures levels, it never records audio; its log keeps distances, not coordinates."
} >"$root/DEBIAN/control"
mkdir -p "$output"
deb=$output/vigil_${version}_${arch}.deb
dpkg-deb --build --root-owner-group -Z"$compression" "$root" "$deb" >/dev/null
echo "$deb"
