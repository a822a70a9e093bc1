#!/usr/bin/env bash
# Issue 21's targets in one go: every program of each comparison runs in the
# same round, REPEAT rounds (default 3) interleaved, then one table of the
# figures, the baselines and the ratios (best of the rounds; the hold's on
# the median, as its target says). The programs and what they print:
#   dp5_floor, ct_bench             the CT floor and ctde (statespace, chain1000)
#   ball_bench, handwritten_ball    balls100 through ctde and by hand on ARKODE
#                                   with the project's vector operations
#                                   (OPS=project FUSED=1); scipy_balls.py once
#   hold_actors, hold_bare_heap     DE hold, N = 1e5, 1e7 events
#   validate_bench                  1e6 actors loaded from JSON and validated
# Usage: run_targets.sh [BUILD_DIR] [REPEAT]   (about a minute a round)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build/release}
repeat=${2:-3}
bin="$build/bench"
mkdir -p "$bin/de"
g++ -std=c++20 -O2 -o "$bin/de/hold_bare_heap" "$here/de/hold_bare_heap.cpp"
lines=$(mktemp)
trap 'rm -f "$lines"' EXIT

for ((i = 0; i < repeat; i++)); do
  echo "round $((i + 1)) of $repeat" >&2
  {
    "$bin/dp5_floor" statespace 100 | sed 's/^/impl=floor /'
    "$bin/ct_bench" statespace 100
    "$bin/dp5_floor" chain1000 3 | sed 's/^/impl=floor /'
    "$bin/ct_bench" chain1000 3
    for tol in "1e-10 1e-12" "1e-6 1e-9"; do
      read -r rtol atol <<<"$tol"
      "$bin/ball_bench" balls100 5 "$rtol" "$atol"
      OPS=project FUSED=1 "$bin/handwritten_ball" balls100 5 "$rtol" "$atol" | sed 's/^/impl=arkode_project_ops /'
    done
    "$bin/hold_actors" 100000 1e7
    "$bin/de/hold_bare_heap" 100000 1e7
    for kind in chain dag; do
      "$bin/validate_bench" "$kind" 1000000 json | sed 's/^/impl=validate /'
    done
  } >>"$lines"
done
/usr/bin/python3 "$here/events/scipy_balls.py" balls100 3 | sed 's/^/impl=scipy /' >>"$lines"

/usr/bin/python3 - "$lines" <<'EOF'
import statistics
import sys

runs = {}  # (impl, model, rtol) -> list of dicts
for line in open(sys.argv[1]):
    fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
    if fields.get("status", "ok") not in ("ok", "stopped"):
        sys.exit(f"a run failed: {line.strip()}")
    key = (fields["impl"], fields.get("model", fields.get("kind", "")), fields.get("rtol", ""))
    runs.setdefault(key, []).append(fields)


def best(impl, model, rtol="", field="wall_s"):
    return min(float(r[field]) for r in runs[(impl, model, rtol)])


rows = []


def row(target, figure, baseline, ratio, met):
    rows.append((target, figure, baseline, ratio, "met" if met else "NOT MET"))


for model in ("statespace", "chain1000"):
    ctde, floor = best("ctde", model), best("floor", model)
    row(f"{model} <= 3x the DP5 floor", f"{ctde * 1e3:.4g} ms", f"floor {floor * 1e3:.4g} ms",
        f"{ctde / floor:.2f}x", ctde <= 3 * floor)
for rtol in ("1e-10", "1e-06"):
    ctde = best("ctde", "balls100", rtol)
    scipy = best("scipy", "balls100", rtol)
    arkode = best("arkode_project_ops", "balls100", rtol)
    row(f"balls100 rtol {rtol} >= 40x faster than scipy", f"{ctde * 1e3:.4g} ms", f"scipy {scipy * 1e3:.4g} ms",
        f"{scipy / ctde:.0f}x faster", scipy >= 40 * ctde)
    row(f"balls100 rtol {rtol} faster than ARKODE by hand (project's ops)", f"{ctde * 1e3:.4g} ms",
        f"ARKODE {arkode * 1e3:.4g} ms", f"{arkode / ctde:.2f}x faster", ctde < arkode)
ctde = statistics.median(float(r["seconds"]) for r in runs[("ctde", "", "")])
bare = statistics.median(float(r["seconds"]) for r in runs[("bare_heap", "", "")])
row("hold N=1e5 <= 1.25x the bare heap loop (median)", f"{ctde:.3f} s", f"bare loop {bare:.3f} s",
    f"{ctde / bare:.2f}x", ctde <= 1.25 * bare)
for kind in ("chain", "dag"):
    rs = runs[("validate", kind, "")]
    total = min(float(r["build_s"]) + float(r["validate_s"]) for r in rs)
    rss = max(float(r["peak_rss_mb"]) for r in rs)
    row(f"1e6 actors ({kind}) load+validate < 5 s and < 1e9 B", f"{total:.2f} s, {rss:.0f} MiB",
        "5 s, 953.7 MiB", f"{total / 5:.2f}, {rss / 953.7:.2f} of the limits", total < 5 and rss < 953.7)

widths = [max(len(r[i]) for r in rows) for i in range(5)]
for r in [("target", "ctde", "baseline", "ratio", "")] + rows:
    print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
EOF
