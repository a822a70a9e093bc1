#!/usr/bin/env bash
# The stiff benchmark (issue 30) in one go: every program of each comparison
# runs in the same round, REPEAT rounds (default 3) interleaved, then one
# table of the best figures, the baselines and the ratios. The programs:
#   cvode_klu_floor   the floor: CVODE BDF + KLU with the exact sparse
#                     Jacobian, written by hand (Debian's -O0 SUNDIALS)
#   scipy_bdf.py      scipy's solve_ivp BDF with the sparse Jacobian given
#   stiff_bench       ctde: a model file run as `ctde run` runs it, the run
#                     timed alone (make_models.py writes the files)
# Models: the heat equation (t in [0, 1], rtol 1e-6, atol 1e-9) as an actor
# network at N = 1e3, 1e4, 1e5 and as one StateSpace at n = 1000;
# a dense stiff StateSpace (n = 300, ctde alone); Robertson (rtol 1e-8,
# per-species atol, to t = 4e10); the stiff thermal
# rooms with thermostats (N = 100) with bdf, auto and erk45.
# Usage: run_stiff_bench.sh [BUILD_DIR] [REPEAT] [SIZES]   (SIZES default "1000 10000 100000")
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build/release}
repeat=${2:-3}
sizes=${3:-1000 10000 100000}
bin="$build/bench"
models=$(mktemp -d)
lines=$(mktemp)
trap 'rm -rf "$models" "$lines"' EXIT

# scipy with the OpenBLAS settings of this workplace unset (they slow a
# current numpy; the environment's notes), each call the best of a few runs
# (its first is slower), one at N = 1e5.
scipy() { env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 "$here/scipy_bdf.py" "$@"; }

/usr/bin/python3 "$here/make_models.py" "$models" --heat "${sizes// /,}" --statespace 1000 --dense 300 --rooms 100 >&2

for ((i = 0; i < repeat; i++)); do
  echo "round $((i + 1)) of $repeat" >&2
  {
    for n in $sizes; do
      "$bin/cvode_klu_floor" heat "$n" 1 | sed 's/^/impl=floor /'
      scipy heat "$n" "$((n >= 100000 ? 1 : 3))" | sed 's/^/impl=scipy /'
      "$bin/stiff_bench" "$models/heat_network_$n.json" 1
    done
    "$bin/stiff_bench" "$models/heat_statespace_1000.json" 1
    "$bin/stiff_bench" "$models/dense_statespace_300.json" 1
    "$bin/cvode_klu_floor" robertson 1 | sed 's/^/impl=floor /'
    scipy robertson 3 | sed 's/^/impl=scipy /'
    "$bin/stiff_bench" "$models/robertson.json" 1
    for solver in bdf auto erk45; do
      "$bin/stiff_bench" "$models/thermal_rooms_100.json" 1 "$solver" || true
    done
  } >>"$lines"
done

/usr/bin/python3 - "$lines" "$sizes" <<'EOF'
import sys

lines, sizes = sys.argv[1], [int(n) for n in sys.argv[2].split()]
best = {}  # (impl, model, n, solver) -> the line's fields of the fastest run
for line in open(lines):
    fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
    model = fields["model"].split("_")[0] if fields["model"].startswith("heat") else fields["model"]
    if fields["model"].startswith("heat_statespace"):
        model = "heat_statespace"
    elif fields["model"].startswith("dense_statespace"):
        model = "dense_statespace"
    elif fields["model"].startswith("heat"):
        model = "heat"
    elif fields["model"].startswith("thermal"):
        model = "thermal"
    key = (fields["impl"], model, int(fields.get("n", 0)), fields.get("solver", ""))
    if key not in best or float(fields["wall_s"]) < float(best[key]["wall_s"]):
        best[key] = fields

def wall(impl, model, n, solver=""):
    fields = best.get((impl, model, n, solver))
    return float(fields["wall_s"]) if fields else float("nan")

print("| model | ctde (s) | scipy BDF sparse (s) | floor CVODE+KLU (s) | ctde / scipy | ctde / floor | ctde steps |")
print("|---|---|---|---|---|---|---|")
for n in sizes:
    c, s, f = wall("ctde", "heat", n, "bdf"), wall("scipy", "heat", n), wall("floor", "heat", n)
    steps = best.get(("ctde", "heat", n, "bdf"), {}).get("steps", "?")
    print(f"| heat network N = {n} | {c:.4f} | {s:.4f} | {f:.4f} | {c / s:.2f} | {c / f:.2f} | {steps} |")
c = wall("ctde", "heat_statespace", 1000, "bdf")
print(f"| heat StateSpace n = 1000 | {c:.4f} | {wall('scipy', 'heat', 1000):.4f} | {wall('floor', 'heat', 1000):.4f} "
      f"| {c / wall('scipy', 'heat', 1000):.2f} | {c / wall('floor', 'heat', 1000):.2f} | "
      f"{best.get(('ctde', 'heat_statespace', 1000, 'bdf'), {}).get('steps', '?')} |")
c, s, f = wall("ctde", "robertson", 3, "bdf"), wall("scipy", "robertson", 3), wall("floor", "robertson", 3)
print(f"| Robertson | {c:.4f} | {s:.4f} | {f:.4f} | {c / s:.2f} | {c / f:.2f} | "
      f"{best.get(('ctde', 'robertson', 3, 'bdf'), {}).get('steps', '?')} |")
print()
dense = best.get(("ctde", "dense_statespace", 300, "bdf"), {})
print(f"dense StateSpace n = 300 (a dense Jacobian, LAPACK's LU): {dense.get('wall_s', '?')} s, "
      f"{dense.get('steps', '?')} steps")
print()
base = wall("ctde", "heat", sizes[0], "bdf") / sizes[0]
for n in sizes[1:]:
    per = wall("ctde", "heat", n, "bdf") / n
    peak = best.get(("ctde", "heat", n, "bdf"), {}).get("peak_mib", "?")
    print(f"heat network N = {n}: time per state {per * 1e6:.1f} us = {per / base:.2f} x N = {sizes[0]}'s; "
          f"peak {peak} MiB")
print()
print("| thermal rooms N = 100 | wall (s) | steps | status |")
print("|---|---|---|---|")
for solver in ("bdf", "auto", "erk45"):
    fields = best.get(("ctde", "thermal", 100, solver), {})
    print(f"| {solver} | {fields.get('wall_s', '?')} | {fields.get('steps', '?')} | {fields.get('status', '?')} |")
print()
rob = best.get(("ctde", "robertson", 3, "bdf"))
if rob:
    print(f"Robertson through ctde, last row (t = 4e10): {rob['last']}")
EOF
