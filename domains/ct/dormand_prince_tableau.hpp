#pragma once
/// The coefficients of Dormand and Prince's RK5(4)7M, for the project's
/// stepper (dormand_prince.cpp) and the benchmarks' floor
/// (bench/ct/dp5_floor.cpp), written from the published tableau.

#include <array>

namespace ctde::dp5 {

// Dormand and Prince (1980), RK5(4)7M: nodes, stage coefficients, the order-5
// weights (also the last stage's row: first same as last) and the order-4 ones.
constexpr std::array<double, 7> kC{0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0};
constexpr double kA21 = 1.0 / 5;
constexpr double kA31 = 3.0 / 40, kA32 = 9.0 / 40;
constexpr double kA41 = 44.0 / 45, kA42 = -56.0 / 15, kA43 = 32.0 / 9;
constexpr double kA51 = 19372.0 / 6561, kA52 = -25360.0 / 2187, kA53 = 64448.0 / 6561, kA54 = -212.0 / 729;
constexpr double kA61 = 9017.0 / 3168, kA62 = -355.0 / 33, kA63 = 46732.0 / 5247, kA64 = 49.0 / 176,
                 kA65 = -5103.0 / 18656;
constexpr double kB1 = 35.0 / 384, kB3 = 500.0 / 1113, kB4 = 125.0 / 192, kB5 = -2187.0 / 6784,
                 kB6 = 11.0 / 84;
constexpr double kBh1 = 5179.0 / 57600, kBh3 = 7571.0 / 16695, kBh4 = 393.0 / 640, kBh5 = -92097.0 / 339200,
                 kBh6 = 187.0 / 2100, kBh7 = 1.0 / 40;
// The error estimate: order 5 less order 4.
constexpr double kE1 = kB1 - kBh1, kE3 = kB3 - kBh3, kE4 = kB4 - kBh4, kE5 = kB5 - kBh5, kE6 = kB6 - kBh6,
                 kE7 = -kBh7;
// The continuous extension (Hairer, Nørsett and Wanner I, II.6, after Shampine):
// x(t0 + θh) = x0 + θ(r2 + (1-θ)(r3 + θ(r4 + (1-θ) r5))), r2 = x1 - x0,
// r3 = h k1 - r2, r4 = r2 - h k7 - r3, r5 = h Σ d_i k_i. Order 4 for every θ.
constexpr double kD1 = -12715105075.0 / 11282082432, kD3 = 87487479700.0 / 32700410799,
                 kD4 = -10690763975.0 / 1880347072, kD5 = 701980252875.0 / 199316789632,
                 kD6 = -1453857185.0 / 822651844, kD7 = 69997945.0 / 29380423;

}  // namespace ctde::dp5
