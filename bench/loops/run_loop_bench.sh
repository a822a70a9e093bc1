#!/usr/bin/env bash
# The algebraic-loop benchmark (issue 35): a model with loops against the
# same model with the loops removed by hand (make_models.py: N copies of a
# PI-controlled mass-spring-damper whose actuator is y = u - 0.5 y), both run
# as `ctde run` runs them (bench/stiff/stiff_bench.cpp).
#
# Wall time: each model run REPEAT times in one process, the best; prints
# the times and their ratio, with the fast paths on and off (off: KINSOL at
# every solve). Wall time swings with whatever else the machine runs.
#   run_loop_bench.sh [BUILD_DIR] [REPEAT] [SIZES]        (SIZES default "1 20")
#
# Instructions: valgrind's callgrind counts the instructions of the run
# alone (Director::run, not the load), which repeat to the instruction
# whatever else the machine does; the models stop at STOP_TIME (default
# 20 s, a tenth of the wall-time runs, so that N = 20 takes about a minute
# under callgrind). Fast paths on, or as FAST says (FAST="on off").
#   run_loop_bench.sh --instructions [BUILD_DIR] [STOP_TIME] [SIZES]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
instructions=false
if [[ ${1:-} == --instructions ]]; then
  instructions=true
  shift
fi
build=${1:-build/release}
sizes=${3:-1 20}
models=$(mktemp -d)
trap 'rm -rf "$models"' EXIT

best() {  # best wall_s of stiff_bench over its repeats
  "$build/bench/stiff_bench" "$1" "$repeat" | sed -n 's/.*wall_s=\([0-9.e-]*\).*/\1/p'
}
counted() {  # the instructions of the run of model $1
  valgrind --tool=callgrind --toggle-collect='ctde::Director::run()' --callgrind-out-file=/dev/null \
    "$build/bench/stiff_bench" "$1" 1 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

if $instructions; then
  stop=${2:-20}
  /usr/bin/python3 "$here/make_models.py" --stop-time "$stop" "$models" $sizes
  printf '%-6s %-5s %16s %16s %8s\n' N fast loop_ir by_hand_ir ratio
  for n in $sizes; do
    for fast in ${FAST:-on}; do
      loop=$(CTDE_FAST_PATHS=$fast counted "$models/msd_loop_$n.json")
      hand=$(CTDE_FAST_PATHS=$fast counted "$models/msd_by_hand_$n.json")
      printf '%-6s %-5s %16s %16s %8.3f\n' "$n" "$fast" "$loop" "$hand" "$(echo "$loop / $hand" | bc -l)"
    done
  done
  exit 0
fi

repeat=${2:-3}
/usr/bin/python3 "$here/make_models.py" "$models" $sizes
printf '%-6s %-5s %12s %12s %8s\n' N fast loop_s by_hand_s ratio
for n in $sizes; do
  for fast in on off; do
    loop=$(CTDE_FAST_PATHS=$fast best "$models/msd_loop_$n.json")
    hand=$(CTDE_FAST_PATHS=$fast best "$models/msd_by_hand_$n.json")
    printf '%-6s %-5s %12s %12s %8.2f\n' "$n" "$fast" "$loop" "$hand" "$(echo "$loop / $hand" | bc -l)"
  done
done
