#!/usr/bin/env bash
# The hold benchmark: ctde's actor API vs SystemC vs a bare std::priority_queue,
# N = 1e3 and 1e5, 1e7 events, each run REPEAT times alternately (the machine
# is shared: the best and the median of the runs are reported; issue 21's
# target is on the median). Usage: run_hold.sh [BUILD_DIR] [REPEAT]
set -euo pipefail
source "$(dirname "$0")/setup.sh"
g++ -std=c++20 -O2 -o "$out/hold_bare_heap" "$here/hold_bare_heap.cpp"
g++ -std=c++17 -O2 -o "$out/hold_systemc" "$here/hold_systemc.cpp" $(pkg-config --cflags --libs systemc)
for n in 1000 100000; do
  for ((i = 0; i < repeat; i++)); do
    "$build/bench/hold_actors" "$n" 1e7
    "$out/hold_systemc" "$n" 1e7 2>/dev/null | grep '^impl='
    "$out/hold_bare_heap" "$n" 1e7
  done
done | awk '
  function median(list,   v, m, i, j, t) {
    m = split(list, v, " ")
    for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
  }
  { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    key = v["impl"] " " v["n"]
    runs[key] = runs[key] " " v["seconds"]
    if (!(key in best) || v["seconds"] < best[key]) { best[key] = v["seconds"]; rss[key] = v["peak_rss_mb"] }
    if (!(v["n"] in seen)) { seen[v["n"]] = 1; ns[++count] = v["n"] } }
  END {
    printf "%-10s %-8s %10s %10s %14s %12s\n", "impl", "N", "best_s", "median_s", "events_per_s", "peak_rss_mb"
    for (c = 1; c <= count; c++) {
      n = ns[c]
      split("ctde systemc bare_heap", impls, " ")
      for (j = 1; j <= 3; j++) { k = impls[j] " " n; med[k] = median(runs[k])
        printf "%-10s %-8s %10.3f %10.3f %14.4g %12.1f\n", impls[j], n, best[k], med[k], 1e7 / med[k], rss[k] }
      printf "ratios N=%s (median; best): ctde/systemc speed %.2fx; %.2fx, ctde time / bare heap time %.2fx; %.2fx\n", n,
             med["systemc " n] / med["ctde " n], best["systemc " n] / best["ctde " n],
             med["ctde " n] / med["bare_heap " n], best["ctde " n] / best["bare_heap " n]
    }
  }'
