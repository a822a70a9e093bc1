#!/usr/bin/env bash
# The sweep benchmark (docs/performance.md, "Sweeps"): 1000 short runs of the
# bouncing ball (ball_1000.json: 10 values of e in [0.85, 0.985] x 100 random drop heights,
# 8 s each) with --jobs 1, --jobs 2 and mpirun -np 2, the best of REPEATS
# wall-clock times each; then the per-run cost of a sweep against a single
# `ctde run` of the same model, in instructions (callgrind; robust on a busy
# machine): (sweep of 101 runs - sweep of 1 run) / 100 against a single
# `ctde run` (CSV and HDF5 results) less the process start (`ctde --version`),
# and, stricter, less loading and checking the model too (`ctde validate`);
# all with the same stop time.
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
launch=$(best mpirun --oversubscribe -np 2 true)  # the launcher's own start-up and tear-down
np2_net=$(echo "$np2 - $launch" | bc -l)
echo "1000 runs: --jobs 1 ${j1} s, --jobs 2 ${j2} s (x$(echo "scale=2; $j1 / $j2" | bc -l)), mpirun -np 2 ${np2} s (x$(echo "scale=2; $j1 / $np2" | bc -l)); mpirun -np 2 true ${launch} s, so the sweep itself $(printf '%.3f' "$np2_net") s (x$(echo "scale=2; $j1 / $np2_net" | bc -l))"

instructions() {  # instructions COMMAND...: instructions executed (callgrind), the children not followed
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" "$@" >/dev/null 2>&1 || true
  grep -E '^summary:' "$out/cg.out" | awk '{print $2}'
}
sweep1=$(instructions "$ctde" sweep "$model" "$here/ball_1.json" -o "$out/s1.h5" --jobs 1 --quiet)
sweep101=$(instructions "$ctde" sweep "$model" "$here/ball_101.json" -o "$out/s101.h5" --jobs 1 --quiet)
run=$(instructions "$ctde" run "$model" --stop-time 8 -o "$out/run.csv" --quiet)
run_h5=$(instructions "$ctde" run "$model" --stop-time 8 -o "$out/run.h5" --quiet)
validate=$(instructions "$ctde" validate "$model" --stop-time 8)
start=$(instructions "$ctde" --version)
per_sweep_run=$(((sweep101 - sweep1) / 100))
echo "per run of a sweep (--jobs 1): ${per_sweep_run} instructions"
# ctde run without the process start (dynamic linking, static initialisation): load, checks, run, results
for results in csv h5; do
  total=$run
  [[ $results == h5 ]] && total=$run_h5
  whole=$((total - start))
  echo "ctde run -o x.$results: ${whole} instructions without the process start (sweep/run = $(echo "scale=3; $per_sweep_run / $whole" | bc -l)); $((total - validate)) without loading and checking the model too (sweep/run = $(echo "scale=3; $per_sweep_run / (${total} - ${validate})" | bc -l))"
done
