// The state-event benchmark models (issue 5) built from ctde actors, the same
// balls as handwritten_ball.cpp and scipy_balls.py (erk45 = Dormand-Prince):
//
//   ball1     the bouncing ball of examples/models/bouncing_ball.json with e = 1:
//             Constant gravity (-g) → Integrator v → Integrator h →
//             ZeroCrossingDetector ground (falling) → Sampler v_at_impact
//             (trigger; in = v) → Gain rebound (-e) → v.reset; h(0) = 10 m,
//             g = 9.81 m/s², until just after impact 1000 (stop at 2000 t1);
//             ball1@N: until just after impact N
//   balls100  100 such balls (one shared gravity, each ball its own v, h,
//             detector, sampler and gain: 501 actors, 200 states, 100 guards),
//             h_i(0) = 1 + 0.0999 i m, t in [0, 20] s, 1035 impacts (see
//             handwritten_ball.cpp for why not 1 + 0.1 i)
//
//   ball_bench [ball1|ball1@N|balls100|all] [repeats] [rtol atol]
//     (no tolerances: rtol 1e-10 atol 1e-12, then rtol 1e-6 atol 1e-9)
//
// Prints key=value lines like handwritten_ball: the best wall time of the runs
// (director construction to the end of run(), no trace, no recorder), the
// impacts and their worst absolute and relative error against the closed form
// t_ik = (2k - 1) sqrt(2 h_i(0) / g), steps, RHS evaluations. The impact times
// come from one more run with a trace written to memory: its `state_event`
// lines (t, actor).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "actors/builtin_actors.hpp"
#include "balls.hpp"
#include "core/trace.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"

