// DiscreteIntegrator and DiscretePID (issue 37: the discrete forms Simulink
// users reach for): against the closed forms of integrating t sampled every
// T by each method, one against the other, vectors, and their errors.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/model_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

constexpr double kPeriod = 0.25;  // the tokens: t_k = k T, k = 0..8

/// A clock every kPeriod up to 2 s into CurrentTime (u[k] = t_k) into `actor`, named "i".
Run of_time(const std::string& actor) {
  return run_model(R"({"ctde": 1, "director": {"stop_time": 2},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 0.25}},
               {"name": "t", "type": "CurrentTime"}, {"name": "i", )" +
                   actor + R"(}],
    "connections": [["clock.out", "t.trigger"], ["t.out", "i.in"]]})");
}

/// Checks the tokens of "i" against y(k) at t = k T.
template <typename Closed>
void check_tokens(const Run& run, Closed y) {
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  const auto sent = events_of(run, "i");
  REQUIRE(sent.size() == 9);
  for (std::size_t k = 0; k < sent.size(); ++k) {
    CAPTURE(k);
    CHECK(sent[k].first == doctest::Approx(static_cast<double>(k) * kPeriod).epsilon(1e-15));
    CHECK(sent[k].second == doctest::Approx(y(static_cast<double>(k))).epsilon(1e-14));
  }
}

}  // namespace

TEST_CASE("DiscreteIntegrator integrates u = t by each method to its closed form") {
  // gain 2, initial 1: forward 1 + 2 T^2 (0 + 1 + ... + k-1), backward 1 + 2 T^2 (1 + ... + k),
  // trapezoidal 1 + (k T)^2, exact for a ramp.
  const double t2 = kPeriod * kPeriod;
  check_tokens(of_time(R"("type": "DiscreteIntegrator", "params": {"gain": 2, "initial": 1})"),
               [&](double k) { return 1 + t2 * k * (k - 1); });
  check_tokens(
      of_time(
          R"("type": "DiscreteIntegrator", "params": {"gain": 2, "initial": 1, "method": "backward_euler"})"),
      [&](double k) { return 1 + t2 * k * (k + 1); });
  check_tokens(
      of_time(
          R"("type": "DiscreteIntegrator", "params": {"gain": 2, "initial": 1, "method": "trapezoidal"})"),
      [&](double k) { return 1 + t2 * k * k; });
}

TEST_CASE("DiscretePID: kp e + ki I + kd (e[k] - e[k-1]) / h of u = t") {
  // e = t: the difference quotient is 1 after the first token; I by trapezoids is (k T)^2 / 2 + initial.
  check_tokens(of_time(R"("type": "DiscretePID",
      "params": {"kp": 3, "ki": 2, "kd": 0.5, "method": "trapezoidal", "initial": 0.25})"),
               [](double k) {
                 const double t = k * kPeriod;
                 return 3 * t + 2 * (t * t / 2 + 0.25) + (k > 0 ? 0.5 : 0.0);
               });
  // its integral alone is DiscreteIntegrator's, token for token, by each method
  for (const std::string method : {"forward_euler", "backward_euler", "trapezoidal"}) {
    CAPTURE(method);
    const auto pid =
        of_time(R"("type": "DiscretePID", "params": {"kp": 0, "ki": 1.5, "method": ")" + method + R"("})");
    const auto integrator =
        of_time(R"("type": "DiscreteIntegrator", "params": {"gain": 1.5, "method": ")" + method + R"("})");
    CHECK(events_of(pid, "i") == events_of(integrator, "i"));
  }
}

TEST_CASE("DiscreteIntegrator works element by element, `initial` per element") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 2},
    "actors": [{"name": "clock", "type": "DiscreteClock", "params": {"period": 1}},
               {"name": "u", "type": "Constant", "params": {"value": [1, -2]}},
               {"name": "s", "type": "Sampler"},
               {"name": "i", "type": "DiscreteIntegrator", "params": {"initial": [10, 20]}}],
    "connections": [["clock.out", "s.trigger"], ["u.out", "s.in"], ["s.out", "i.in"]]})");
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  // forward Euler of a constant: initial + k u at t = k
  std::vector<std::vector<double>> sent;
  for (const auto& line : run.lines) {
    if (line["kind"] == "event" && line["actor"] == "i")
      sent.push_back(line["value"].get<std::vector<double>>());
  }
  CHECK(sent == std::vector<std::vector<double>>{{10, 20}, {11, 18}, {12, 16}});
}

TEST_CASE("DiscreteIntegrator and DiscretePID refuse an unknown method and a gain that is not finite") {
  const auto error_of = [](const std::string& type, const std::string& params) {
    return model_file_error(R"({"ctde": 1, "director": {"stop_time": 1},
      "actors": [{"name": "clock", "type": "DiscreteClock"}, {"name": "i", "type": ")" +
                            type + R"(", "params": )" + params + R"(}],
      "connections": [["clock.out", "i.in"]]})");
  };
  CHECK(error_of("DiscreteIntegrator", R"({"method": "euler"})")
            .find("actor 'i' (DiscreteIntegrator), parameter 'method': must be \"forward_euler\", "
                  "\"backward_euler\" or \"trapezoidal\", got \"euler\"") != std::string::npos);
  CHECK(error_of("DiscretePID", R"({"method": "rk4"})")
            .find("actor 'i' (DiscretePID), parameter 'method': must be") != std::string::npos);
  CHECK(error_of("DiscretePID", R"({"kd": "1/0"})").find("parameter 'kd': must be finite, got inf") !=
        std::string::npos);
}
