#!/usr/bin/env bash
# The main job: installs what is missing, builds ctde, and validates the
# bundled bouncing-ball model, printing its resolved time modes, port widths
# and evaluation schedule. (Running it, with results, trace and plot, comes
# with the continuous-time director.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh
scripts/build.sh build/release
build/release/ctde validate examples/models/bouncing_ball.json
