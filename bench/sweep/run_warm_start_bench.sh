#!/usr/bin/env bash
# The warm-start benchmark (docs/performance.md, "Sweeps", "From a warm start"):
# 100 variants of bench/sweep/thermostat_step.json (the thermostat of
# examples/models/thermostat.json heated for 2000 s, its upper threshold
# stepped from 22 to T_high2 at 1800.5 s), T_high2 drawn uniform in [21, 25]:
# the sweep run whole (thermostat_100.json) and from a warm start at 1800 s,
# 90 % of each run (thermostat_100_warm.json). With --jobs 1 and --jobs 2, in
# turns (whole, warm, whole, warm...) so that both see the same machine, the
# best of REPEATS wall-clock times each, end to end (process start, checks,
# the warm-up, the runs, the file). Then the warm-up alone (`ctde run
# --stop-time 1800`), the files' sizes, and how far the two files' runs are
# apart after the warm start (the warm runs restart the solver at 1800 s, as
# a time event there would: docs/snapshots.md; compared on the 1 s output
# rows).
#   bench/sweep/run_warm_start_bench.sh [BUILD_DIR] [REPEATS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/release}
repeats=${2:-3}
ctde=$build/ctde
here=$root/bench/sweep
model=$here/thermostat_step.json
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

seconds() {  # seconds COMMAND...: its wall time, s
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}

declare -A best
for ((i = 0; i < repeats; ++i)); do
  for jobs in 1 2; do
    for kind in whole warm; do
      spec=$here/thermostat_100.json
      [[ $kind == warm ]] && spec=$here/thermostat_100_warm.json
      t=$(seconds "$ctde" sweep "$model" "$spec" -o "$out/$kind.h5" --jobs "$jobs" --quiet)
      key=$kind$jobs
      if [[ -z ${best[$key]:-} ]] || (($(echo "$t < ${best[$key]}" | bc -l))); then best[$key]=$t; fi
    done
  done
done
for jobs in 1 2; do
  printf '100 runs, --jobs %s: whole %.3f s, from a warm start at 90 %% %.3f s: x%.2f\n' "$jobs" \
    "${best[whole$jobs]}" "${best[warm$jobs]}" "$(echo "${best[whole$jobs]} / ${best[warm$jobs]}" | bc -l)"
done
warm_up=$(seconds "$ctde" run "$model" --stop-time 1800 -o "$out/warm_up.h5" --quiet)
one=$(seconds "$ctde" run "$model" -o "$out/one.h5" --quiet)
printf 'one run whole (ctde run, process start included): %.3f s; the warm-up alone (--stop-time 1800): %.3f s\n' \
  "$one" "$warm_up"
size() { du -h "$1" | cut -f1; }
echo "files: whole $(size "$out/whole.h5"), warm $(size "$out/warm.h5") (the rows after 1800 s only)"
/usr/bin/python3 - "$out/whole.h5" "$out/warm.h5" <<'PY'
import sys

import h5py
import numpy as np

worst = 0.0
with h5py.File(sys.argv[1], "r") as whole, h5py.File(sys.argv[2], "r") as warm:
    for k in whole["runs"]:
        a, b = whole["runs"][k], warm["runs"][k]
        assert a.attrs["T_high2"] == b.attrs["T_high2"]
        ta, tb = a["time"][()], b["time"][()]
        grid = np.intersect1d(ta[(ta > 1800) & (ta == np.round(ta))], tb[tb == np.round(tb)])
        pick = lambda t, run: run["room.T"][()][np.searchsorted(t, grid)]
        worst = max(worst, float(np.max(np.abs(pick(ta, a) - pick(tb, b)))))
print(f"largest difference of room.T on the output rows after 1800 s, whole against warm: {worst:.3g} K")
PY
