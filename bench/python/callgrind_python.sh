#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind), robust on a busy machine,
# for the Python package's figures (docs/performance.md, "Python package"):
#   - one load + run of the bouncing ball from Python against the same in
#     C++ (python_ball_cpp): each the difference of two processes that do
#     N and 0 (C++: N+1 and 1) runs, divided by N, so that start-up cancels;
#   - a Python actor firing 1e5 times against a built-in DiscreteClock.
#
#   bench/python/callgrind_python.sh [BUILD_DIR]      (default build/release; about a minute)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build/release}" && pwd)
cd "$root"
export PYTHONPATH=$build/python
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

count() {  # count OUT COMMAND...: the instructions the command executes
  local out=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file="$tmp/$out" "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

ball=examples/models/bouncing_ball.json
cat >"$tmp/ball.py" <<'PY'
import sys, ctde
n, stop = int(sys.argv[1]), sys.argv[2]
sets = {} if stop == "-" else {"e": 1}
for _ in range(n):
    ctde.load("examples/models/bouncing_ball.json", set=sets).run(stop_time=None if stop == "-" else float(stop))
PY
for case in "- 10" "1000 3"; do
  read -r stop n <<<"$case"
  sets=()
  [[ $stop == "-" ]] || sets=(e=1)
  py0=$(count py0 /usr/bin/python3 "$tmp/ball.py" 0 "$stop")
  pyn=$(count pyn /usr/bin/python3 "$tmp/ball.py" "$n" "$stop")
  c1=$(count c1 "$build/bench/python_ball_cpp" "$ball" 1 "$stop" "${sets[@]}")
  cn=$(count cn "$build/bench/python_ball_cpp" "$ball" $((n + 1)) "$stop" "${sets[@]}")
  py=$(((pyn - py0) / n))
  cpp=$(((cn - c1) / n))
  echo "ball stop_time=$stop ${sets[*]}: python_instructions=$py cpp_instructions=$cpp" \
    "ratio=$(/usr/bin/python3 -c "print(f'{$py / $cpp:.3f}')")"
done

cat >"$tmp/actor.py" <<'PY'
import sys, ctde
sys.path.insert(0, "bench/python")
from bench_python import Ticker  # the same actor as the timed benchmark (imported in every case)

period = 1e-5
m = ctde.Model("m", director={"stop_time": 1 - period / 2})
if sys.argv[1] == "python":
    m.add(Ticker, "tick", period=period)
    m.add("Accumulator", "total")
    m.connect("tick.count", "total.in")
elif sys.argv[1] == "clock":
    m.add("DiscreteClock", "tick", period=period)
    m.add("Accumulator", "total")
    m.connect("tick.out", "total.in")
if sys.argv[1] != "none":
    assert m.run().stats["time_events"] >= 100000
PY
none=$(count none /usr/bin/python3 "$tmp/actor.py" none)
python=$(count python /usr/bin/python3 "$tmp/actor.py" python)
clock=$(count clock /usr/bin/python3 "$tmp/actor.py" clock)
echo "python_actor: instructions_per_firing=$(((python - none) / 100000))" \
  "builtin_clock_per_firing=$(((clock - none) / 100000))"
