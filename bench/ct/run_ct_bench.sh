#!/usr/bin/env bash
# The CT benchmark: the statespace and chain1000 models through ctde, written
# by hand on ARKODE (same method, erk45 = Dormand-Prince, and tolerances), and
# on scipy's solve_ivp(RK45), beside the floor (dp5_floor: a Dormand-Prince
# loop written here, taking ctde's very steps). Runs are interleaved; compare
# the best of each. The hand-written ARKODE runs three times: as Debian ships
# it, with fused vector operations (fused=1), and with fused operations and
# the project's vector operations (OPS=project), as ctde's solver wrapper
# installs them. Issue 21's targets, with their ratios: bench/run_targets.sh.
# Usage: run_ct_bench.sh [BUILD_DIR] [REPEAT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build/release}
repeat=${2:-3}
for ((i = 0; i < repeat; i++)); do
  "$build/bench/dp5_floor" statespace 100 | sed 's/^/impl=floor /'
  "$build/bench/ct_bench" statespace 100
  "$build/bench/handwritten_arkode" statespace 100 | sed 's/^/impl=arkode /'
  FUSED=1 "$build/bench/handwritten_arkode" statespace 100 | sed 's/^/impl=arkode /'
  OPS=project FUSED=1 "$build/bench/handwritten_arkode" statespace 100 | sed 's/^/impl=arkode ops=project /'
  "$build/bench/dp5_floor" chain1000 3 | sed 's/^/impl=floor /'
  "$build/bench/ct_bench" chain1000 3
  "$build/bench/handwritten_arkode" chain1000 3 | sed 's/^/impl=arkode /'
  FUSED=1 "$build/bench/handwritten_arkode" chain1000 3 | sed 's/^/impl=arkode /'
  OPS=project FUSED=1 "$build/bench/handwritten_arkode" chain1000 3 | sed 's/^/impl=arkode ops=project /'
done
/usr/bin/python3 "$here/scipy_baseline.py" | sed 's/^/impl=scipy /'
