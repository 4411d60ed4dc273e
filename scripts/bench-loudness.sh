#!/usr/bin/env bash
# Loudness analyser throughput (issue 3): Vigil's WAVReader + LoudnessMeter against
# `ffmpeg -af ebur128` on the same one-hour WAV, with both integrated loudnesses. See BENCHMARKS.md.
#
# Usage, from anywhere in the repository:
#   scripts/bench-loudness.sh [--mono16k] [RUNS]
#     RUNS       timed runs of each, after a warm-up (default 5)
#     --mono16k  then the same on a 16 kHz mono copy of the hour (sox: channels averaged, resampled)
# Environment:
#   VIGIL_LOUDNESS_WAV=FILE   measure FILE instead (it is then not generated and must exist)
#   TMPDIR                    where the generated WAVs go (default /tmp)
#
# Needs sox, ffmpeg and swift; uses hyperfine for ffmpeg's timing when it is installed
# (apt-get install hyperfine), else times the runs itself with date. Builds the Benchmarks package
# in release and runs its `loudness analyser` benchmark (Benchmarks/Sources/Loudness.swift).
#
# The test file (made once, then reused): 48 kHz, stereo, 16-bit PCM, 3600 s, 691 MB, made by sox
# in repeatable mode (-R: fixed seeds for its noise generators and dither), so every run and every
# machine with sox 14.4.2 gets the same bytes (the sha256 is printed when the file is made). It is a
# 300 s "conversation" repeated 12 times:
#   speech  40 s  pink noise, independent per channel, band-passed to 100 Hz-4 kHz, amplitude-
#                 modulated at 4 Hz (syllables, 100 %) and 0.3 Hz (phrases, 60 %); four such
#                 passages, at about -22, -28, -32 and -22 LUFS,
#   pause   20 s  after each passage: room noise (brown noise, 40 Hz-8 kHz) at about -50 LUFS,
#                 above the -70 LUFS absolute gate but below the relative gate,
#   quiet   60 s  at the end: pink noise at about -89 LUFS, below the absolute gate.
# So both gates of BS.1770 decide what counts.
set -euo pipefail

mono16k=0
if [[ ${1:-} = --mono16k ]]; then
    mono16k=1
    shift
fi
runs=${1:-5}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [--mono16k] [RUNS]" >&2; exit 2; }
cd "$(dirname "$0")/.."
tmp=${TMPDIR:-/tmp}

for tool in sox soxi ffmpeg swift; do
    command -v "$tool" >/dev/null || { echo "bench-loudness: needs $tool" >&2; exit 1; }
done

make_hour() { # make_hour FILE: the one-hour 48 kHz stereo test file described above
    local out=$1 dir
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
    mv "$dir/hour.wav" "$out"
    rm -rf "$dir"
    echo "   made $out, sha256 $(sha256sum "$out" | cut -d' ' -f1)"
}

stats() { # min, median and max of the numbers on stdin
    sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f %.3f %.3f\n", v[1], m, v[NR] }'
}

