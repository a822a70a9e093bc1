// Conformance: two ways of writing one model give identical results — a
// composite and its flattening, a constant and a parameter.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "support/cli_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::run_model;

namespace {

/// The sampled PI example with its plant composite written out flat.
const std::string kFlatSampledPi = R"({"ctde": 1, "name": "sampled_pi_flat",
  "parameters": { "a": 1.5, "b": 2, "T": 0.2, "kp": 0.8, "ki": 1.1, "r": 1 },
  "director": { "stop_time": 6, "rtol": 1e-9, "atol": 1e-12, "output_interval": 0.02 },
  "actors": [
    { "name": "ref", "type": "Constant", "params": { "value": "r" } },
    { "name": "error", "type": "Sum", "params": { "signs": "+-" } },
    { "name": "sample", "type": "PeriodicSampler", "params": { "period": "T" } },
    { "name": "sum_e", "type": "Accumulator" },
    { "name": "integral", "type": "Gain", "params": { "k": "ki * T" } },
    { "name": "proportional", "type": "Gain", "params": { "k": "kp" } },
    { "name": "u", "type": "Sum", "params": { "signs": "++" } },
    { "name": "hold", "type": "ZeroOrderHold" },
    { "name": "bu", "type": "Gain", "params": { "k": "b" } },
    { "name": "ax", "type": "Gain", "params": { "k": "-a" } },
    { "name": "dx", "type": "Sum", "params": { "signs": "++" } },
    { "name": "x", "type": "Integrator" }
  ],
  "connections": [
    ["bu.out", "dx.in0"], ["x.out", "ax.in"], ["ax.out", "dx.in1"], ["dx.out", "x.in"],
    ["ref.out", "error.in0"], ["x.out", "error.in1"], ["error.out", "sample.in"],
    ["sample.out", "sum_e.in"], ["sum_e.out", "integral.in"], ["sample.out", "proportional.in"],
    ["integral.out", "u.in0"], ["proportional.out", "u.in1"], ["u.out", "hold.in"], ["hold.out", "bu.in"]
  ],
  "record": ["x.out", "hold.out", "u.out"]
})";

}  // namespace

TEST_CASE("conformance: a composite and its flattening give the same results to the bit") {
  const auto composite = run_model(ctde::test::read_example("sampled_pi.json"));
  const auto flat = run_model(kFlatSampledPi);
  REQUIRE(composite.result.status == RunStatus::kOk);
  REQUIRE(flat.result.status == RunStatus::kOk);
  REQUIRE(composite.rows.size() == flat.rows.size());
  for (std::size_t i = 0; i < flat.rows.size(); ++i) {
    CAPTURE(i);
    CHECK(composite.rows[i].t == flat.rows[i].t);
    CHECK(composite.rows[i].n == flat.rows[i].n);
    const std::vector<double>& a = composite.rows[i].values;
    const std::vector<double>& b = flat.rows[i].values;
    REQUIRE(a.size() == b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
      CHECK((a[k] == b[k] || (std::isnan(a[k]) && std::isnan(b[k]))));  // empty cells: absent in both
    }
  }
  // The error reaches the reference: the integral action removes it.
  CHECK(flat.rows.back().values[flat.column("x.out")] == doctest::Approx(1.0).epsilon(1e-3));
}
