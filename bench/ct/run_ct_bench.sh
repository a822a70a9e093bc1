#!/usr/bin/env bash
# The CT benchmark: the statespace and chain1000 models through ctde, written
# by hand on ARKODE (same method, erk45 = Dormand-Prince, and tolerances), and
# on scipy's solve_ivp(RK45). Runs are interleaved; compare the best of each.
# The hand-written ARKODE runs twice: as ARKODE comes, and with fused vector
# operations (fused=1), as ctde's solver wrapper enables them.
# Usage: run_ct_bench.sh [BUILD_DIR] [REPEAT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build/release}
repeat=${2:-3}
for ((i = 0; i < repeat; i++)); do
  "$build/bench/ct_bench" statespace 100
  "$build/bench/handwritten_arkode" statespace 100 | sed 's/^/impl=arkode /'
  FUSED=1 "$build/bench/handwritten_arkode" statespace 100 | sed 's/^/impl=arkode /'
  "$build/bench/ct_bench" chain1000 3
  "$build/bench/handwritten_arkode" chain1000 3 | sed 's/^/impl=arkode /'
  FUSED=1 "$build/bench/handwritten_arkode" chain1000 3 | sed 's/^/impl=arkode /'
done
/usr/bin/python3 "$here/scipy_baseline.py" | sed 's/^/impl=scipy /'
