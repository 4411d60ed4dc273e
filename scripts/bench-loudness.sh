#!/usr/bin/env bash
# Loudness analyser throughput (issue 3): Vigil's WAVReader + LoudnessMeter against
# `ffmpeg -af ebur128` on the same one-hour WAV, with both integrated loudnesses. See BENCHMARKS.md.
#
# Usage, from anywhere in the repository:
#   scripts/bench-loudness.sh [RUNS]       RUNS timed runs of each, after one warm-up (default 5)
# Environment:
#   VIGIL_LOUDNESS_WAV=FILE   measure FILE instead (it is then not generated; must exist)
#   TMPDIR                    where the generated WAV goes (default /tmp)
#
# Needs sox and ffmpeg; uses hyperfine for ffmpeg's timing when it is installed (apt-get install
# hyperfine), else times the runs itself. Builds the Benchmarks package in release.
#
# The test file (made once, then reused): 48 kHz, stereo, 16-bit PCM, 3600 s, 691 MB, made by sox
# in repeatable mode (-R: fixed seeds for its noise and dither), so every run gets the same bytes.
# It is a 300 s "conversation" repeated 12 times:
#   speech  40 s  pink noise, independent per channel, band-passed to 100 Hz-4 kHz, amplitude-
#                 modulated at 4 Hz (syllables, 100 %) and 0.3 Hz (phrases, 60 %), 4 such
#                 passages at about -22, -28, -32 and -22 LUFS,
#   pause   20 s  after each passage: room noise (brown noise, 40 Hz-8 kHz) at about -50 LUFS,
#                 above the -70 LUFS absolute gate but below the relative gate,
#   quiet   60 s  at the end: pink noise about -100 LUFS, below the absolute gate.
# So both gates of BS.1770 decide what counts.
set -euo pipefail

runs=${1:-5}
cd "$(dirname "$0")/.."
root=$(pwd)
tmp=${TMPDIR:-/tmp}
generated=0
if [[ -n "${VIGIL_LOUDNESS_WAV:-}" ]]; then
    wav=$VIGIL_LOUDNESS_WAV
    [[ -f $wav ]] || { echo "bench-loudness: $wav does not exist" >&2; exit 1; }
else
    wav=$tmp/vigil-loudness-1h-48k-stereo.wav
fi

for tool in sox ffmpeg swift; do
    command -v "$tool" >/dev/null || { echo "bench-loudness: needs $tool" >&2; exit 1; }
done

make_wav() {
    local dir
    dir=$(mktemp -d "$tmp/vigil-loudness-XXXXXX")
    local fmt=(-r 48000 -c 2 -b 16)
    local speech="pinknoise pinknoise sinc 100-4000 tremolo 4 100 tremolo 0.3 60"
    # shellcheck disable=SC2086 # $speech is a list of sox words
    {
        sox -R -n "${fmt[@]}" "$dir/s1.wav" synth 40 $speech gain -n -6
        sox -R -n "${fmt[@]}" "$dir/s2.wav" synth 40 $speech gain -n -12
        sox -R -n "${fmt[@]}" "$dir/s3.wav" synth 40 $speech gain -n -16
        sox -R -n "${fmt[@]}" "$dir/pause.wav" synth 20 brownnoise brownnoise sinc 40-8000 gain -n -40
        sox -R -n "${fmt[@]}" "$dir/quiet.wav" synth 60 pinknoise pinknoise gain -n -90
    }
    sox -R "$dir/s1.wav" "$dir/pause.wav" "$dir/s2.wav" "$dir/pause.wav" "$dir/s3.wav" "$dir/pause.wav" \
        "$dir/s1.wav" "$dir/pause.wav" "$dir/quiet.wav" "$dir/unit.wav"
    sox -R "$dir/unit.wav" "$dir/hour.wav" repeat 11
    mv "$dir/hour.wav" "$wav"
    rm -rf "$dir"
}

if [[ ! -f $wav ]]; then
    echo "== making $wav (one hour, 48 kHz stereo 16-bit, deterministic)"
    time make_wav
    generated=1
fi
duration=$(soxi -D "$wav")
rate=$(soxi -r "$wav")
channels=$(soxi -c "$wav")
samples=$(soxi -s "$wav")
echo "== file: $wav: $(soxi -t "$wav") ${rate} Hz, $channels ch, $(soxi -b "$wav")-bit, ${duration} s, $(($(stat -c %s "$wav") / 1000000)) MB"
if [[ $generated = 1 || -n "${BENCH_LOUDNESS_SHA:-}" ]]; then
    echo "   sha256 $(sha256sum "$wav" | cut -d' ' -f1)"
fi

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
echo "   $(ffmpeg -version | head -1 | cut -d' ' -f1-3), $(swift --version 2>&1 | head -1)"

