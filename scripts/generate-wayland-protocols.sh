#!/usr/bin/env bash
# Regenerates the C glue of the Wayland idle protocols in Sources/Adapters/C/CWayland with
# wayland-scanner, from the protocol descriptions Debian packages:
#   ext-idle-notify-v1   wayland-protocols 1.31 (staging/ext-idle-notify/ext-idle-notify-v1.xml), MIT
#   org_kde_kwin_idle    plasma-wayland-protocols 1.10 (idle.xml), LGPL-2.1-or-later
# For each: the client header (requests as static inline functions, listener structs) and the
# private code (the wl_interface tables, hidden from other libraries), plus the XML's copyright
# notice next to them.
#
# Why the output is committed: SwiftPM cannot run wayland-scanner during a build without a build
# plugin, and a plugin for two small files would cost more than it saves. With --check it writes
# to a temporary directory and fails if the committed files differ (scripts/test runs that).
#
# Needs: libwayland-bin (wayland-scanner), wayland-protocols, plasma-wayland-protocols.
set -euo pipefail
cd "$(dirname "$0")/.."

out=Sources/Adapters/C/CWayland
check=false
if [ "${1:-}" = "--check" ]; then
  check=true
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  mkdir -p "$out/include"
fi

# name of the generated files, then the XML.
protocols=(
  "ext-idle-notify-v1 /usr/share/wayland-protocols/staging/ext-idle-notify/ext-idle-notify-v1.xml"
  "kde-idle /usr/share/plasma-wayland-protocols/idle.xml"
)

for p in "${protocols[@]}"; do
  read -r name xml <<<"$p"
  if [ ! -f "$xml" ]; then
    echo "generate-wayland-protocols: $xml is missing; install wayland-protocols and plasma-wayland-protocols" >&2
    exit 1
  fi
  wayland-scanner client-header "$xml" "$out/include/$name-client-protocol.h"
  wayland-scanner private-code "$xml" "$out/$name-protocol.c"
  # The XML's <copyright> block, verbatim (wayland-scanner copies it into both files too).
  {
    echo "The generated $name-client-protocol.h and $name-protocol.c are derived from"
    echo "$xml ($(dpkg-query -W -f='${Package} ${Version}' "$(dpkg-query -S "$xml" | cut -d: -f1)" 2>/dev/null || echo "its package"))."
    echo "That file's copyright notice:"
    echo
    python3 - "$xml" <<'PY'
import sys, textwrap, xml.etree.ElementTree as ET
text = ET.parse(sys.argv[1]).getroot().findtext("copyright") or ""
print(textwrap.dedent(text).strip())
PY
    # An SPDX identifier instead of the text: the licence's full text, as Debian ships it.
    if grep -q "SPDX-License-Identifier: LGPL-2.1" "$xml"; then
      echo
      echo "The GNU Lesser General Public License 2.1 (/usr/share/common-licenses/LGPL-2.1):"
      echo
      cat /usr/share/common-licenses/LGPL-2.1
    fi
  } >"$out/$name.COPYRIGHT"
done

if $check; then
  for f in $(cd "$out" && find . -type f | sort); do
    if ! cmp -s "$out/$f" "Sources/Adapters/C/CWayland/$f"; then
      echo "generate-wayland-protocols: Sources/Adapters/C/CWayland/${f#./} is not what wayland-scanner makes now; run scripts/generate-wayland-protocols.sh" >&2
      exit 1
    fi
  done
  echo "generate-wayland-protocols: the committed protocol glue is up to date"
fi
