# Sourced by the side-by-side benchmarks (bench-compare.sh, bench-gpsd.sh) from the repository's
# root, with $tmp set: builds `vigil` in release at a base revision, in a git worktree under $tmp
# that they share (so the base is built once), and in this tree. Both are linked the way this tree's
# release is (scripts/build-release.sh), so that a comparison measures the code, not the linking.

# build_base_and_this REV: sets rev (REV, short), old (the base's binary) and new (this tree's).
build_base_and_this() {
    rev=$(git rev-parse --short "$1")
    local worktree=$tmp/vigil-bench-base-$rev
    if [[ ! -d $worktree ]]; then git worktree add --detach "$worktree" "$rev" >/dev/null; fi
    bash scripts/build-release.sh --package-path "$worktree" >/dev/null
    bash scripts/build-release.sh >/dev/null
    old=$(bash scripts/build-release.sh --package-path "$worktree" --show-bin-path)/vigil
    new=$(bash scripts/build-release.sh --show-bin-path)/vigil
}
