// The Dormand–Prince 5(4) tableau itself (domains/ct/dormand_prince_tableau.hpp):
// the nodes are the row sums, the order-5 weights satisfy every order
// condition up to 5, the embedded weights those up to 4 and not all of 5,
// and a fixed-step integration with the tableau converges at order 5.
#include <doctest/doctest.h>

#include <array>
#include <cmath>

#include "domains/ct/dormand_prince_tableau.hpp"

namespace {

using namespace ctde::dp5;

constexpr int kS = 7;
using Matrix = std::array<std::array<double, kS>, kS>;
using Vector = std::array<double, kS>;

Matrix stages() {
  Matrix a{};
  a[1] = {kA21, 0, 0, 0, 0, 0, 0};
  a[2] = {kA31, kA32, 0, 0, 0, 0, 0};
  a[3] = {kA41, kA42, kA43, 0, 0, 0, 0};
  a[4] = {kA51, kA52, kA53, kA54, 0, 0, 0};
  a[5] = {kA61, kA62, kA63, kA64, kA65, 0, 0};
  a[6] = {kB1, 0, kB3, kB4, kB5, kB6, 0};  // first same as last: the last row is b
  return a;
}

const Vector kB{kB1, 0, kB3, kB4, kB5, kB6, 0};
const Vector kBh{kBh1, 0, kBh3, kBh4, kBh5, kBh6, kBh7};

Vector times(const Matrix& a, const Vector& v) {
  Vector out{};
  for (int i = 0; i < kS; ++i) {
    for (int j = 0; j < kS; ++j) out[i] += a[i][j] * v[j];
  }
  return out;
}

Vector power(const Vector& v, int p) {
  Vector out{};
  for (int i = 0; i < kS; ++i) out[i] = std::pow(v[i], p);
  return out;
}

Vector product(const Vector& u, const Vector& v) {
  Vector out{};
  for (int i = 0; i < kS; ++i) out[i] = u[i] * v[i];
  return out;
}

double dot(const Vector& u, const Vector& v) {
  double sum = 0;
  for (int i = 0; i < kS; ++i) sum += u[i] * v[i];
  return sum;
}

/// The residuals of the 17 order conditions of orders 1 to 5 (Butcher's
/// rooted trees), for weights b: residual[k] = sum - 1/gamma(tree).
struct Conditions {
  std::array<double, 17> residual{};
  std::array<int, 17> order{};
};

Conditions conditions(const Vector& b) {
  const Matrix a = stages();
  Vector c{};
  for (int i = 0; i < kS; ++i) c[i] = kC[static_cast<std::size_t>(i)];
  const Vector one{1, 1, 1, 1, 1, 1, 1};
  const Vector ac = times(a, c);
  const Vector ac2 = times(a, power(c, 2));
  const Vector aac = times(a, ac);
  Conditions k;
  int n = 0;
  const auto add = [&](int order, double sum, double expected) {
    k.order[static_cast<std::size_t>(n)] = order;
    k.residual[static_cast<std::size_t>(n++)] = sum - expected;
  };
  add(1, dot(b, one), 1.0);
  add(2, dot(b, c), 1.0 / 2);
  add(3, dot(b, power(c, 2)), 1.0 / 3);
  add(3, dot(b, ac), 1.0 / 6);
  add(4, dot(b, power(c, 3)), 1.0 / 4);
  add(4, dot(b, product(c, ac)), 1.0 / 8);
  add(4, dot(b, ac2), 1.0 / 12);
  add(4, dot(b, aac), 1.0 / 24);
  add(5, dot(b, power(c, 4)), 1.0 / 5);
  add(5, dot(b, product(power(c, 2), ac)), 1.0 / 10);
  add(5, dot(b, product(ac, ac)), 1.0 / 20);
  add(5, dot(b, product(c, ac2)), 1.0 / 15);
  add(5, dot(b, times(a, power(c, 3))), 1.0 / 20);
  add(5, dot(b, product(c, aac)), 1.0 / 30);
  add(5, dot(b, times(a, product(c, ac))), 1.0 / 40);
  add(5, dot(b, times(a, ac2)), 1.0 / 60);
  add(5, dot(b, times(a, aac)), 1.0 / 120);
  return k;
}

/// x' = -x + sin(3t) from x(0) = 1 to t = 1 in `steps` fixed steps of the tableau (order-5 weights).
double integrate(int steps) {
  const Matrix a = stages();
  const double h = 1.0 / steps;
  double x = 1;
  double t = 0;
  for (int n = 0; n < steps; ++n) {
    std::array<double, kS> k{};
    for (int i = 0; i < kS; ++i) {
      double xi = x;
      for (int j = 0; j < i; ++j) xi += h * a[i][j] * k[j];
      const double ti = t + kC[static_cast<std::size_t>(i)] * h;
      k[i] = -xi + std::sin(3 * ti);
    }
    x += h * dot(kB, k);
    t += h;
  }
  return x;
}

double exact(double t) {
  // x = C e^-t + (sin 3t - 3 cos 3t) / 10, x(0) = 1: C = 1.3.
  return 1.3 * std::exp(-t) + (std::sin(3 * t) - 3 * std::cos(3 * t)) / 10;
}

}  // namespace

TEST_CASE("Dormand-Prince tableau: each node is its row's sum, the last row is the weights") {
  const Matrix a = stages();
  for (int i = 0; i < kS; ++i) {
    double sum = 0;
    for (int j = 0; j < kS; ++j) sum += a[i][j];
    CHECK(sum == doctest::Approx(kC[static_cast<std::size_t>(i)]).epsilon(1e-15));
  }
  CHECK(kC[6] == 1.0);
  CHECK(kE7 == -kBh7);
}

TEST_CASE("Dormand-Prince tableau: the order-5 weights satisfy every order condition up to 5") {
  const Conditions k = conditions(kB);
  for (std::size_t i = 0; i < k.residual.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(k.residual[i]) <= 1e-15);
  }
}

TEST_CASE("Dormand-Prince tableau: the embedding is of order 4, not 5") {
  const Conditions k = conditions(kBh);
  double worst5 = 0;
  for (std::size_t i = 0; i < k.residual.size(); ++i) {
    CAPTURE(i);
    if (k.order[i] <= 4) {
      CHECK(std::abs(k.residual[i]) <= 1e-15);
    } else {
      worst5 = std::max(worst5, std::abs(k.residual[i]));
    }
  }
  CHECK(worst5 > 1e-4);  // an order-5 condition fails: the error estimate measures something
}

TEST_CASE("Dormand-Prince tableau: fixed steps converge at order 5") {
  // Halving the step divides the global error by about 2^5 = 32.
  const double e1 = std::abs(integrate(10) - exact(1));
  const double e2 = std::abs(integrate(20) - exact(1));
  const double e3 = std::abs(integrate(40) - exact(1));
  const double order12 = std::log2(e1 / e2);
  const double order23 = std::log2(e2 / e3);
  MESSAGE("errors " << e1 << ", " << e2 << ", " << e3 << ": observed orders " << order12 << ", " << order23);
  // An order-4 method (or a lost stage) would show about 4 or less.
  CHECK(order12 > 4.6);
  CHECK(order12 < 5.4);
  CHECK(order23 > 4.75);
  CHECK(order23 < 5.25);
}
