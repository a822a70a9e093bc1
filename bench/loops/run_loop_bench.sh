#!/usr/bin/env bash
# The algebraic-loop benchmark (issue 35): a model with loops against the
# same model with the loops removed by hand (make_models.py: N copies of a
# PI-controlled mass-spring-damper whose actuator is y = u - 0.5 y), both run
# as `ctde run` runs them (bench/stiff/stiff_bench.cpp), REPEAT rounds
# interleaved, the best of each; prints the times and their ratio, with the
# fast paths on and off (off: KINSOL at every solve).
# Usage: run_loop_bench.sh [BUILD_DIR] [REPEAT] [SIZES]   (SIZES default "1 20")
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build/release}
repeat=${2:-3}
sizes=${3:-1 20}
models=$(mktemp -d)
trap 'rm -rf "$models"' EXIT
/usr/bin/python3 "$here/make_models.py" "$models" $sizes
best() {  # best wall_s of stiff_bench over its repeats, and the last line's loop-free fields
  "$build/bench/stiff_bench" "$1" "$repeat" | sed -n 's/.*wall_s=\([0-9.e-]*\).*/\1/p'
}
printf '%-6s %-5s %12s %12s %8s\n' N fast loop_s by_hand_s ratio
for n in $sizes; do
  for fast in on off; do
    loop=$(CTDE_FAST_PATHS=$fast best "$models/msd_loop_$n.json")
    hand=$(CTDE_FAST_PATHS=$fast best "$models/msd_by_hand_$n.json")
    printf '%-6s %-5s %12s %12s %8.2f\n' "$n" "$fast" "$loop" "$hand" "$(echo "$loop / $hand" | bc -l)"
  done
done
