# Sourced by the run_*.sh of bench/de/ with their arguments [BUILD_DIR] [REPEAT]:
# sets `here` (this folder), `build` (BUILD_DIR, default build/release),
# `repeat` (REPEAT, default 3) and `out`, the folder under the build where
# they compile their programs (created).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${1:-build/release}
repeat=${2:-3}
out="$build/bench/de"
mkdir -p "$out"
