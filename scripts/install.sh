#!/usr/bin/env bash
# Installs Vigil for you (no root needed): vigil and vigil-sync, a manual page per command
# (vigil-report(1), vigil-task-add(1)...) and vigil.yaml(5), completions for bash, zsh and fish,
# the documented default config, and on GNOME Vigil's Shell extension (`vigil desktop install`). The pages and completions are generated from the binary, so
# they match it. Every file installed is listed in a manifest, and --uninstall removes exactly those.
#
# Usage: scripts/install.sh [--daemon] [--bin DIR] [--no-packages]
#        scripts/install.sh --uninstall
#   --daemon       also install and start the reminder daemon as a systemd user service
#   --bin DIR      install the vigil and vigil-sync already built in DIR instead of building
#   --no-packages  install no system packages (you have the libraries: scripts/setup.sh --runtime)
#   --uninstall    remove what the last install put there; your config and data stay
# Without --bin it builds in release (scripts/build-release.sh), after installing what building
# needs (scripts/setup.sh; with --bin only the runtime libraries, setup.sh --runtime). A failed
# build stops here: nothing is installed.
# Environment: PREFIX (default ~/.local): the binaries go to $PREFIX/bin, manual pages to
# $PREFIX/share/man, bash and zsh completions under $PREFIX/share, the default config and the
# manifest to $PREFIX/share/doc/vigil; fish completions to ${XDG_CONFIG_HOME:-~/.config}/fish/completions.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${PREFIX:-$HOME/.local}
config_home=${XDG_CONFIG_HOME:-$HOME/.config}
doc_dir=$prefix/share/doc/vigil
manifest=$doc_dir/install-manifest
unit=$config_home/systemd/user/vigil-daemon.service

daemon=false bin="" packages=true uninstall=false
while [ $# -gt 0 ]; do
    case $1 in
        --daemon) daemon=true ;;
        --bin) bin=${2:?--bin needs a directory}; shift ;;
        --no-packages) packages=false ;;
        --uninstall) uninstall=true ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "install: unknown option $1 (see scripts/install.sh --help)" >&2; exit 64 ;;
    esac
    shift
done

# Removes the files a manifest lists (and the manifest), then the directories that this left
# empty, up to the prefix; a directory with anything else in it stays.
remove_installed() {
    local file
    [ -f "$manifest" ] || return 0
    while IFS= read -r file; do
        [ -n "$file" ] || continue
        rm -f -- "$file"
        prune "$(dirname -- "$file")"
    done <"$manifest"
    rm -f -- "$manifest"
    prune "$doc_dir"
}
prune() { # DIR: removes it and its parents while they are empty (or already gone), up to the prefix
    local dir=$1
    while [ "$dir" != "$prefix" ] && [ "$dir" != "$config_home" ] && [ "$dir" != / ] && { [ ! -e "$dir" ] || rmdir -- "$dir" 2>/dev/null; }; do
        dir=$(dirname -- "$dir")
    done
}

if $uninstall; then
    [ -f "$manifest" ] || { echo "install: nothing to remove: no $manifest (was Vigil installed with PREFIX=$prefix?)" >&2; exit 1; }
    had_unit=false
    if grep -qxF "$unit" "$manifest"; then had_unit=true; fi
    if $had_unit && command -v systemctl >/dev/null; then systemctl --user disable --now vigil-daemon.service || true; fi
    count=$(grep -c . "$manifest")
    # The GNOME Shell extension: disabled in GNOME's settings too, by the vigil that installed it.
    if grep -qF "/gnome-shell/extensions/vigil@vigil.dev/" "$manifest" && [ -x "$prefix/bin/vigil" ]; then
        "$prefix/bin/vigil" desktop uninstall | sed 's/^/install: /' || true
    fi
    remove_installed
    if $had_unit && command -v systemctl >/dev/null; then systemctl --user daemon-reload || true; fi
    echo "install: removed the $count files Vigil installed under $prefix; your config ($config_home/vigil) and data (${XDG_DATA_HOME:-$HOME/.local/share}/vigil) are still there"
    exit 0
fi

if [ -z "$bin" ]; then
    if $packages; then bash scripts/setup.sh; fi
    echo "install: building vigil in release (a few minutes the first time)"
    bash scripts/build-release.sh
    bin=$(bash scripts/build-release.sh --show-bin-path)
