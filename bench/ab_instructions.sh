#!/usr/bin/env bash
# Instruction counts (valgrind's cachegrind, no cache simulation) of two
# builds on the benchmark cases: unlike times, they do not depend on what
# else the machine is doing, so they compare builds on a busy machine.
# Usage: ab_instructions.sh BASE_BENCH_DIR BASE_LIB_DIR NEW_BUILD_DIR
set -euo pipefail
base_bench=$1
base_lib=$2
new=$3
cases=(
  "hold_actors 1000 1e6"
  "hold_actors 100000 2e6"
  "ct_bench statespace 10"
  "ct_bench chain1000 1"
  "ball_bench ball1 1 1e-10 1e-12"
  "ball_bench balls100 1 1e-10 1e-12"
  "ball_bench ball1 1 1e-6 1e-9"
)
refs() { grep -o 'I *refs: *[0-9,]*' | tr -d ', ' | cut -d: -f2; }
printf "%-36s %15s %15s %8s\n" case base_Ir new_Ir new/base
for c in "${cases[@]}"; do
  read -r prog args <<<"$c"
  # shellcheck disable=SC2086
  b=$(LD_LIBRARY_PATH=$base_lib valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        "$base_bench/$prog" $args 2>&1 >/dev/null | refs)
  # shellcheck disable=SC2086
  n=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$new/bench/$prog" $args 2>&1 >/dev/null | refs)
  awk -v c="$c" -v b="$b" -v n="$n" 'BEGIN { printf "%-36s %15.0f %15.0f %8.3f\n", c, b, n, n / b }'
done
