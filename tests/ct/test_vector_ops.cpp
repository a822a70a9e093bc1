// The project's serial vector operations against the library's own, bit for
// bit: every operation of the table, with the coefficients that select the
// serial code's special cases, in place and not, with 1 to 5 vectors.
#include <doctest/doctest.h>

#include <nvector/nvector_serial.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "domains/ct/vector_ops.hpp"
#include "support/sundials_context.hpp"

namespace {

using Context = ctde::test::SundialsContext;

constexpr sunindextype kLength = 37;

/// `count` vectors of kLength elements from `seed` (some zeros, some
/// negative, one NaN-free spread of magnitudes), with the library's
/// operations (fused ones enabled) or, with `ours`, the project's.
class Vectors {
 public:
  Vectors(const Context& context, int count, bool ours, unsigned seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> value(-3.0, 3.0);
    for (int k = 0; k < count; ++k) {
      N_Vector v = N_VNew_Serial(kLength, context.get());
      REQUIRE(v != nullptr);
      REQUIRE(N_VEnableFusedOps_Serial(v, SUNTRUE) == 0);
      if (ours) ctde::use_project_vector_ops(v);
      double* d = NV_DATA_S(v);
      for (sunindextype i = 0; i < kLength; ++i)
        d[i] = i % 7 == 3 ? 0.0 : value(random) * std::pow(10.0, (i % 5) - 2);
      v_.push_back(v);
    }
  }
  ~Vectors() {
    for (N_Vector v : v_) N_VDestroy(v);
  }
  Vectors(const Vectors&) = delete;
  Vectors& operator=(const Vectors&) = delete;

  N_Vector operator[](int k) const { return v_[static_cast<std::size_t>(k)]; }
  N_Vector* data() { return v_.data(); }
  [[nodiscard]] int size() const { return static_cast<int>(v_.size()); }

  /// True when both hold the same bits.
  friend bool same(const Vectors& a, const Vectors& b) {
    if (a.v_.size() != b.v_.size()) return false;
    for (std::size_t k = 0; k < a.v_.size(); ++k) {
      if (std::memcmp(NV_DATA_S(a.v_[k]), NV_DATA_S(b.v_[k]), sizeof(double) * kLength) != 0) return false;
    }
    return true;
  }

