// The bouncing ball as an FMU (tests/fmi/ball.c, Model Exchange) against the
// native ctde ball (Integrators, a ZeroCrossingDetector, a Sampler and a
// Gain: examples/models/bouncing_ball.json's network), with e = 1 so that
// it bounces for ever: h(0) = 10 m, g = 9.81 m/s^2, impacts at
// (2k - 1) sqrt(2 h0 / g), same tolerances, until just after impact N.
//
//   fmu_ball_bench [impacts] [repeats] [rtol atol] [ball.fmu] [native|fmu]
//     (defaults: 200 impacts, 5 repeats, rtol 1e-10 atol 1e-12, the ball
//      the tests build; the last argument runs only one of the two, for
//      instruction counts: valgrind --tool=callgrind
//      --toggle-collect='ctde::Director::run()' fmu_ball_bench 1000 1 1e-10 1e-12 "" fmu)
//
// Prints key=value lines: the best wall time of each (director construction
// to the end of run(), no trace, no recorder), the impacts counted (reset
// lines of a traced run) and their worst error against the closed form,
// steps and RHS evaluations, and the ratio fmu/native.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>

#include "actors/builtin_actors.hpp"
#include "core/model_file.hpp"
#include "core/trace.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"
#include "domains/ctde/run_options.hpp"

namespace {

constexpr double kG = 9.81;
constexpr double kH0 = 10.0;

std::string director(double stop, double rtol, double atol) {
  std::ostringstream d;
  d.precision(17);
  d << R"("director": {"stop_time": )" << stop << R"(, "rtol": )" << rtol << R"(, "atol": )" << atol << "}";
  return d.str();
}

std::string fmu_model(const std::string& fmu, const std::string& dir) {
  return R"({"ctde": 1, "name": "fmu_ball", )" + dir + R"(, "actors": [{"name": "ball", "type": "FMU",
    "params": {"file": ")" +
         fmu + R"(", "start": {"e": 1, "h": 10, "g": 9.81}}}]})";
}

std::string native_model(const std::string& dir) {
  return R"({"ctde": 1, "name": "native_ball", )" + dir + R"(, "actors": [
    {"name": "gravity", "type": "Constant", "params": {"value": -9.81}},
    {"name": "v", "type": "Integrator", "params": {"initial": 0}},
    {"name": "h", "type": "Integrator", "params": {"initial": 10}},
    {"name": "ground", "type": "ZeroCrossingDetector", "params": {"direction": "falling"}},
    {"name": "v_at_impact", "type": "Sampler"},
    {"name": "rebound", "type": "Gain", "params": {"k": -1}}],
  "connections": [["gravity.out", "v.in"], ["v.out", "h.in"], ["h.out", "ground.in"],
    ["v.out", "v_at_impact.in"], ["ground.out", "v_at_impact.trigger"],
    ["v_at_impact.out", "rebound.in"], ["rebound.out", "v.reset"]]})";
}

struct Measured {
  double seconds = std::numeric_limits<double>::infinity();
  ctde::RunResult result;
  int impacts = 0;
  double worst = 0;
};

Measured measure(const std::string& text, int repeats, int n) {
  Measured m;
  ctde::Model model = ctde::load_model_text(text, "bench.json", ctde::builtin_actors());
  const ctde::FlatModel flat = ctde::validate(model);
  const ctde::RunOptions options = ctde::make_run_options(model.director(), model.parameters());
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    ctde::Director director(flat, options, model.name(), nullptr, nullptr);
    m.result = director.run();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    m.seconds = std::min(m.seconds, s);
  }
  // One traced run for the impact times: the reset lines (v's reset, the FMU's states).
  std::ostringstream out;
  {
    ctde::TraceWriter trace(out);
    ctde::Director director(flat, options, model.name(), &trace, nullptr);
    (void)director.run();
  }
  const double t1 = std::sqrt(2 * kH0 / kG);
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    if (line.find(R"("kind":"reset")") == std::string::npos) continue;
    const auto at = line.find(R"("t":)");
    const double t = std::strtod(line.c_str() + at + 4, nullptr);
    ++m.impacts;
    m.worst = std::max(m.worst, std::fabs(t - (2 * m.impacts - 1) * t1));
  }
  (void)n;
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 200;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
  const double rtol = argc > 4 ? std::atof(argv[3]) : 1e-10;
  const double atol = argc > 4 ? std::atof(argv[4]) : 1e-12;
  const std::string fmu = argc > 5 && argv[5][0] != '\0' ? argv[5] : CTDE_BENCH_BALL_FMU;
  const std::string only = argc > 6 ? argv[6] : "";
  const double t1 = std::sqrt(2 * kH0 / kG);
  const std::string dir = director((2 * n - 1) * t1 + t1, rtol, atol);  // just after impact n
  if (!only.empty()) {
    const Measured m = measure(only == "fmu" ? fmu_model(fmu, dir) : native_model(dir), repeats, n);
    std::printf("%s_seconds=%.6f\n%s_impacts=%d\n", only.c_str(), m.seconds, only.c_str(), m.impacts);
    return m.impacts == n ? 0 : 1;
  }
  const Measured native = measure(native_model(dir), repeats, n);
  const Measured from_fmu = measure(fmu_model(fmu, dir), repeats, n);
  for (const auto& [name, m] : {std::pair{"native", &native}, std::pair{"fmu", &from_fmu}}) {
    std::printf("%s_seconds=%.6f\n%s_impacts=%d\n%s_worst_error=%.3g\n%s_steps=%llu\n%s_rhs=%llu\n", name,
                m->seconds, name, m->impacts, name, m->worst, name,
                static_cast<unsigned long long>(m->result.stats.steps), name,
                static_cast<unsigned long long>(m->result.stats.rhs_evals));
  }
  std::printf("ratio_fmu_over_native=%.3f\n", from_fmu.seconds / native.seconds);
  return native.impacts == n && from_fmu.impacts == n ? 0 : 1;
}
