// Conformance: run options are checked however they are made — from a model
// file's `director` or in C++ — and bad ones stop before anything runs.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

/// A one-integrator model, validated (x' = 1).
struct SmallModel {
  Model model = load(R"({"ctde": 1, "name": "small", "director": {"stop_time": 1},
    "actors": [{"name": "one", "type": "Constant", "params": {"value": 1}},
               {"name": "x", "type": "Integrator"}],
    "connections": [["one.out", "x.in"]]})");
  FlatModel flat = validate(model);
};

/// The ModelError message of making a Director with `options`, or "".
std::string director_error(const RunOptions& options) {
  SmallModel small;
  try {
    Director director(small.flat, options, "small", nullptr, nullptr);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a Director made in C++ with stop_time -5 throws a ModelError naming stop_time") {
  RunOptions options;
  options.stop_time = -5;
  CHECK(director_error(options) ==
        "director option 'stop_time' must be finite and after start_time (0), got -5");
}

TEST_CASE("every run option is checked for a Director made in C++, naming the option") {
  const auto error_with = [](auto change) {
    RunOptions options;
    options.stop_time = 1;
    change(options);
    return director_error(options);
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(error_with([](RunOptions&) {}).empty());
  CHECK(error_with([&](RunOptions& o) { o.start_time = nan; }) ==
        "director option 'start_time' must be finite, got nan");
  CHECK(error_with([&](RunOptions& o) { o.stop_time = inf; }).find("'stop_time' must be finite") !=
        std::string::npos);
  CHECK(error_with([](RunOptions& o) { o.stop_time = 1e7; })
            .find("director option 'stop_time': time 1e+07 s is "
                  "beyond the representable horizon") == 0);
  CHECK(error_with([](RunOptions& o) {
          o.time_resolution = 2;
        }).find("director option 'time_resolution': time_resolution 2 is outside") == 0);
  CHECK(error_with([](RunOptions& o) { o.rtol = 0; }) ==
        "director option 'rtol' must be a finite number > 0, got 0");
  CHECK(error_with([&](RunOptions& o) { o.atol = nan; }) ==
        "director option 'atol' must be a finite number > 0, got nan");
  CHECK(error_with([](RunOptions& o) { o.initial_step = -1.0; }) ==
        "director option 'initial_step' must be a finite number > 0, got -1");
  CHECK(error_with([](RunOptions& o) { o.min_step = 0.0; }) ==
        "director option 'min_step' must be a finite number > 0, got 0");
  CHECK(error_with([&](RunOptions& o) { o.max_step = inf; }).empty());  // no upper bound
  CHECK(error_with([](RunOptions& o) { o.max_step = 0.0; }) ==
        "director option 'max_step' must be a finite number > 0, got 0");
  CHECK(error_with([](RunOptions& o) {
          o.min_step = 0.2;
          o.max_step = 0.1;
        }) == "director option 'min_step' (0.2) exceeds 'max_step' (0.1)");
  CHECK(error_with([](RunOptions& o) { o.max_microsteps = 0; }) ==
        "director option 'max_microsteps' must be a whole number from 1 to 1e9, got 0");
  CHECK(error_with([](RunOptions& o) { o.event_tolerance = -1e-9; }) ==
        "director option 'event_tolerance' must be a finite number > 0, got -1e-09");
  CHECK(error_with([](RunOptions& o) { o.output_interval = 0.0; }) ==
        "director option 'output_interval' must be a finite number > 0, got 0");
}

TEST_CASE("a model file's director options go through the same check") {
  try {
    Model model =
        load(R"({"ctde": 1, "director": {"stop_time": -5}, "actors": [{"name": "c", "type": "Clock"}]})");
    (void)make_run_options(model.director(), model.parameters());
    FAIL("no error");
  } catch (const ModelError& e) {
    CHECK(std::string(e.what()) ==
          "director option 'stop_time' must be finite and after start_time (0), got -5");
  }
}
