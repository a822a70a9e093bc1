// The continuous actors (actors/continuous/), called directly through
// hand-made contexts: no director, no solver.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "actors/continuous/integrator.hpp"
#include "actors/continuous/state_space.hpp"
#include "actors/continuous/transfer_function.hpp"
#include "support/actor_bench.hpp"

using namespace ctde;
using ctde::test::Bench;
using ctde::test::check_close;
using ctde::test::kSecond;
using ctde::test::Values;

TEST_CASE("Integrator: initial states, derivatives, reset then impulse") {
  Integrator integrator("x");
  integrator.set_parameter("initial", Values{1, 2});
  Bench bench(integrator, {2, 2, 2}, {2});
  CHECK(integrator.state_size() == 2);
  CHECK_FALSE(integrator.feeds_through(0));
  bench.initialize();
  CHECK(bench.states() == Values{1, 2});
  CHECK(bench.out() == Values{1, 2});

  bench.set_input(0, {3, -4});
  CHECK(bench.derivatives() == Values{3, -4});

  bench.set_states({1.5, 2.5});  // as the solver moved them
  CHECK(bench.evaluate(0.5) == Values{1.5, 2.5});

  const int changes = bench.director.states_changes;
  bench.fire(kSecond);  // no token: nothing changes
  CHECK(bench.director.states_changes == changes);
  CHECK(bench.states() == Values{1.5, 2.5});

  bench.give_token(1, {10, 20});  // reset
  bench.give_token(2, {1, -1});   // impulse at the same tag: after the reset
  bench.fire(kSecond);
  CHECK(bench.director.states_changes == changes + 1);
  CHECK(bench.states() == Values{11, 19});
  CHECK(bench.out() == Values{11, 19});

  bench.give_token(2, {0.5, 0.5});
  bench.fire(kSecond, 1);
  CHECK(bench.states() == Values{11.5, 19.5});

  bench.give_token(1, {-3, 0});
  bench.fire(2 * kSecond);
  CHECK(bench.states() == Values{-3, 0});
  CHECK(bench.director.emitted.empty());
  CHECK(bench.director.requested.empty());
}

TEST_CASE("Integrator: a scalar initial value gives one state") {
  Integrator integrator("x");
  integrator.set_parameter("initial", 5.0);
  Bench bench(integrator, {1, 1, 1}, {1});
  CHECK(integrator.state_size() == 1);
  bench.initialize();
  CHECK(bench.states() == Values{5});
  bench.set_input(0, {-2});
  CHECK(bench.derivatives() == Values{-2});
}

TEST_CASE("StateSpace: outputs and derivatives of a 2-state system") {
  StateSpace ss("ss");
  ss.set_parameter("A", Matrix{2, 2, {0, 1, -2, -3}});
  ss.set_parameter("B", Matrix{2, 1, {0, 1}});
  ss.set_parameter("C", Matrix{1, 2, {1, 2}});
  ss.set_parameter("D", Matrix{1, 1, {0.5}});
  ss.set_parameter("initial", Values{1, -1});
  Bench bench(ss, {1}, {1});
  CHECK(ss.state_size() == 2);
  CHECK(ss.feeds_through(0));
  bench.initialize();
  CHECK(bench.states() == Values{1, -1});
  bench.set_input(0, {4});
  // y = C x + D u = 1 - 2 + 2; x' = A x + B u = (-1, -2 + 3 + 4)
  check_close(bench.evaluate(0.0), {1});
  check_close(bench.derivatives(), {-1, 5});

  bench.set_states({0.5, 2});
  bench.set_input(0, {-2});
  check_close(bench.evaluate(0.1), {0.5 + 4 - 1});
  check_close(bench.derivatives(), {2, -1 - 6 - 2});
}

TEST_CASE("StateSpace: D = 0 (the scalar) means no feedthrough; initial broadcasts") {
  StateSpace ss("ss");
  ss.set_parameter("A", Matrix{2, 2, {-1, 0, 1, -2}});
  ss.set_parameter("B", Matrix{2, 2, {1, 0, 0, 3}});
  ss.set_parameter("C", Matrix{2, 2, {1, 0, 3, 4}});
  ss.set_parameter("initial", 2.0);
  Bench bench(ss, {2}, {2});
  CHECK_FALSE(ss.feeds_through(0));
  bench.initialize();
  CHECK(bench.states() == Values{2, 2});
  // The input is not read by evaluate: a NaN there does not reach the output.
  bench.set_input(0, {std::nan(""), std::nan("")});
  check_close(bench.evaluate(0.0), {2, 14});
  bench.set_input(0, {1, -1});
  check_close(bench.derivatives(), {-2 + 1, 2 - 4 - 3});
}

TEST_CASE("TransferFunction: 1/(s^2 + 3s + 2) in controllable canonical form") {
  TransferFunction tf("tf");
  tf.set_parameter("num", Values{1});
  tf.set_parameter("den", Values{1, 3, 2});
  Bench bench(tf, {1}, {1});
  CHECK(tf.state_size() == 2);
  CHECK_FALSE(tf.feeds_through(0));
  bench.initialize();
  CHECK(bench.states() == Values{0, 0});
  CHECK(bench.out() == Values{0});

  // x1 = z, x2 = z': x1' = x2, x2' = u - 2 x1 - 3 x2; y = x1.
  bench.set_states({0.5, -1});
  bench.set_input(0, {2});
  check_close(bench.derivatives(), {-1, 2 - 1 + 3});
  check_close(bench.evaluate(0.0), {0.5});
  // The steady state for u = 2 is x = (1, 0): y = H(0) u = 1.
  bench.set_states({1, 0});
  check_close(bench.derivatives(), {0, 0});
  check_close(bench.evaluate(0.0), {1});
}

TEST_CASE("TransferFunction: a proper one has a direct term; normalised by den[0]") {
  // (2s^2 + 3s + 6) / (2s^2 + 6s + 4) = 1 + (-1.5 s + 1) / (s^2 + 3s + 2)
  TransferFunction tf("tf");
  tf.set_parameter("num", Values{2, 3, 6});
  tf.set_parameter("den", Values{2, 6, 4});
  Bench bench(tf, {1}, {1});
  CHECK(tf.state_size() == 2);
  CHECK(tf.feeds_through(0));
  bench.initialize();
  bench.set_states({0.5, -1});
  bench.set_input(0, {2});
  check_close(bench.derivatives(), {-1, 4});
  check_close(bench.evaluate(0.0), {2 + 1.5 + 0.5});  // u - 1.5 x2 + x1
  // Steady state for u = 2: x = (1, 0), y = H(0) u = 1.5 * 2.
  bench.set_states({1, 0});
  check_close(bench.evaluate(0.0), {3});
}

TEST_CASE("TransferFunction: a first-order lag with leading zeros in num") {
  TransferFunction tf("tf");
  tf.set_parameter("num", Values{0, 0, 4});
  tf.set_parameter("den", Values{2, 1});  // 4 / (2s + 1) = 2 / (s + 0.5)
  Bench bench(tf, {1}, {1});
  CHECK(tf.state_size() == 1);
  CHECK_FALSE(tf.feeds_through(0));
  bench.initialize();
  bench.set_states({3});
  bench.set_input(0, {1});
  check_close(bench.derivatives(), {1 - 1.5});
  check_close(bench.evaluate(0.0), {6});
}
