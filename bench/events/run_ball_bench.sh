#!/usr/bin/env bash
# The state-event benchmark (issue 5): elastic bouncing balls (ball1: one ball,
# 1000 impacts, and ball1@400, the same ball to impact 400; balls100: 100 balls
# in one model, 1035 impacts) through ctde, written by hand on ARKODE ERKStep
# with its rootfinding, and on scipy's solve_ivp(RK45) with terminal events; Dormand-Prince 5(4) everywhere, at
# rtol 1e-10 atol 1e-12 and at rtol 1e-6 atol 1e-9. The C++ runs are
# interleaved; compare the best of each. ARKODE runs four times: with its
# default dense output (as ctde uses it), with a cubic Hermite one
# (interp_degree=3), with fused vector operations (fused=1), and with fused
# operations and the project's vector operations (impl=arkode_project_ops,
# as ctde's solver wrapper installs them).
# A run that takes longer than TIMEOUT seconds (default 120; every run here
# takes a few seconds at most) is reported as status=timeout and the script
# goes on.
# Usage: run_ball_bench.sh [BUILD_DIR] [REPEAT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build/release}
repeat=${2:-3}
limit=${TIMEOUT:-120}

# run IMPL MODEL RTOL ATOL COMMAND...: one benchmark line, starting with impl=IMPL
run() {
  local impl=$1 model=$2 rtol=$3 atol=$4
  shift 4
  local out status=0
  out=$(timeout "$limit" "$@") || status=$?
  if [[ -n $out ]]; then
    printf '%s\n' "$out" | sed "/^impl=/!s/^/impl=$impl /"
  fi
  if ((status == 124)); then
    echo "impl=$impl model=$model rtol=$rtol atol=$atol status=timeout limit_s=$limit"
  elif ((status != 0)); then
    echo "impl=$impl model=$model rtol=$rtol atol=$atol status=failed exit=$status"
  fi
}

for ((i = 0; i < repeat; i++)); do
  for model in ball1 ball1@400 balls100; do
    for tol in "1e-10 1e-12" "1e-6 1e-9"; do
      read -r rtol atol <<<"$tol"
      run ctde "$model" "$rtol" "$atol" "$build/bench/ball_bench" "$model" 5 "$rtol" "$atol"
      run arkode "$model" "$rtol" "$atol" "$build/bench/handwritten_ball" "$model" 5 "$rtol" "$atol"
      run arkode "$model" "$rtol" "$atol" "$build/bench/handwritten_ball" "$model" 5 "$rtol" "$atol" 3
      FUSED=1 run arkode "$model" "$rtol" "$atol" "$build/bench/handwritten_ball" "$model" 5 "$rtol" "$atol"
      OPS=project FUSED=1 run arkode_project_ops "$model" "$rtol" "$atol" \
        "$build/bench/handwritten_ball" "$model" 5 "$rtol" "$atol"
    done
  done
done
for model in ball1 ball1@400 balls100; do
  /usr/bin/python3 "$here/scipy_balls.py" "$model" 3 | sed 's/^/impl=scipy /'
done
