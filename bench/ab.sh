#!/usr/bin/env bash
# A/B of two builds of ctde on the three benchmark families (the hold loop,
# the CT models, the bouncing balls), runs interleaved so that a busy machine
# slows both alike; prints the best time of each and the ratio new / base.
# Usage: ab.sh BASE_BENCH_DIR BASE_LIB_DIR NEW_BUILD_DIR [REPEAT]
#   BASE_BENCH_DIR: a copy of an older build's bench/ folder; BASE_LIB_DIR: the
#   folder holding that build's libctde.so.0 (taken via LD_LIBRARY_PATH).
set -euo pipefail
base_bench=$1
base_lib=$2
new=$3
repeat=${4:-5}
cases=(
  "hold_actors 1000 1e7"
  "hold_actors 100000 1e7"
  "ct_bench statespace 100"
  "ct_bench chain1000 3"
  "ball_bench ball1 5 1e-10 1e-12"
  "ball_bench balls100 5 1e-10 1e-12"
  "ball_bench ball1 5 1e-6 1e-9"
)
# The time field each program prints: seconds= (hold), wall_s= (ct, ball).
seconds() { grep -o -E '(^| )(seconds|wall_s)=[0-9.e+-]+' | head -1 | cut -d= -f2; }
for ((i = 0; i < repeat; i++)); do
  for c in "${cases[@]}"; do
    read -r prog args <<<"$c"
    # shellcheck disable=SC2086
    b=$(LD_LIBRARY_PATH=$base_lib "$base_bench/$prog" $args | seconds)
    # shellcheck disable=SC2086
    n=$("$new/bench/$prog" $args | seconds)
    echo "$c|$b|$n"
  done
done | awk -F'|' '
  { if (!($1 in bb) || $2 < bb[$1]) bb[$1] = $2; if (!($1 in nb) || $3 < nb[$1]) nb[$1] = $3
    if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
  END { printf "%-36s %12s %12s %8s\n", "case", "base_s", "new_s", "new/base"
        for (i = 1; i <= k; i++) { c = order[i]; printf "%-36s %12.6g %12.6g %8.3f\n", c, bb[c], nb[c], nb[c] / bb[c] } }'
