// The serial vector operations, compiled here (vector_ops.hpp). Every
// operation follows the serial implementation's cases and loop order, so
// that each element and each sum rounds as it does there: x86-64 without
// -march has no fused multiply-add to contract into, and GCC reassociates no
// floating-point sum without -ffast-math.
#include "domains/ct/vector_ops.hpp"

#include <nvector/nvector_serial.h>

#include <cmath>
#include <vector>

#include "core/fast_paths.hpp"

namespace ctde {

namespace {

using Real = sunrealtype;

double* data(N_Vector v) { return NV_DATA_S(v); }
sunindextype length(N_Vector v) { return NV_LENGTH_S(v); }

// ---- element loops shared by the operations (z may alias x or y)

/// y += a x, with the serial cases a = 1 and a = -1.
void axpy(Real a, const Real* xd, Real* yd, sunindextype n) {
  if (a == 1.0) {
    for (sunindextype i = 0; i < n; ++i) yd[i] += xd[i];
  } else if (a == -1.0) {
    for (sunindextype i = 0; i < n; ++i) yd[i] -= xd[i];
  } else {
    for (sunindextype i = 0; i < n; ++i) yd[i] += a * xd[i];
  }
}

/// The linear sum z = a x + b y of one triple of arrays, by the serial
/// implementation's cases (each rounds differently: c (x + y) is not
/// c x + c y).
void linear_sum(Real a, const Real* xd, Real b, const Real* yd, Real* zd, sunindextype n) {
  if (b == 1.0 && zd == yd) return axpy(a, xd, zd, n);
  if (a == 1.0 && zd == xd) return axpy(b, yd, zd, n);
  if (a == 1.0 && b == 1.0) {
    for (sunindextype i = 0; i < n; ++i) zd[i] = xd[i] + yd[i];
    return;
  }
  if ((a == 1.0 && b == -1.0) || (a == -1.0 && b == 1.0)) {
    const bool first = a == 1.0;  // x - y, else y - x
    const Real* p = first ? xd : yd;
    const Real* m = first ? yd : xd;
    for (sunindextype i = 0; i < n; ++i) zd[i] = p[i] - m[i];
    return;
  }
  if (a == 1.0 || b == 1.0) {  // c v + w, w the one with coefficient 1
    const bool first = a == 1.0;
    const Real c = first ? b : a;
    const Real* v = first ? yd : xd;
    const Real* w = first ? xd : yd;
    for (sunindextype i = 0; i < n; ++i) zd[i] = (c * v[i]) + w[i];
    return;
  }
  if (a == -1.0 || b == -1.0) {  // c v - w, w the one with coefficient -1
    const bool first = a == -1.0;
    const Real c = first ? b : a;
    const Real* v = first ? yd : xd;
    const Real* w = first ? xd : yd;
    for (sunindextype i = 0; i < n; ++i) zd[i] = (c * v[i]) - w[i];
    return;
  }
  if (a == b) {
    for (sunindextype i = 0; i < n; ++i) zd[i] = a * (xd[i] + yd[i]);
    return;
  }
  if (a == -b) {
    for (sunindextype i = 0; i < n; ++i) zd[i] = a * (xd[i] - yd[i]);
    return;
  }
  for (sunindextype i = 0; i < n; ++i) zd[i] = (a * xd[i]) + (b * yd[i]);
}

/// z = c x, with the serial cases (in place, c = 1, c = -1).
void scale(Real c, const Real* xd, Real* zd, sunindextype n) {
  if (zd == xd) {
    for (sunindextype i = 0; i < n; ++i) zd[i] *= c;
  } else if (c == 1.0) {
    for (sunindextype i = 0; i < n; ++i) zd[i] = xd[i];
  } else if (c == -1.0) {
    for (sunindextype i = 0; i < n; ++i) zd[i] = -xd[i];
  } else {
    for (sunindextype i = 0; i < n; ++i) zd[i] = c * xd[i];
  }
}

/// Σ (x w)², in order.
Real weighted_squares(const Real* xd, const Real* wd, sunindextype n) {
  Real sum = 0.0;
  for (sunindextype i = 0; i < n; ++i) {
    const Real p = xd[i] * wd[i];
    sum += p * p;
  }
  return sum;
}

Real weighted_squares_masked(const Real* xd, const Real* wd, const Real* id, sunindextype n) {
  Real sum = 0.0;
  for (sunindextype i = 0; i < n; ++i) {
    if (id[i] > 0.0) {
      const Real p = xd[i] * wd[i];
      sum += p * p;
    }
  }
  return sum;
}

/// z = Σ c[i] X[i] over the arrays, by the serial cases (z is X[0], with or
/// without c[0] = 1, or another array).
void combine(int count, const Real* c, const Real* const* xs, Real* zd, sunindextype n) {
  if (xs[0] == zd && c[0] == 1.0) {
    for (int k = 1; k < count; ++k) {
      for (sunindextype i = 0; i < n; ++i) zd[i] += c[k] * xs[k][i];
    }
    return;
  }
  if (xs[0] == zd) {
    for (sunindextype i = 0; i < n; ++i) zd[i] *= c[0];
  } else {
    for (sunindextype i = 0; i < n; ++i) zd[i] = c[0] * xs[0][i];
  }
  for (int k = 1; k < count; ++k) {
    for (sunindextype i = 0; i < n; ++i) zd[i] += c[k] * xs[k][i];
  }
}

// ---- the operation table's entries

void op_linear_sum(Real a, N_Vector x, Real b, N_Vector y, N_Vector z) {
  linear_sum(a, data(x), b, data(y), data(z), length(x));
}

void op_const(Real c, N_Vector z) {
  Real* zd = data(z);
  for (sunindextype i = 0, n = length(z); i < n; ++i) zd[i] = c;
}

void op_prod(N_Vector x, N_Vector y, N_Vector z) {
  const Real* xd = data(x);
  const Real* yd = data(y);
  Real* zd = data(z);
  for (sunindextype i = 0, n = length(x); i < n; ++i) zd[i] = xd[i] * yd[i];
}

void op_div(N_Vector x, N_Vector y, N_Vector z) {
  const Real* xd = data(x);
  const Real* yd = data(y);
  Real* zd = data(z);
  for (sunindextype i = 0, n = length(x); i < n; ++i) zd[i] = xd[i] / yd[i];
}

void op_scale(Real c, N_Vector x, N_Vector z) { scale(c, data(x), data(z), length(x)); }

void op_abs(N_Vector x, N_Vector z) {
  const Real* xd = data(x);
  Real* zd = data(z);
  for (sunindextype i = 0, n = length(x); i < n; ++i) zd[i] = std::fabs(xd[i]);
}

void op_inv(N_Vector x, N_Vector z) {
  const Real* xd = data(x);
  Real* zd = data(z);
  for (sunindextype i = 0, n = length(x); i < n; ++i) zd[i] = 1.0 / xd[i];
}

void op_add_const(N_Vector x, Real b, N_Vector z) {
  const Real* xd = data(x);
  Real* zd = data(z);
  for (sunindextype i = 0, n = length(x); i < n; ++i) zd[i] = xd[i] + b;
}

Real op_dot(N_Vector x, N_Vector y) {
  const Real* xd = data(x);
  const Real* yd = data(y);
  Real sum = 0.0;
  for (sunindextype i = 0, n = length(x); i < n; ++i) sum += xd[i] * yd[i];
  return sum;
}

Real op_max_norm(N_Vector x) {
  const Real* xd = data(x);
  Real max = 0.0;
  for (sunindextype i = 0, n = length(x); i < n; ++i) {
    if (std::fabs(xd[i]) > max) max = std::fabs(xd[i]);
  }
  return max;
}

Real op_wsqr_sum(N_Vector x, N_Vector w) { return weighted_squares(data(x), data(w), length(x)); }

Real op_wrms_norm(N_Vector x, N_Vector w) {
  return std::sqrt(op_wsqr_sum(x, w) / static_cast<Real>(length(x)));
}

Real op_wsqr_sum_mask(N_Vector x, N_Vector w, N_Vector id) {
  return weighted_squares_masked(data(x), data(w), data(id), length(x));
}

Real op_wrms_norm_mask(N_Vector x, N_Vector w, N_Vector id) {
  return std::sqrt(op_wsqr_sum_mask(x, w, id) / static_cast<Real>(length(x)));
}

Real op_min(N_Vector x) {
  const Real* xd = data(x);
  Real min = xd[0];
  for (sunindextype i = 1, n = length(x); i < n; ++i) {
    if (xd[i] < min) min = xd[i];
  }
  return min;
}

Real op_wl2_norm(N_Vector x, N_Vector w) { return std::sqrt(op_wsqr_sum(x, w)); }

Real op_l1_norm(N_Vector x) {
  const Real* xd = data(x);
  Real sum = 0.0;
  for (sunindextype i = 0, n = length(x); i < n; ++i) sum += std::fabs(xd[i]);
  return sum;
}

void op_compare(Real c, N_Vector x, N_Vector z) {
  const Real* xd = data(x);
  Real* zd = data(z);
  for (sunindextype i = 0, n = length(x); i < n; ++i) zd[i] = std::fabs(xd[i]) >= c ? 1.0 : 0.0;
}

sunbooleantype op_inv_test(N_Vector x, N_Vector z) {
  const Real* xd = data(x);
  Real* zd = data(z);
  sunbooleantype no_zero = SUNTRUE;
  for (sunindextype i = 0, n = length(x); i < n; ++i) {
    if (xd[i] == 0.0) {
      no_zero = SUNFALSE;
    } else {
      zd[i] = 1.0 / xd[i];
    }
  }
  return no_zero;
}

sunbooleantype op_constr_mask(N_Vector c, N_Vector x, N_Vector m) {
  const Real* cd = data(c);
  const Real* xd = data(x);
  Real* md = data(m);
  bool violated = false;
  for (sunindextype i = 0, n = length(x); i < n; ++i) {
    md[i] = 0.0;
    if (cd[i] == 0.0) continue;  // no constraint
    const bool bad =
        (std::fabs(cd[i]) > 1.5 && xd[i] * cd[i] <= 0.0) || (std::fabs(cd[i]) > 0.5 && xd[i] * cd[i] < 0.0);
    if (bad) {
      md[i] = 1.0;
      violated = true;
    }
  }
  return violated ? SUNFALSE : SUNTRUE;
}

Real op_min_quotient(N_Vector num, N_Vector denom) {
  const Real* nd = data(num);
  const Real* dd = data(denom);
  Real min = BIG_REAL;
  bool first = true;
  for (sunindextype i = 0, n = length(num); i < n; ++i) {
    if (dd[i] == 0.0) continue;
    const Real q = nd[i] / dd[i];
    min = first || !(min < q) ? q : min;  // as SUNMIN(min, q): a NaN quotient is taken
    first = false;
  }
  return min;
}

// ---- fused operations (any number of vectors; the array of data pointers
// is built on the stack for the counts ARKODE uses, on the heap beyond)

/// Room for the data arrays of `count` vectors. Small counts (every
/// Runge–Kutta table ARKODE has) stay on the stack: the hot path allocates
/// nothing.
class DataArrays {
 public:
  explicit DataArrays(int count) {
    if (count > kInline) heap_.resize(static_cast<std::size_t>(count));
    pointers_ = count > kInline ? heap_.data() : inline_;
  }
  DataArrays(int count, const N_Vector* vs) : DataArrays(count) {
    for (int k = 0; k < count; ++k) pointers_[k] = data(vs[k]);
  }
  DataArrays(const DataArrays&) = delete;
  DataArrays& operator=(const DataArrays&) = delete;
  [[nodiscard]] Real** pointers() const { return pointers_; }