else
    if $packages; then bash scripts/setup.sh --runtime; fi
fi
for program in vigil vigil-sync; do
    [ -x "$bin/$program" ] || { echo "install: no $bin/$program; build it first (scripts/build-release.sh)" >&2; exit 1; }
done
vigil=$bin/vigil
"$vigil" --version >/dev/null

# Everything is made in a scratch directory first: a failure there installs nothing.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
python3 scripts/generate-manuals.py --vigil "$vigil" --output "$stage/man" --config-doc "$doc_dir/vigil.yaml" >/dev/null
"$vigil" --generate-completion-script bash >"$stage/vigil.bash"
"$vigil" --generate-completion-script zsh >"$stage/_vigil"
"$vigil" --generate-completion-script fish >"$stage/vigil.fish"

# The daemon's unit, once installed, stays installed (with this install's paths) until --uninstall.
restart=false
if ! $daemon && [ -f "$manifest" ] && grep -qxF "$unit" "$manifest"; then daemon=true restart=true; fi
# A new install replaces the last one: files it had that this one has not (a command's page) go.
remove_installed
# The pages generate-manual wrote before there was a manifest (vigil.report.1).
rm -f "$prefix"/share/man/man1/vigil.*.1
installed=()
put() { # MODE SOURCE TARGET
    install -D -m "$1" "$2" "$3"
    installed+=("$3")
}
put 755 "$vigil" "$prefix/bin/vigil"
# vigil sync's worker, next to vigil where vigil looks for it.
put 755 "$bin/vigil-sync" "$prefix/bin/vigil-sync"
for page in "$stage"/man/man*/*; do
    put 644 "$page" "$prefix/share/man/$(basename "$(dirname "$page")")/$(basename "$page")"
done
put 644 "$stage/vigil.bash" "$prefix/share/bash-completion/completions/vigil"
put 644 "$stage/_vigil" "$prefix/share/zsh/site-functions/_vigil"
put 644 "$stage/vigil.fish" "$config_home/fish/completions/vigil.fish"
put 644 config/vigil.yaml "$doc_dir/vigil.yaml"
# The documentation the help texts point to (JSON fields, the date grammar, sync), beside it.
for doc in README.md docs/*.md docs/sync-schema.sql; do put 644 "$doc" "$doc_dir/$(basename "$doc")"; done
if $daemon; then
    sed "s|%h/.local/bin/vigil|$prefix/bin/vigil|" config/vigil-daemon.service >"$stage/vigil-daemon.service"
    put 644 "$stage/vigil-daemon.service" "$unit"
fi
# GNOME Shell shows no other program the window in front on Wayland: Vigil's extension does
# (`vigil desktop install`: the flavour for this GNOME Shell, enabled in its settings).
if command -v gnome-shell >/dev/null; then
    "$prefix/bin/vigil" desktop install | sed 's/^/install: /'
    extension=${XDG_DATA_HOME:-$HOME/.local/share}/gnome-shell/extensions/vigil@vigil.dev
    installed+=("$extension/extension.js" "$extension/metadata.json")
fi
printf '%s\n' "${installed[@]}" >"$manifest"

pages=$(grep -c '/share/man/' "$manifest")
echo "install: vigil and vigil-sync in $prefix/bin, $pages manual pages in $prefix/share/man (man vigil, man vigil-report, man vigil.yaml)"
echo "install: completions: bash ($prefix/share/bash-completion/completions/vigil), zsh (_vigil), fish ($config_home/fish/completions/vigil.fish)"
echo "install: every config key with its default: $doc_dir/vigil.yaml; scripts/install.sh --uninstall removes what was installed (listed in $manifest)"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "install: add $prefix/bin to your PATH (e.g. in ~/.profile)" ;; esac
echo "install: zsh needs its directory in fpath: add 'fpath=($prefix/share/zsh/site-functions \$fpath)' before compinit in ~/.zshrc"

if $restart; then
    systemctl --user daemon-reload
    systemctl --user try-restart vigil-daemon.service
    echo "install: vigil-daemon.service stays installed and runs the new vigil (--uninstall removes it)"
elif $daemon; then
    systemctl --user daemon-reload
    systemctl --user enable --now vigil-daemon.service
    echo "install: the reminder daemon runs as vigil-daemon.service (journalctl --user -u vigil-daemon)"
fi
