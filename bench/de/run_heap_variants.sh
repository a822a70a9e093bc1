#!/usr/bin/env bash
# The heap variants of docs/performance.md's table, on the hold loop
# without director or actors: N = 1e3 and 1e5, 1e7 events, REPEAT rounds.
# Usage: run_heap_variants.sh [BUILD_DIR] [REPEAT]
set -euo pipefail
source "$(dirname "$0")/setup.sh"
g++ -std=c++20 -O2 -Wall -Wextra -I"$here/../.." -o "$out/heap_variants" "$here/heap_variants.cpp" \
  "$here/../../domains/de/event_queue.cpp"
for ((i = 0; i < repeat; i++)); do
  for n in 1000 100000; do "$out/heap_variants" "$n" 1e7; done
done | awk '
  { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    key = v["variant"] " " v["n"]
    if (!(key in best) || v["seconds"] < best[key]) best[key] = v["seconds"]
    if (!(key in seen)) { seen[key] = 1; keys[++count] = key } }
  END { printf "%-22s %-8s %8s\n", "variant", "N", "best_s"
        for (c = 1; c <= count; c++) { split(keys[c], p, " "); printf "%-22s %-8s %8.3f\n", p[1], p[2], best[keys[c]] } }'