 private:
  static constexpr int kInline = 32;
  Real* inline_[kInline] = {};
  std::vector<Real*> heap_;
  Real** pointers_ = nullptr;
};

int op_linear_combination(int count, Real* c, N_Vector* xs, N_Vector z) {
  if (count < 1) return -1;
  if (count == 1) {
    op_scale(c[0], xs[0], z);
    return 0;
  }
  if (count == 2) {
    op_linear_sum(c[0], xs[0], c[1], xs[1], z);
    return 0;
  }
  DataArrays arrays(count, xs);
  combine(count, c, arrays.pointers(), data(z), length(z));
  return 0;
}

int op_scale_add_multi(int count, Real* a, N_Vector x, N_Vector* ys, N_Vector* zs) {
  if (count < 1) return -1;
  if (count == 1) {
    op_linear_sum(a[0], x, 1.0, ys[0], zs[0]);
    return 0;
  }
  const Real* xd = data(x);
  const sunindextype n = length(x);
  for (int k = 0; k < count; ++k) {
    Real* yd = data(ys[k]);
    if (ys == zs) {
      for (sunindextype i = 0; i < n; ++i) yd[i] += a[k] * xd[i];
    } else {
      Real* zd = data(zs[k]);
      for (sunindextype i = 0; i < n; ++i) zd[i] = a[k] * xd[i] + yd[i];
    }
  }
  return 0;
}

int op_dot_multi(int count, N_Vector x, N_Vector* ys, Real* dots) {
  if (count < 1) return -1;
  for (int k = 0; k < count; ++k) dots[k] = op_dot(x, ys[k]);
  return 0;
}

int op_linear_sum_array(int count, Real a, N_Vector* xs, Real b, N_Vector* ys, N_Vector* zs) {
  if (count < 1) return -1;
  const sunindextype n = length(zs[0]);
  for (int k = 0; k < count; ++k) linear_sum(a, data(xs[k]), b, data(ys[k]), data(zs[k]), n);
  return 0;
}

int op_scale_array(int count, Real* c, N_Vector* xs, N_Vector* zs) {
  if (count < 1) return -1;
  if (count == 1) {
    op_scale(c[0], xs[0], zs[0]);
    return 0;
  }
  const sunindextype n = length(zs[0]);
  for (int k = 0; k < count; ++k) {
    Real* zd = data(zs[k]);
    const Real* xd = data(xs[k]);
    if (xs == zs) {
      for (sunindextype i = 0; i < n; ++i) zd[i] *= c[k];
    } else {
      for (sunindextype i = 0; i < n; ++i) zd[i] = c[k] * xd[i];
    }
  }
  return 0;
}

int op_const_array(int count, Real c, N_Vector* zs) {
  if (count < 1) return -1;
  for (int k = 0; k < count; ++k) op_const(c, zs[k]);
  return 0;
}

int op_wrms_norm_array(int count, N_Vector* xs, N_Vector* ws, Real* norms) {
  if (count < 1) return -1;
  for (int k = 0; k < count; ++k) norms[k] = op_wrms_norm(xs[k], ws[k]);
  return 0;
}

int op_wrms_norm_mask_array(int count, N_Vector* xs, N_Vector* ws, N_Vector id, Real* norms) {
  if (count < 1) return -1;
  for (int k = 0; k < count; ++k) norms[k] = op_wrms_norm_mask(xs[k], ws[k], id);
  return 0;
}

int op_scale_add_multi_array(int vectors, int sums, Real* a, N_Vector* xs, N_Vector** ys, N_Vector** zs) {
  if (vectors < 1 || sums < 1) return -1;
  const sunindextype n = length(xs[0]);
  for (int v = 0; v < vectors; ++v) {
    if (sums == 1) {  // a linear sum per vector, with its cases
      linear_sum(a[0], data(xs[v]), 1.0, data(ys[0][v]), data(zs[0][v]), n);
      continue;
    }
    const Real* xd = data(xs[v]);
    for (int s = 0; s < sums; ++s) {
      Real* yd = data(ys[s][v]);
      if (ys == zs) {
        for (sunindextype i = 0; i < n; ++i) yd[i] += a[s] * xd[i];
      } else {
        Real* zd = data(zs[s][v]);
        for (sunindextype i = 0; i < n; ++i) zd[i] = a[s] * xd[i] + yd[i];
      }
    }
  }
  return 0;
}

int op_linear_combination_array(int vectors, int sums, Real* c, N_Vector** xs, N_Vector* zs) {
  if (vectors < 1 || sums < 1) return -1;
  const sunindextype n = length(zs[0]);
  // Whether a vector is combined in place changes no value (c x in place
  // or into another array rounds alike), so each vector is combined as
  // N_VLinearCombination would: the serial code's cases by coefficients.
  DataArrays column(sums);
  for (int v = 0; v < vectors; ++v) {
    Real* zd = data(zs[v]);
    if (sums == 1) {
      scale(c[0], data(xs[0][v]), zd, n);
    } else if (sums == 2) {
      linear_sum(c[0], data(xs[0][v]), c[1], data(xs[1][v]), zd, n);
    } else {
      for (int s = 0; s < sums; ++s) column.pointers()[s] = data(xs[s][v]);
      combine(sums, c, column.pointers(), zd, n);
    }
  }
  return 0;
}

}  // namespace

void use_project_vector_ops(N_Vector v) {
  if (!fast_paths_enabled()) return;  // SUNDIALS' own operations (core/fast_paths.hpp)
  N_Vector_Ops ops = v->ops;
  ops->nvlinearsum = op_linear_sum;
  ops->nvconst = op_const;
  ops->nvprod = op_prod;
  ops->nvdiv = op_div;
  ops->nvscale = op_scale;
  ops->nvabs = op_abs;
  ops->nvinv = op_inv;
  ops->nvaddconst = op_add_const;
  ops->nvdotprod = op_dot;
  ops->nvmaxnorm = op_max_norm;
  ops->nvwrmsnorm = op_wrms_norm;
  ops->nvwrmsnormmask = op_wrms_norm_mask;
  ops->nvmin = op_min;
  ops->nvwl2norm = op_wl2_norm;
  ops->nvl1norm = op_l1_norm;
  ops->nvcompare = op_compare;
  ops->nvinvtest = op_inv_test;
  ops->nvconstrmask = op_constr_mask;
  ops->nvminquotient = op_min_quotient;

  // The fused and vector array operations only where the vector has them:
  // without them ARKODE combines with the standard ones, which rounds
  // differently, and the vector's setting is kept.
  const auto replace = [](auto& slot, auto op) {
    if (slot != nullptr) slot = op;
  };
  replace(ops->nvlinearcombination, op_linear_combination);
  replace(ops->nvscaleaddmulti, op_scale_add_multi);
  replace(ops->nvdotprodmulti, op_dot_multi);
  replace(ops->nvlinearsumvectorarray, op_linear_sum_array);
  replace(ops->nvscalevectorarray, op_scale_array);
  replace(ops->nvconstvectorarray, op_const_array);
  replace(ops->nvwrmsnormvectorarray, op_wrms_norm_array);
  replace(ops->nvwrmsnormmaskvectorarray, op_wrms_norm_mask_array);
  replace(ops->nvscaleaddmultivectorarray, op_scale_add_multi_array);
  replace(ops->nvlinearcombinationvectorarray, op_linear_combination_array);

  ops->nvdotprodlocal = op_dot;
  ops->nvmaxnormlocal = op_max_norm;
  ops->nvminlocal = op_min;
  ops->nvl1normlocal = op_l1_norm;
  ops->nvinvtestlocal = op_inv_test;
  ops->nvconstrmasklocal = op_constr_mask;
  ops->nvminquotientlocal = op_min_quotient;
  ops->nvwsqrsumlocal = op_wsqr_sum;
  ops->nvwsqrsummasklocal = op_wsqr_sum_mask;
}

}  // namespace ctde