 private:
  std::vector<N_Vector> v_;
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// The coefficients that choose the serial code's cases (1, -1, equal,
/// opposite, zero) and ordinary ones.
const std::vector<double> kCoefficients = {1.0, -1.0, 0.0, 0.5, -0.5, 2.0, 1.0 / 3.0};

/// Runs `op(vectors)` on a library set and a project set made alike from
/// `seed`, and checks that the vectors end alike.
template <class Op>
void check_alike(const Context& context, int count, unsigned seed, Op&& op) {
  Vectors lib(context, count, false, seed);
  Vectors ours(context, count, true, seed);
  REQUIRE(same(lib, ours));
  op(lib);
  op(ours);
  CHECK(same(lib, ours));
}

}  // namespace

TEST_CASE("the project's linear sum and scale match the serial ones bit for bit, in every case and alias") {
  const Context context;
  unsigned seed = 1;
  for (const double a : kCoefficients) {
    for (const double b : kCoefficients) {
      CAPTURE(a);
      CAPTURE(b);
      check_alike(context, 3, ++seed, [&](Vectors& v) { N_VLinearSum(a, v[0], b, v[1], v[2]); });
      check_alike(context, 2, ++seed, [&](Vectors& v) { N_VLinearSum(a, v[0], b, v[1], v[1]); });
      check_alike(context, 2, ++seed, [&](Vectors& v) { N_VLinearSum(a, v[0], b, v[1], v[0]); });
    }
    check_alike(context, 2, ++seed, [&](Vectors& v) { N_VScale(a, v[0], v[1]); });
    check_alike(context, 1, ++seed, [&](Vectors& v) { N_VScale(a, v[0], v[0]); });
    check_alike(context, 1, ++seed, [&](Vectors& v) { N_VConst(a, v[0]); });
    check_alike(context, 2, ++seed, [&](Vectors& v) { N_VAddConst(v[0], a, v[1]); });
    check_alike(context, 2, ++seed, [&](Vectors& v) { N_VCompare(std::fabs(a), v[0], v[1]); });
  }
}

TEST_CASE("the project's element operations and reductions match the serial ones bit for bit") {
  const Context context;
  check_alike(context, 3, 11, [](Vectors& v) { N_VProd(v[0], v[1], v[2]); });
  check_alike(context, 3, 12, [](Vectors& v) { N_VDiv(v[0], v[1], v[2]); });
  check_alike(context, 2, 13, [](Vectors& v) { N_VAbs(v[0], v[1]); });
  check_alike(context, 2, 14, [](Vectors& v) { N_VInv(v[0], v[1]); });
  for (const unsigned seed : {21U, 22U, 23U}) {
    Vectors lib(context, 3, false, seed);
    Vectors ours(context, 3, true, seed);
    const auto both = [&](auto&& reduce) { return same_bits(reduce(lib), reduce(ours)); };
    CHECK(both([](Vectors& v) { return N_VDotProd(v[0], v[1]); }));
    CHECK(both([](Vectors& v) { return N_VMaxNorm(v[0]); }));
    CHECK(both([](Vectors& v) { return N_VWrmsNorm(v[0], v[1]); }));
    CHECK(both([](Vectors& v) { return N_VWrmsNormMask(v[0], v[1], v[2]); }));
    CHECK(both([](Vectors& v) { return N_VMin(v[0]); }));
    CHECK(both([](Vectors& v) { return N_VWL2Norm(v[0], v[1]); }));
    CHECK(both([](Vectors& v) { return N_VL1Norm(v[0]); }));
    CHECK(both([](Vectors& v) { return N_VMinQuotient(v[0], v[1]); }));
    CHECK(both([](Vectors& v) { return N_VWSqrSumLocal(v[0], v[1]); }));
    CHECK(both([](Vectors& v) { return N_VWSqrSumMaskLocal(v[0], v[1], v[2]); }));
    CHECK(both([](Vectors& v) { return static_cast<double>(N_VInvTest(v[0], v[1])); }));
    CHECK(both([](Vectors& v) { return static_cast<double>(N_VConstrMask(v[0], v[1], v[2])); }));
    CHECK(same(lib, ours));  // what InvTest and ConstrMask wrote
  }
  // A constraint vector of the four kinds (none, >= 0, > 0, <= 0, < 0) against signed values.
  Vectors lib(context, 3, false, 31);
  Vectors ours(context, 3, true, 31);
  for (Vectors* v : {&lib, &ours}) {
    double* c = NV_DATA_S((*v)[0]);
    for (sunindextype i = 0; i < kLength; ++i) c[i] = std::vector<double>{0.0, 1.0, 2.0, -1.0, -2.0}[i % 5];
  }
  CHECK(N_VConstrMask(lib[0], lib[1], lib[2]) == N_VConstrMask(ours[0], ours[1], ours[2]));
  CHECK(same(lib, ours));
}

TEST_CASE("the project's fused operations match the serial ones bit for bit, for 1 to 5 vectors") {
  const Context context;
  unsigned seed = 100;
  for (int count = 1; count <= 5; ++count) {
    CAPTURE(count);
    for (const double c0 : {1.0, 0.5}) {
      std::vector<double> c = {c0, -1.0, 0.25, 1.0, -2.0};
      // z = sum c X: into another vector, into X[0] (c0 = 1 and not)
      check_alike(context, count + 1, ++seed,
                  [&](Vectors& v) { (void)N_VLinearCombination(count, c.data(), v.data(), v[count]); });
      check_alike(context, count, ++seed,
                  [&](Vectors& v) { (void)N_VLinearCombination(count, c.data(), v.data(), v[0]); });
      // Z[k] = a[k] x + Y[k], in place and not
      check_alike(context, 2 * count + 1, ++seed, [&](Vectors& v) {
        (void)N_VScaleAddMulti(count, c.data(), v[0], v.data() + 1, v.data() + 1 + count);
      });
      check_alike(context, count + 1, ++seed, [&](Vectors& v) {
        (void)N_VScaleAddMulti(count, c.data(), v[0], v.data() + 1, v.data() + 1);
      });
    }
    Vectors lib(context, count + 1, false, ++seed);
    Vectors ours(context, count + 1, true, seed);
    std::vector<double> dots_lib(static_cast<std::size_t>(count));
    std::vector<double> dots_ours(dots_lib.size());
    (void)N_VDotProdMulti(count, lib[0], lib.data() + 1, dots_lib.data());
    (void)N_VDotProdMulti(count, ours[0], ours.data() + 1, dots_ours.data());
    CHECK(std::memcmp(dots_lib.data(), dots_ours.data(), sizeof(double) * dots_lib.size()) == 0);
  }
}

TEST_CASE("the project's vector array operations match the serial ones bit for bit") {
  const Context context;
  unsigned seed = 200;
  for (int n = 1; n <= 3; ++n) {
    CAPTURE(n);
    for (const double a : {1.0, -1.0, 0.5}) {
      for (const double b : {1.0, -1.0, 0.5, -0.5}) {
        check_alike(context, 3 * n, ++seed, [&](Vectors& v) {
          (void)N_VLinearSumVectorArray(n, a, v.data(), b, v.data() + n, v.data() + 2 * n);
        });
        check_alike(context, 2 * n, ++seed, [&](Vectors& v) {
          (void)N_VLinearSumVectorArray(n, a, v.data(), b, v.data() + n, v.data() + n);
        });
      }
    }
    std::vector<double> c = {2.0, -1.0, 1.0, 0.5};
    check_alike(context, 2 * n, ++seed,
                [&](Vectors& v) { (void)N_VScaleVectorArray(n, c.data(), v.data(), v.data() + n); });
    check_alike(context, n, ++seed,
                [&](Vectors& v) { (void)N_VScaleVectorArray(n, c.data(), v.data(), v.data()); });
    check_alike(context, n, ++seed, [&](Vectors& v) { (void)N_VConstVectorArray(n, 0.75, v.data()); });
    for (int sums = 1; sums <= 4; ++sums) {
      CAPTURE(sums);
      for (const double c0 : {1.0, 0.5}) {
        std::vector<double> coefficients = {c0, -1.0, 0.25, 3.0};
        // X: sums arrays of n vectors, then Z: n vectors (or Z = X[0]).
        check_alike(context, (sums + 1) * n, ++seed, [&](Vectors& v) {
          std::vector<N_Vector*> xs;
          for (int s = 0; s < sums; ++s) xs.push_back(v.data() + s * n);
          (void)N_VLinearCombinationVectorArray(n, sums, coefficients.data(), xs.data(), v.data() + sums * n);
        });
        check_alike(context, sums * n, ++seed, [&](Vectors& v) {
          std::vector<N_Vector*> xs;
          for (int s = 0; s < sums; ++s) xs.push_back(v.data() + s * n);
          (void)N_VLinearCombinationVectorArray(n, sums, coefficients.data(), xs.data(), xs[0]);
        });
        // X: n vectors; Y and Z: sums arrays of n vectors each (Z = Y too).
        check_alike(context, (2 * sums + 1) * n, ++seed, [&](Vectors& v) {
          std::vector<N_Vector*> ys;
          std::vector<N_Vector*> zs;
          for (int s = 0; s < sums; ++s) {
            ys.push_back(v.data() + (1 + s) * n);
            zs.push_back(v.data() + (1 + sums + s) * n);
          }
          (void)N_VScaleAddMultiVectorArray(n, sums, coefficients.data(), v.data(), ys.data(), zs.data());
        });
        check_alike(context, (sums + 1) * n, ++seed, [&](Vectors& v) {
          std::vector<N_Vector*> ys;
          for (int s = 0; s < sums; ++s) ys.push_back(v.data() + (1 + s) * n);
          (void)N_VScaleAddMultiVectorArray(n, sums, coefficients.data(), v.data(), ys.data(), ys.data());
        });
      }
    }
    Vectors lib(context, 3 * n, false, ++seed);
    Vectors ours(context, 3 * n, true, seed);
    std::vector<double> norms_lib(static_cast<std::size_t>(n));
    std::vector<double> norms_ours(norms_lib.size());
    (void)N_VWrmsNormVectorArray(n, lib.data(), lib.data() + n, norms_lib.data());
    (void)N_VWrmsNormVectorArray(n, ours.data(), ours.data() + n, norms_ours.data());
    CHECK(std::memcmp(norms_lib.data(), norms_ours.data(), sizeof(double) * norms_lib.size()) == 0);
    (void)N_VWrmsNormMaskVectorArray(n, lib.data(), lib.data() + n, lib[2 * n], norms_lib.data());
    (void)N_VWrmsNormMaskVectorArray(n, ours.data(), ours.data() + n, ours[2 * n], norms_ours.data());
    CHECK(std::memcmp(norms_lib.data(), norms_ours.data(), sizeof(double) * norms_lib.size()) == 0);
  }
}

TEST_CASE(
    "a clone of a vector with the project's operations has them too, and absent fused operations stay "
    "absent") {
  const Context context;
  Vectors ours(context, 1, true, 7);
  N_Vector clone = N_VClone(ours[0]);
  REQUIRE(clone != nullptr);
  CHECK((clone->ops->nvlinearsum == ours[0]->ops->nvlinearsum));
  CHECK((clone->ops->nvlinearcombination == ours[0]->ops->nvlinearcombination));
  N_Vector plain = N_VNew_Serial(kLength, context.get());
  CHECK((plain->ops->nvlinearsum != ours[0]->ops->nvlinearsum));
  // Without fused operations enabled, none are installed: ARKODE would
  // combine with the standard ones, and must go on doing so.
  ctde::use_project_vector_ops(plain);
  CHECK((plain->ops->nvlinearsum == ours[0]->ops->nvlinearsum));
  CHECK((plain->ops->nvlinearcombination == nullptr));
  CHECK((plain->ops->nvscaleaddmultivectorarray == nullptr));
  N_VDestroy(plain);
  N_VDestroy(clone);
}
