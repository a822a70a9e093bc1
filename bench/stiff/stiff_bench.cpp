// The stiff benchmark's ctde side: a model file (bench/stiff/make_models.py
// writes them) loaded, validated and run as `ctde run` runs it, the run
// timed alone (Director::run, recording the model's `record` in memory),
// best of `repeats`; the load and validation are timed once.
//
//   stiff_bench MODEL.json [repeats] [solver] [linear_solver]
//
// Prints one key=value line: n (states), wall_s (the best run), load_s,
// steps, rhs_evals, the sum of the last row's recorded values (checksum),
// the last row itself for up to 4 values (last), the run's status and the
// process's peak resident memory (peak_mib).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "actors/builtin_actors.hpp"
#include "core/columnar_results.hpp"
#include "core/model_file.hpp"
#include "domains/ctde/director.hpp"
#include "run/run_setup.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double peak_mib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::atof(line.c_str() + 6) / 1024.0;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: stiff_bench MODEL.json [repeats] [solver] [linear_solver]\n");
    return 2;
  }
  const std::string path = argv[1];
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  const auto load_start = std::chrono::steady_clock::now();
  ctde::Model model = ctde::load_model_file(path, ctde::builtin_actors());
  ctde::RunSetup setup = ctde::set_up_run(model, std::nullopt);
  const double load_s = seconds_since(load_start);
  if (argc > 3) setup.options.solver = *ctde::solver_kind(argv[3]);
  if (argc > 4) setup.options.linear_solver = *ctde::linear_solver_kind(argv[4]);

  std::size_t states = 0;
  for (const ctde::FlatActor& a : setup.flat.actors) states += a.actor->state_size();

  double best = 1e300;
  ctde::RunResult result;
  double checksum = 0;
  std::string last;
  for (int r = 0; r < repeats; ++r) {
    ctde::ColumnarResults results(setup.signals);
    ctde::Director director(setup.flat, setup.options, model.name(), nullptr, &results);
    const auto start = std::chrono::steady_clock::now();
    result = director.run();
    best = std::min(best, seconds_since(start));
    checksum = 0;
    last.clear();
    const std::size_t row = results.rows() - 1;
    for (std::size_t c = 0; c < results.columns(); ++c) {
      const double v = results.column(c)[row];
      checksum += v;
      if (c >= 4) continue;
      if (!last.empty()) last += ',';
      char text[32];
      std::snprintf(text, sizeof text, "%.10g", v);
      last += text;
    }
  }
  std::printf(
      "impl=ctde model=%s solver=%s n=%zu wall_s=%.6f load_s=%.3f steps=%llu rhs_evals=%llu checksum=%.17g "
      "last=%s status=%s peak_mib=%.0f repeats=%d\n",
      model.name().c_str(), ctde::to_string(setup.options.solver), states, best, load_s,
      static_cast<unsigned long long>(result.stats.steps),
      static_cast<unsigned long long>(result.stats.rhs_evals), checksum, last.c_str(),
      ctde::to_string(result.status), peak_mib(), repeats);
  return result.status == ctde::RunStatus::kOk ? 0 : 1;
}
