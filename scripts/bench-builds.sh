# Sourced by the side-by-side benchmarks (bench-compare.sh, bench-gpsd.sh) from the repository's
# root, with $tmp set: builds `vigil` in release at a base revision, in a git worktree under $tmp
# that they share (so the base is built once), and in this tree.

# build_base_and_this REV: sets rev (REV, short), old (the base's binary) and new (this tree's).
build_base_and_this() {
    rev=$(git rev-parse --short "$1")
    local worktree=$tmp/vigil-bench-base-$rev
    if [[ ! -d $worktree ]]; then git worktree add --detach "$worktree" "$rev" >/dev/null; fi
    (cd "$worktree" && swift build -c release --product vigil >/dev/null)
    swift build -c release --product vigil >/dev/null
    old=$worktree/.build/release/vigil
    new=$PWD/.build/release/vigil
}
