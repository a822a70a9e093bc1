#pragma once
/// The check of every derivative the director hands the solver: where is
/// the first NaN or infinity, if any? It runs after each right-hand-side
/// evaluation, so it is written for the common answer, "none": four
/// independent sums of v[k] * 0.0 (0 for every finite v[k], NaN for an
/// infinite or NaN one; nothing overflows) and one test at the end, where a
/// loop that tests each value stalls on a compare and a branch per value.

#include <cmath>
#include <cstddef>
#include <span>

namespace ctde {

/// The index of the first value of `v` that is NaN or infinite, or v.size()
/// when all are finite.
[[nodiscard]] inline std::size_t first_nonfinite(std::span<const double> v) {
  const double* p = v.data();
  const std::size_t n = v.size();
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  std::size_t k = 0;
  for (; k + 4 <= n; k += 4) {
    s0 += p[k] * 0.0;
    s1 += p[k + 1] * 0.0;
    s2 += p[k + 2] * 0.0;
    s3 += p[k + 3] * 0.0;
  }
  for (; k < n; ++k) s0 += p[k] * 0.0;
  if ((s0 + s1) + (s2 + s3) == 0.0) return n;
  for (k = 0; k < n; ++k) {
    if (!std::isfinite(p[k])) return k;
  }
  return n;  // (not reached: a sum is NaN only when a value is not finite)
}

}  // namespace ctde