# --- ffmpeg: integrated loudness (the Summary's I, to 0.1 LU; and the last frame's metadata, 0.001) --
ffmpeg_cmd=(ffmpeg -nostats -hide_banner -i "$wav" -af ebur128 -f null -)
echo "== ffmpeg: ${ffmpeg_cmd[*]}"
ffmpeg_log=$(mktemp "$tmp/vigil-ffmpeg-XXXXXX.log")
"${ffmpeg_cmd[@]}" 2>"$ffmpeg_log"   # also the warm-up run: the file is in the page cache afterwards
ffmpeg_i=$(awk '/Integrated loudness:/ { s = 1 } s && $1 == "I:" { print $2; exit }' "$ffmpeg_log")
rm -f "$ffmpeg_log"
[[ -n $ffmpeg_i ]] || { echo "bench-loudness: no integrated loudness in ffmpeg's output" >&2; exit 1; }
# ebur128 with metadata=1 puts lavfi.r128.I on every frame with three decimals; the last is the
# whole file's. An untimed run.
ffmpeg_i3=$(ffmpeg -nostats -hide_banner -loglevel error -i "$wav" \
    -af "ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.I:file=-" -f null - 2>/dev/null |
    awk -F= '/lavfi.r128.I=/ { v = $2 } END { print v }')
echo "   integrated: $ffmpeg_i LUFS (Summary), ${ffmpeg_i3:-?} LUFS (last frame's lavfi.r128.I)"

stats() { # prints "min median max" of the numbers on stdin (seconds)
    sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f %.3f %.3f\n", v[1], m, v[NR] }'
}

if command -v hyperfine >/dev/null; then
    csv=$(mktemp "$tmp/vigil-hyperfine-XXXXXX.csv")
    hyperfine --style basic --shell=none --runs "$runs" --export-csv "$csv" \
        "$(printf '%q ' "${ffmpeg_cmd[@]}")"
    # command,mean,stddev,median,user,system,min,max
    read -r ff_min ff_median ff_max < <(awk -F, 'NR == 2 { printf "%.3f %.3f %.3f\n", $7, $4, $8 }' "$csv")
    rm -f "$csv"
else
    echo "   (no hyperfine: timing $runs runs with date)"
    times=()
    for ((r = 0; r < runs; r++)); do
        t0=$(date +%s.%N)
        "${ffmpeg_cmd[@]}" 2>/dev/null
        t1=$(date +%s.%N)
        times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')")
    done
    read -r ff_min ff_median ff_max < <(printf '%s\n' "${times[@]}" | stats)
fi

# --- Vigil: the release benchmark, only the analyser ----------------------------------------------
echo "== vigil: swift build -c release --package-path Benchmarks"
swift build -c release --package-path Benchmarks 2>&1 | tail -1
bin=$(swift build -c release --package-path Benchmarks --show-bin-path)/vigil-benchmarks
out=$(mktemp "$tmp/vigil-bench-XXXXXX.txt")
VIGIL_LOUDNESS_WAV=$wav "$bin" --filter 'loudness analyser' --iterations "$runs" --warmup-iterations 1 \
    --time-unit ms --columns name,min,median,max,std --format csv | tee "$out"
vigil_i=$(sed -n 's/^loudness result: integrated \([-0-9.]*\) LUFS.*/\1/p' "$out")
# The CSV row: name,min,median,max,std in ms; the name has commas, so count from the end.
read -r v_min v_median v_max < <(awk -F, '/^"?loudness analyser/ { printf "%.3f %.3f %.3f\n", $(NF-3) / 1000, $(NF-2) / 1000, $(NF-1) / 1000 }' "$out")
rm -f "$out"
[[ -n $vigil_i && -n ${v_median:-} ]] || { echo "bench-loudness: no result from $bin" >&2; exit 1; }

# --- summary -------------------------------------------------------------------------------------
echo
echo "== ${duration} s of audio ($samples frames x $channels ch), $runs timed runs each after a warm-up"
awk -v d="$duration" -v n="$((samples * channels))" \
    -v fmin="$ff_min" -v fmed="$ff_median" -v fmax="$ff_max" \
    -v vmin="$v_min" -v vmed="$v_median" -v vmax="$v_max" '
    function row(name, a, b, c) {
        printf "%-30s %8.3f %8.3f %8.3f   %7.1f x real time   %6.1f M samples/s\n", name, a, b, c, d / b, n / b / 1e6
    }
    BEGIN {
        printf "%-30s %8s %8s %8s   (throughput at the median)\n", "", "min s", "median s", "max s"
        row("ffmpeg -af ebur128", fmin, fmed, fmax)
        row("vigil WAVReader+LoudnessMeter", vmin, vmed, vmax)
        printf "vigil / ffmpeg, median: %.2fx the speed\n", fmed / vmed
    }'
awk -v f="$ffmpeg_i" -v f3="${ffmpeg_i3:-}" -v v="$vigil_i" 'BEGIN {
    printf "integrated: ffmpeg %s LUFS", f
    if (f3 != "") printf " (%s)", f3
    printf ", vigil %.4f LUFS: difference %+.3f LU against the Summary", v, v - f
    if (f3 != "") printf ", %+.4f LU against lavfi.r128.I", v - f3
    d = v - (f3 != "" ? f3 : f); if (d < 0) d = -d
    printf "\nwithin 0.1 LU: %s\n", d <= 0.1 ? "yes" : "NO"
}'
