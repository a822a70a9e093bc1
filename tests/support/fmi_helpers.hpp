#pragma once
// The test FMUs of tests/fmi/ in small models (tests/actors/test_fmi*.cpp).

#include <string>
#include <vector>

#include "support/run_helpers.hpp"

namespace ctde::test {

/// The path of test FMU `name` (built into CTDE_TEST_FMUS).
inline std::string fmu(const std::string& name) { return std::string(CTDE_TEST_FMUS) + "/" + name + ".fmu"; }

/// A model of one FMU actor `a` of test FMU `name` with `params` (JSON
/// members after "file"), further actors and connections, recording `record`.
inline std::string fmu_model(const std::string& name, const std::string& params, const std::string& director,
                             const std::string& record, const std::string& more_actors = "",
                             const std::string& connections = "") {
  return R"({"ctde": 1, "name": "m", "director": {)" + director +
         R"(}, "actors": [{"name": "a", "type": "FMU",
      "params": {"file": ")" +
         fmu(name) + "\"" + (params.empty() ? "" : ", " + params) + "}}" + more_actors +
         R"(], "connections": [)" + connections + R"(], "record": [)" + record + "]}";
}

/// The times of the `reset` trace lines of actor `actor`.
inline std::vector<double> reset_times(const Run& run, const std::string& actor) {
  std::vector<double> times;
  for (const auto& line : run.lines) {
    if (line["kind"] == "reset" && line["actor"] == actor) times.push_back(line["t"].get<double>());
  }
  return times;
}

}  // namespace ctde::test
