#!/usr/bin/env bash
# Builds Vigil in release and installs it for you (no root needed): the binary, a manual page per
# command and shell completions for bash, zsh and fish, all generated from the command
# definitions (swift-argument-parser), so they always match the binary.
#
# Usage: scripts/install.sh [--daemon]
#   --daemon   also install and start the reminder daemon as a systemd user service
# Environment: PREFIX (default ~/.local): the binary goes to $PREFIX/bin, manual pages to
# $PREFIX/share/man/man1, bash and zsh completions under $PREFIX/share; fish completions to
# ${XDG_CONFIG_HOME:-~/.config}/fish/completions.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${PREFIX:-$HOME/.local}
bash scripts/setup.sh
echo "install: building vigil in release (a few minutes the first time)"
bash scripts/build-release.sh 2>&1 | grep -E "error|Build complete" || true
bash scripts/build-release.sh --product generate-manual 2>&1 | grep -E "error|Build complete" || true
bin=$(bash scripts/build-release.sh --show-bin-path)
vigil=$bin/vigil
[ -x "$vigil" ] || { echo "install: the build failed; run 'scripts/build-release.sh' to see why" >&2; exit 1; }

install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" "$prefix/share/zsh/site-functions"
install -m 755 "$vigil" "$prefix/bin/vigil"
# vigil sync's worker, next to vigil where vigil looks for it.
install -m 755 "$bin/vigil-sync" "$prefix/bin/vigil-sync"
rm -f "$prefix"/share/man/man1/vigil.*1 "$prefix/share/man/man1/vigil.1"
"$bin/generate-manual" "$vigil" --multi-page --output-directory "$prefix/share/man/man1"
"$vigil" --generate-completion-script bash > "$prefix/share/bash-completion/completions/vigil"
"$vigil" --generate-completion-script zsh > "$prefix/share/zsh/site-functions/_vigil"
fish_dir=${XDG_CONFIG_HOME:-$HOME/.config}/fish/completions
install -d "$fish_dir"
"$vigil" --generate-completion-script fish > "$fish_dir/vigil.fish"
echo "install: vigil in $prefix/bin, $(ls "$prefix/share/man/man1" | grep -c '^vigil') manual pages in $prefix/share/man/man1"
echo "install: completions: bash ($prefix/share/bash-completion/completions/vigil), zsh (_vigil), fish ($fish_dir/vigil.fish)"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "install: add $prefix/bin to your PATH (e.g. in ~/.profile)";; esac
echo "install: zsh needs its directory in fpath: add 'fpath=($prefix/share/zsh/site-functions \$fpath)' before compinit in ~/.zshrc"

if [ "${1:-}" = "--daemon" ]; then
  unit_dir=${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user
  install -d "$unit_dir"
  sed "s|%h/.local/bin/vigil|$prefix/bin/vigil|" config/vigil-daemon.service > "$unit_dir/vigil-daemon.service"
  systemctl --user daemon-reload
  systemctl --user enable --now vigil-daemon.service
  echo "install: the reminder daemon runs as vigil-daemon.service (journalctl --user -u vigil-daemon)"
fi
