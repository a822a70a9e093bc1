#!/usr/bin/env bash
# The sweep benchmark (docs/performance.md, "Sweeps"): 1000 short runs of the
# bouncing ball (ball_1000.json: 10 values of e in [0.85, 0.985] x 100 random drop heights,
# 8 s each) with --jobs 1, --jobs 2 and mpirun -np 2, the best of REPEATS
# wall-clock times each; then the per-run cost of a sweep against a single
# `ctde run` of the same model, in instructions (callgrind; robust on a busy
# machine): (sweep of 101 runs - sweep of 1 run) / 100 against
# (ctde run - ctde validate), both with the same stop time.
#   bench/sweep/run_sweep_bench.sh [BUILD_DIR] [REPEATS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/release}
repeats=${2:-3}
ctde=$build/ctde
model=$root/examples/models/bouncing_ball.json
here=$root/bench/sweep
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

best() {  # best() COMMAND...: the shortest wall time of REPEATS runs, in seconds
  local best_time=
  for ((i = 0; i < repeats; ++i)); do
    local start end t
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [[ -z $best_time ]] || (($(echo "$t < $best_time" | bc -l))); then best_time=$t; fi
  done
  printf '%.3f' "$best_time"
}

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
j1=$(best "$ctde" sweep "$model" "$here/ball_1000.json" -o "$out/j1.h5" --jobs 1 --quiet)
j2=$(best "$ctde" sweep "$model" "$here/ball_1000.json" -o "$out/j2.h5" --jobs 2 --quiet)
np2=$(best mpirun --oversubscribe -np 2 "$ctde" sweep "$model" "$here/ball_1000.json" -o "$out/np2.h5" --quiet)
echo "1000 runs: --jobs 1 ${j1} s, --jobs 2 ${j2} s (x$(echo "scale=2; $j1 / $j2" | bc -l)), mpirun -np 2 ${np2} s (x$(echo "scale=2; $j1 / $np2" | bc -l))"

instructions() {  # instructions COMMAND...: instructions executed (callgrind), the children not followed
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" "$@" >/dev/null 2>&1 || true
  grep -E '^summary:' "$out/cg.out" | awk '{print $2}'
}
sweep1=$(instructions "$ctde" sweep "$model" "$here/ball_1.json" -o "$out/s1.h5" --jobs 1 --quiet)
sweep101=$(instructions "$ctde" sweep "$model" "$here/ball_101.json" -o "$out/s101.h5" --jobs 1 --quiet)
run=$(instructions "$ctde" run "$model" --stop-time 8 -o "$out/run.csv" --quiet)
validate=$(instructions "$ctde" validate "$model" --stop-time 8)
per_sweep_run=$(((sweep101 - sweep1) / 100))
per_run=$((run - validate))
echo "per run: sweep ${per_sweep_run} instructions, ctde run ${per_run} (run - validate; CSV results); sweep/run = $(echo "scale=3; $per_sweep_run / $per_run" | bc -l)"
