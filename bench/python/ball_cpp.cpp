// The C++ side of bench/python/bench_python.py's first figure: a model file
// run exactly as ctde.load(path, set=...).run() runs it — loaded with the
// overrides, set up as the command does (set_up_run), run by a
// Director into ColumnarResults — so that the two times differ only by what
// Python adds.
//
//   python_ball_cpp MODEL.json REPEATS STOP_TIME|- [NAME=VALUE...]
//
// Prints `best_s=<the best wall time of one load + run> rows=<rows>`.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "actors/builtin_actors.hpp"
#include "core/columnar_results.hpp"
#include "core/model_file.hpp"
#include "domains/ctde/director.hpp"
#include "run/run_setup.hpp"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: python_ball_cpp MODEL.json REPEATS STOP_TIME|- [NAME=VALUE...]\n");
    return 2;
  }
  const std::string path = argv[1];
  const int repeats = std::atoi(argv[2]);
  const std::string stop = argv[3];
  const std::optional<double> stop_time =
      stop == "-" ? std::nullopt : std::optional<double>(std::strtod(stop.c_str(), nullptr));
  const std::vector<std::string> sets(argv + 4, argv + argc);
  double best = std::numeric_limits<double>::infinity();
  std::size_t rows = 0;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    ctde::Model model = ctde::load_model_file(path, ctde::builtin_actors(), ctde::parse_overrides(sets));
    ctde::RunSetup setup = ctde::set_up_run(model, stop_time);
    ctde::ColumnarResults results(std::move(setup.signals), 4096);
    ctde::Director director(setup.flat, setup.options, model.name(), nullptr, &results);
    const ctde::RunResult result = director.run();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    if (result.status != ctde::RunStatus::kOk) {
      std::fprintf(stderr, "run failed: %s\n", result.message.c_str());
      return 3;
    }
    best = std::min(best, took.count());
    rows = results.rows();
  }
  std::printf("best_s=%.6f rows=%zu\n", best, rows);
  return 0;
}
