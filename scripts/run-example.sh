#!/usr/bin/env bash
# The main job: installs what is missing, builds ctde, validates and runs the
# bundled bouncing-ball model (state events located to one tick), leaving its
# results (CSV), event trace (JSON Lines), a plot (PNG) and the model's graph
# (SVG) in out/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh
# Only the command and its library (the tests, benchmarks and Python
# package are the test command's): the first build compiles about 150 files,
# a few minutes on 2 cores; ccache makes the next ones take seconds.
echo "building the ctde command (the first build takes a few minutes)..."
BUILD_TARGETS=ctde_cli scripts/build.sh build/release
mkdir -p out
build/release/ctde validate examples/models/bouncing_ball.json
build/release/ctde run examples/models/bouncing_ball.json -o out/bouncing_ball.csv \
  --trace out/bouncing_ball.jsonl --plot out/bouncing_ball.png
build/release/ctde graph examples/models/bouncing_ball.json -o out/bouncing_ball.svg
echo "results: out/bouncing_ball.csv  trace: out/bouncing_ball.jsonl  plot: out/bouncing_ball.png" \
  " graph: out/bouncing_ball.svg"
echo "impacts (state_event lines of the trace):"
grep '"kind":"state_event"' out/bouncing_ball.jsonl | sed 's/.*"t":\([^,]*\),.*"residual":\([^,]*\),.*/  t = \1 s  (guard residual \2)/'
