#!/usr/bin/env bash
# Builds Vigil's release binary the one way it is installed, benchmarked and tested (issue 18).
#
# Usage: scripts/build-release.sh [--product NAME] [--show-bin-path] [other swift build options]
#        (default products: vigil and vigil-sync)
#
# The Swift runtime and Foundation are linked into the binary (--static-swift-stdlib) instead of
# loaded as a dozen shared libraries at every start: a short command starts in about 4 ms less
# (one library lookup and relocation pass fewer per library), and a live session maps only the
# pages of Foundation it touches (about 6 MB less resident). The C libraries (SQLite and the
# sensors', which are opened only when a sensor needs them) stay shared, as the system provides
# them. BENCHMARKS.md, "Start-up".
set -euo pipefail
cd "$(dirname "$0")/.."
products=(vigil vigil-sync)
package=.
previous=
for arg in "$@"; do
    case $arg in --product | --show-bin-path) products=() ;; esac
    [[ $previous == --package-path ]] && package=$arg
    previous=$arg
done
# A tree from before vigil-sync (a benchmark's base) has only vigil.
[[ -d $package/Sources/App/vigil-sync ]] || products=("${products[@]/vigil-sync}")
# --no-export-dynamic: linking the runtime statically exports every symbol of Vigil's own modules
# (15,000) to the dynamic linker, which then searches them for every symbol any library looks up,
# and the runtime's start-up walks them (dladdr); nothing resolves Vigil's symbols at run time.
if [[ ${#products[@]} -eq 0 ]]; then
    exec swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic "$@"
fi
for product in "${products[@]}"; do
    if [[ -n $product ]]; then
        swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --product "$product" "$@"
    fi
done
