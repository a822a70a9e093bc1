// Conformance (docs/semantics.md): TimeDelay with delay 0 sends at the
// microstep after its input's, whatever path brought the input.
#include <doctest/doctest.h>

#include <string>
#include <tuple>
#include <vector>

#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::run_model;

TEST_CASE("conformance 6: TimeDelay 0 sends at (t, n + 1) directly or through unit gains") {
  for (int gains = 0; gains <= 2; ++gains) {
    CAPTURE(gains);
    std::string actors;
    std::string links;
    std::string from = "clock.out";
    for (int i = 0; i < gains; ++i) {
      const std::string name = "unit" + std::to_string(i);
      actors += R"({"name": ")" + name + R"(", "type": "Gain", "params": {"k": 1}}, )";
      links += R"([")" + from + R"(", ")" + name + R"(.in"], )";
      from = name + ".out";
    }
    const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 3},
      "actors": [)" + actors + R"({"name": "clock", "type": "DiscreteClock", "params": {"period": 1}},
                 {"name": "delay", "type": "TimeDelay", "params": {"delay": 0}}],
      "connections": [)" + links +
                               R"([")" + from + R"(", "delay.in"]]})");
    REQUIRE(run.result.status == RunStatus::kOk);
    std::vector<std::tuple<double, int>> input;
    std::vector<std::tuple<double, int>> output;
    for (const auto& line : run.lines) {
      if (line["kind"] != "event") continue;
      const std::tuple<double, int> tag{line["t"].get<double>(), line["n"].get<int>()};
      if (line["actor"] == "delay") output.push_back(tag);
      if (line["actor"] == from.substr(0, from.find('.')))
        input.push_back(std::make_tuple(std::get<0>(tag), std::get<1>(tag) + 1));
    }
    REQUIRE(input.size() == 4);
    CHECK(output == input);  // each token one microstep after the one it delays
  }
}
