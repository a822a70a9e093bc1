#!/usr/bin/env bash
# The exported ball FMU against the native run (bench/fmi/export_ball_bench.cpp):
#   bench/fmi/run_export_bench.sh [BUILD_DIR] [step] [repeats]
set -euo pipefail
build=${1:-build/release}
step=${2:-1e-3}
repeats=${3:-5}
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/ctde" export "$here/examples/models/bouncing_ball.json" -o "$work/ball.fmu" >/dev/null
"$build/bench/export_ball_bench" "$work/ball.fmu" "$step" "$repeats"
