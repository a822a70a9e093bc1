#!/usr/bin/env bash
# Validation benchmark: chains and random DAGs of 1e3, 1e4, 1e5 actors, built
# in C++ and loaded from JSON; one process per size. Usage: run_validate_bench.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build/release}
for path in cpp json; do
  for kind in chain dag; do
    for n in 1000 10000 100000; do
      "$build/bench/validate_bench" "$kind" "$n" "$path"
    done
  done
done
