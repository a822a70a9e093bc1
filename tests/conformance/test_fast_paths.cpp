// The switch of the fast paths (core/fast_paths.hpp): this file runs twice
// in the test command, with the fast paths on (ctest's `unit`) and with
// CTDE_FAST_PATHS=off (`conformance_general`, with the whole conformance
// suite); each run checks what its setting must give.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "actors/continuous/row_blocks.hpp"
#include "core/fast_paths.hpp"
#include "support/run_helpers.hpp"

namespace {

bool switched_off() {
  const char* value = std::getenv("CTDE_FAST_PATHS");  // NOLINT(concurrency-mt-unsafe)
  return value != nullptr && std::string_view(value) == "off";
}

/// A damped oscillator under erk45, on `integrator`'s stepper.
std::string oscillator(const std::string& integrator) {
  return R"({"ctde": 1, "director": {"stop_time": 3, "output_interval": 0.25, "solver": "erk45",
    "integrator": ")" +
         integrator + R"("}, "actors": [
      {"name": "x", "type": "Integrator", "params": {"initial": 1}},
      {"name": "v", "type": "Integrator"},
      {"name": "a", "type": "Sum", "params": {"signs": "--"}},
      {"name": "c", "type": "Gain", "params": {"k": 0.3}}],
    "connections": [["x.out", "a.in0"], ["v.out", "c.in"], ["c.out", "a.in1"], ["a.out", "v.in"],
                    ["v.out", "x.in"]], "record": ["x.out", "v.out"]})";
}

}  // namespace

TEST_CASE("CTDE_FAST_PATHS=off switches every fast path off, and only then") {
  CHECK(ctde::fast_paths_enabled() == !switched_off());
  // StateSpace's products: packed rows, or the plain row-major loop.
  const std::vector<double> left = {1, 2, 3, 4};
  const ctde::RowBlocks blocks(left, {}, 2, 2, 0);
  CHECK(blocks.plain() == switched_off());
  const double v[] = {0.5, -1.0};
  double y[2] = {};
  blocks.multiply(v, nullptr, y);
  CHECK(y[0] == 1 * 0.5 + 2 * -1.0);
  CHECK(y[1] == 3 * 0.5 + 4 * -1.0);
  // erk45's stepper: the project's Dormand-Prince, or ARKODE's when off.
  const ctde::test::Run own = ctde::test::run_model(oscillator("ctde"));
  const ctde::test::Run arkode = ctde::test::run_model(oscillator("arkode"));
  REQUIRE(own.result.status == ctde::RunStatus::kOk);
  REQUIRE(arkode.result.status == ctde::RunStatus::kOk);
  if (switched_off()) {
    CHECK(own.csv == arkode.csv);  // the same stepper, bit for bit
    CHECK(own.result.stats.steps == arkode.result.stats.steps);
  }
}
