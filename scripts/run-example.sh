#!/usr/bin/env bash
# The main job: installs what is missing, builds ctde, validates the bundled
# models, and runs the sampled-data PI example, leaving its results (CSV),
# event trace (JSON Lines) and a plot (PNG) in out/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh
scripts/build.sh build/release
mkdir -p out
build/release/ctde validate examples/models/bouncing_ball.json
build/release/ctde run examples/models/sampled_pi.json -o out/sampled_pi.csv --trace out/sampled_pi.jsonl
/usr/bin/python3 scripts/plot_results.py out/sampled_pi.csv out/sampled_pi.png
echo "results: out/sampled_pi.csv  trace: out/sampled_pi.jsonl  plot: out/sampled_pi.png"