bench() { # bench FILE: ffmpeg, then Vigil, on FILE; prints the comparison
    local wav=$1
    local duration rate channels frames
    duration=$(soxi -D "$wav")
    rate=$(soxi -r "$wav")
    channels=$(soxi -c "$wav")
    frames=$(soxi -s "$wav")
    echo
    echo "== file: $wav: ${rate} Hz, $channels ch, $(soxi -b "$wav")-bit $(soxi -e "$wav"), $(printf %.1f "$duration") s," \
        "$(($(stat -c %s "$wav") / 1000000)) MB"

    # ffmpeg: integrated loudness from the Summary (0.1 LU) and from the last frame's metadata (0.001)
    local ffmpeg_cmd=(ffmpeg -nostats -hide_banner -i "$wav" -af ebur128 -f null -)
    echo "== ffmpeg: ${ffmpeg_cmd[*]}"
    local log ffmpeg_i ffmpeg_i3
    log=$(mktemp "$tmp/vigil-ffmpeg-XXXXXX.log")
    "${ffmpeg_cmd[@]}" 2>"$log" # untimed: also brings the file into the page cache
    ffmpeg_i=$(awk '/Integrated loudness:/ { s = 1 } s && $1 == "I:" { print $2; exit }' "$log")
    rm -f "$log"
    [[ -n $ffmpeg_i ]] || { echo "bench-loudness: no integrated loudness in ffmpeg's output" >&2; exit 1; }
    # ebur128=metadata=1 puts lavfi.r128.I, to three decimals, on every 100 ms frame; the last frame's
    # is the whole file's. Untimed.
    ffmpeg_i3=$(ffmpeg -nostats -hide_banner -loglevel error -i "$wav" \
        -af "ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.I:file=-" -f null - 2>/dev/null |
        awk -F= '/lavfi.r128.I=/ { v = $2 } END { print v }')
    echo "   integrated: $ffmpeg_i LUFS (Summary), ${ffmpeg_i3:-?} LUFS (last frame's lavfi.r128.I)"

    local ff_min ff_median ff_max
    if command -v hyperfine >/dev/null; then
        local csv
        csv=$(mktemp "$tmp/vigil-hyperfine-XXXXXX.csv")
        hyperfine --style basic --shell=none --runs "$runs" --export-csv "$csv" "$(printf '%q ' "${ffmpeg_cmd[@]}")"
        # command,mean,stddev,median,user,system,min,max
        read -r ff_min ff_median ff_max < <(awk -F, 'NR == 2 { printf "%.3f %.3f %.3f\n", $7, $4, $8 }' "$csv")
        rm -f "$csv"
    else
        echo "   (no hyperfine: $runs runs timed with date)"
        local times=() t0 t1 r
        for ((r = 0; r < runs; r++)); do
            t0=$(date +%s.%N)
            "${ffmpeg_cmd[@]}" 2>/dev/null
            t1=$(date +%s.%N)
            times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')")
        done
        read -r ff_min ff_median ff_max < <(printf '%s\n' "${times[@]}" | stats)
    fi

    # Vigil: the release benchmark, the analyser only, one warm-up iteration
    echo "== vigil: $bin --filter 'loudness analyser'"
    local out vigil_i v_min v_median v_max
    out=$(mktemp "$tmp/vigil-bench-XXXXXX.txt")
    VIGIL_LOUDNESS_WAV=$wav "$bin" --filter 'loudness analyser' --iterations "$runs" --warmup-iterations 1 \
        --time-unit ms --columns name,min,median,max,std --format csv | tee "$out"
    echo
    vigil_i=$(sed -n 's/^loudness result: integrated \([-0-9.]*\) LUFS.*/\1/p' "$out")
    # The CSV row: name,min,median,max,std (ms); the name has commas, so count from the end.
    read -r v_min v_median v_max < <(awk -F, '/^"?loudness analyser/ { printf "%.3f %.3f %.3f\n", $(NF-3) / 1000, $(NF-2) / 1000, $(NF-1) / 1000 }' "$out")
    rm -f "$out"
    [[ -n $vigil_i && -n ${v_median:-} ]] || { echo "bench-loudness: no result from $bin" >&2; exit 1; }

    echo
    echo "== result: $(printf %.1f "$duration") s of audio, $rate Hz x $channels ch = $((frames * channels)) samples;" \
        "$runs timed runs each after a warm-up; seconds"
    awk -v d="$duration" -v n="$((frames * channels))" \
        -v fmin="$ff_min" -v fmed="$ff_median" -v fmax="$ff_max" \
        -v vmin="$v_min" -v vmed="$v_median" -v vmax="$v_max" '
        function row(name, a, b, c) {
            printf "%-31s %7.3f %7.3f %7.3f %9.0f x %11.1f M\n", name, a, b, c, d / b, n / b / 1e6
        }
        BEGIN {
            printf "%-31s %7s %7s %7s %11s %13s\n", "", "min", "median", "max", "real time", "samples/s"
            row("ffmpeg -af ebur128", fmin, fmed, fmax)
            row("vigil WAVReader + LoudnessMeter", vmin, vmed, vmax)
            printf "vigil is %.2fx as fast as ffmpeg at the median (%.2fx at the minimum): %s\n",
                fmed / vmed, fmin / vmin, vmed < fmed ? "faster" : "NOT faster"
        }'
    awk -v f="$ffmpeg_i" -v f3="${ffmpeg_i3:-}" -v v="$vigil_i" 'BEGIN {
        printf "integrated: ffmpeg %s LUFS", f
        if (f3 != "") printf " (%s)", f3
        printf ", vigil %.4f LUFS: difference %+.4f LU", v, v - (f3 != "" ? f3 : f)
        if (f3 != "") printf " (%+.4f LU from the rounded Summary)", v - f
        d = v - (f3 != "" ? f3 : f); if (d < 0) d = -d
        printf "; within 0.1 LU: %s\n", d <= 0.1 ? "yes" : "NO"
    }'
}

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)," \
    "load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "   $(ffmpeg -version | head -1 | cut -d' ' -f1-3), $(swift --version 2>&1 | head -1)," \
    "$(command -v hyperfine >/dev/null && hyperfine --version || echo 'no hyperfine')"

echo "== vigil: swift build -c release --package-path Benchmarks"
swift build -c release --package-path Benchmarks 2>&1 | tail -1
bin=$(swift build -c release --package-path Benchmarks --show-bin-path)/vigil-benchmarks

if [[ -n "${VIGIL_LOUDNESS_WAV:-}" ]]; then
    hour=$VIGIL_LOUDNESS_WAV
    [[ -f $hour ]] || { echo "bench-loudness: $hour does not exist" >&2; exit 1; }
else
    hour=$tmp/vigil-loudness-1h-48k-stereo.wav
    if [[ ! -f $hour ]]; then
        echo "== making $hour (one hour, 48 kHz stereo 16-bit, deterministic)"
        make_hour "$hour"
    fi
fi
bench "$hour"

if [[ $mono16k = 1 ]]; then
    if [[ -n "${VIGIL_LOUDNESS_WAV:-}" ]]; then mono=${hour%.wav}-16k-mono.wav; else mono=$tmp/vigil-loudness-1h-16k-mono.wav; fi
    if [[ ! -f $mono ]]; then
        echo "== making $mono from $hour"
        sox -R "$hour" -r 16000 -c 1 -b 16 "$mono"
        echo "   sha256 $(sha256sum "$mono" | cut -d' ' -f1)"
    fi
    bench "$mono"
fi
