// The converters (actors/converters/), called directly through hand-made
// contexts: no director, no solver.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "actors/converters/first_order_hold.hpp"
#include "actors/converters/periodic_sampler.hpp"
#include "actors/converters/sampler.hpp"
#include "actors/converters/zero_order_hold.hpp"
#include "support/actor_bench.hpp"

using namespace ctde;
using namespace ctde::test;

TEST_CASE("ZeroOrderHold: initial (broadcast) until the first token, then the last token") {
  ZeroOrderHold zoh("zoh");
  zoh.set_parameter("initial", 3.0);
  Bench bench(zoh, {2}, {2});
  bench.initialize();
  CHECK(bench.out() == Values{3, 3});
  CHECK(bench.evaluate(0.5) == Values{3, 3});
  bench.give_token(0, {1, 2});
  bench.fire(kSecond);
  CHECK(bench.out() == Values{1, 2});
  CHECK(bench.evaluate(1.7) == Values{1, 2});
  bench.fire(2 * kSecond);  // no token: keeps holding
  CHECK(bench.evaluate(2.5) == Values{1, 2});
  bench.give_token(0, {-4, 8});
  bench.fire(3 * kSecond);
  CHECK(bench.evaluate(3.0) == Values{-4, 8});
}

TEST_CASE("FirstOrderHold: holds until two tokens, then extrapolates from the last two") {
  FirstOrderHold foh("foh");
  foh.set_parameter("initial", Values{0.5});
  Bench bench(foh, {1}, {1});
  bench.initialize();
  CHECK(bench.out() == Values{0.5});
  bench.give_token(0, {1});
  bench.fire(kSecond);
  CHECK(bench.out() == Values{1});
  CHECK(bench.evaluate(1.8) == Values{1});  // one token: hold
  bench.give_token(0, {3});
  bench.fire(2 * kSecond);
  check_close(bench.out(), {3});
  check_close(bench.evaluate(2.5), {4});
  check_close(bench.evaluate(3.0), {5});
  bench.give_token(0, {2});
  bench.fire(4 * kSecond);  // slope (2 - 3) / 2
  check_close(bench.evaluate(5.0), {1.5});
}

TEST_CASE("PeriodicSampler: exact ticks start + offset + k * period, emitting the input") {
  PeriodicSampler sampler("sampler");
  sampler.set_parameter("period", 0.25);
  sampler.set_parameter("offset", 0.1);
  Bench bench(sampler, {2}, {2});
  bench.director.start = kSecond;
  bench.director.stop = 2 * kSecond;
  bench.initialize();
  const Tick first = kSecond + kSecond / 10;
  const Tick period = kSecond / 4;
  auto& requested = bench.director.requested;
  CHECK(requested == std::vector<Tick>{first});

  bench.set_input(0, {2.5, -1});
  bench.time_event(first);
  REQUIRE(bench.director.emitted.size() == 1);
  CHECK(bench.director.emitted[0].output == 0);
  CHECK(bench.director.emitted[0].token == Values{2.5, -1});
  CHECK(requested.back() == first + period);

  bench.set_input(0, {7, 8});
  bench.time_event(first + period);
  CHECK(bench.director.emitted.back().token == Values{7, 8});
  bench.time_event(first + 2 * period);
  bench.time_event(first + 3 * period);  // 1.85 s; the next, 2.1 s, is after the stop
  CHECK(requested == std::vector<Tick>{first, first + period, first + 2 * period, first + 3 * period});
  CHECK(bench.director.emitted.size() == 4);

  bench.fire(first + 3 * period, 1);  // not a time event: nothing
  CHECK(bench.director.emitted.size() == 4);
}

TEST_CASE("PeriodicSampler: no drift over many periods") {
  PeriodicSampler sampler("sampler");
  sampler.set_parameter("period", 0.1);
  Bench bench(sampler, {1}, {1});
  bench.director.stop = 1000 * kSecond;
  bench.initialize();
  auto& requested = bench.director.requested;
  for (int k = 0; k < 5000; ++k) bench.time_event(requested.back());
  REQUIRE(requested.size() == 5001);
  for (std::size_t k = 0; k < requested.size(); ++k) {
    CAPTURE(k);
    CHECK(requested[k] == static_cast<Tick>(k) * (kSecond / 10));
  }
}

TEST_CASE("Sampler: emits the input on each trigger token") {
  Sampler sampler("sampler");
  Bench bench(sampler, {2, 1}, {2});
  bench.initialize();
  bench.set_input(0, {4, 5});
  bench.fire(kSecond);  // no trigger
  CHECK(bench.director.emitted.empty());
  bench.give_token(1, {1});
  bench.fire(kSecond, 1);
  REQUIRE(bench.director.emitted.size() == 1);
  CHECK(bench.director.emitted[0].output == 0);
  CHECK(bench.director.emitted[0].token == Values{4, 5});
  bench.set_input(0, {-1, 0.5});
  bench.give_token(1, {0});
  bench.fire(2 * kSecond);
  CHECK(bench.director.emitted.back().token == Values{-1, 0.5});
  CHECK(bench.director.requested.empty());
}