namespace {

using namespace balls;

ctde::Actor& add(ctde::Model& model, const std::string& type, const std::string& name) {
  return model.top().add(ctde::builtin_actors().make(type, name));
}

/// "name" for a single ball, "name<i>" in a set of several.
std::string ball_name(const char* prefix, std::size_t i, bool several) {
  std::string name = prefix;
  if (several) name += std::to_string(i);
  return name;
}

std::string port(const std::string& actor, const char* name) {
  std::string endpoint = actor;
  endpoint += '.';
  endpoint += name;
  return endpoint;
}

ctde::Model make_model(const Balls& balls) {
  ctde::Model model(balls.name);
  add(model, "Constant", "gravity").set_parameter("value", -kGravity);
  const bool several = balls.h0.size() > 1;
  for (std::size_t i = 0; i < balls.h0.size(); ++i) {
    const std::string v = ball_name("v", i, several);
    const std::string h = ball_name("h", i, several);
    const std::string ground = ball_name("ground", i, several);
    const std::string sampler = ball_name("v_at_impact", i, several);
    const std::string rebound = ball_name("rebound", i, several);
    add(model, "Integrator", v).set_parameter("initial", 0.0);
    add(model, "Integrator", h).set_parameter("initial", balls.h0[i]);
    add(model, "ZeroCrossingDetector", ground).set_parameter("direction", std::string("falling"));
    add(model, "Sampler", sampler);
    add(model, "Gain", rebound).set_parameter("k", -kRestitution);
    model.connect("gravity.out", port(v, "in"));
    model.connect(port(v, "out"), port(h, "in"));
    model.connect(port(h, "out"), port(ground, "in"));
    model.connect(port(v, "out"), port(sampler, "in"));
    model.connect(port(ground, "out"), port(sampler, "trigger"));
    model.connect(port(sampler, "out"), port(rebound, "in"));
    model.connect(port(rebound, "out"), port(v, "reset"));
  }
  return model;
}

/// The value of `"key":` in a trace line: a number or (quotes stripped) a string.
std::string field(const std::string& line, const char* key) {
  std::string needle = "\"";
  needle += key;
  needle += "\":";
  const auto at = line.find(needle);
  if (at == std::string::npos) return {};
  auto start = at + needle.size();
  if (line[start] == '"') {
    ++start;
    return line.substr(start, line.find('"', start) - start);
  }
  return line.substr(start, line.find_first_of(",}", start) - start);
}

/// The `state_event` lines of a trace, as (ball, t), in the order they happened.
std::vector<Impact> impacts_from_trace(const std::string& trace, const Balls& balls) {
  std::vector<Impact> impacts;
  std::istringstream lines(trace);
  std::string line;
  const bool several = balls.h0.size() > 1;
  while (std::getline(lines, line)) {
    if (field(line, "kind") != "state_event") continue;
    const std::string actor = field(line, "actor");
    std::size_t ball = 0;
    if (several) ball = static_cast<std::size_t>(std::stoul(actor.substr(std::string("ground").size())));
    impacts.push_back({ball, std::strtod(field(line, "t").c_str(), nullptr)});
  }
  return impacts;
}

bool bench(const Balls& balls, double rtol, double atol, int repeats) {
  ctde::Model model = make_model(balls);
  const ctde::FlatModel flat = ctde::validate(model);
  ctde::RunOptions options;
  options.stop_time = balls.stop_time;
  options.rtol = rtol;
  options.atol = atol;
  // SUBSYSTEMS=joined: one integrator for every ball (the default splits them).
  const char* subsystems = std::getenv("SUBSYSTEMS");
  options.subsystems = subsystems != nullptr && std::string(subsystems) == "joined"
                           ? ctde::Subsystems::kJoined
                           : ctde::Subsystems::kSplit;
  double best = 1e300;
  ctde::RunResult result;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    ctde::Director director(flat, options, balls.name);
    result = director.run();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (result.status != ctde::RunStatus::kOk) break;
  }
  std::vector<Impact> impacts;
  if (result.status == ctde::RunStatus::kOk) {  // one more run with a trace, for the impact times
    std::ostringstream text;
    {
      ctde::TraceWriter trace(text);
      ctde::Director director(flat, options, balls.name, &trace);
      result = director.run();
      trace.flush();
    }
    impacts = impacts_from_trace(text.str(), balls);
  }
  const Errors errors = impact_errors(balls, impacts);
  std::printf(
      "impl=ctde model=%s n=%zu actors=%zu rtol=%g atol=%g wall_s=%.6f impacts=%zu expected=%ld "
      "max_abs_err=%.3e max_rel_err=%.3e worst_ball=%ld worst_impact=%ld steps=%llu rejected=%llu "
      "rhs_evals=%llu state_events=%llu repeats=%d status=%s",
      balls.name.c_str(), balls.h0.size(), flat.actors.size(), rtol, atol, best, impacts.size(),
      expected_impacts(balls), errors.max_abs, errors.max_rel, errors.worst_ball, errors.worst_impact,
      static_cast<unsigned long long>(result.stats.steps),
      static_cast<unsigned long long>(result.stats.rejected_steps),
      static_cast<unsigned long long>(result.stats.rhs_evals),
      static_cast<unsigned long long>(result.stats.state_events), repeats, ctde::to_string(result.status));
  if (result.status != ctde::RunStatus::kOk) std::printf(" message=\"%s\"", result.message.c_str());
  std::printf("\n");
  std::fflush(stdout);
  return result.status == ctde::RunStatus::kOk;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "all";
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  if ((which != "all" && which != "balls100" && ball1_impacts(which) == 0) || argc == 4 || argc > 5) {
    std::fprintf(stderr, "usage: %s [ball1|ball1@N|balls100|all] [repeats] [rtol atol]\n", argv[0]);
    return 2;
  }
  std::vector<std::pair<double, double>> tolerances{{1e-10, 1e-12}, {1e-6, 1e-9}};
  if (argc == 5) tolerances = {{std::atof(argv[3]), std::atof(argv[4])}};
  bool ok = true;
  for (const auto& [rtol, atol] : tolerances) {
    if (ball1_impacts(which) > 0) ok = bench(ball1(ball1_impacts(which)), rtol, atol, repeats) && ok;
    if (which == "all" || which == "balls100") ok = bench(balls100(), rtol, atol, repeats) && ok;
  }
  return ok ? 0 : 1;
}
