#pragma once
// The test FMUs of tests/fmi/ in small models (tests/actors/test_fmi*.cpp).

#include <memory>
#include <string>
#include <vector>

#include "actors/fmi/fmi2_instance.hpp"
#include "actors/fmi/fmi2_library.hpp"
#include "actors/fmi/fmu_archive.hpp"
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

/// An instance of test FMU `name` made directly (no actor), for calls the importer never makes.
struct OneInstance {
  OneInstance(const std::string& name, bool me, bool fmi3, bool once = false)
      : archive(fmu(name)),
        library(std::make_shared<Fmi2Library>(
            archive.folder() / "binaries" / fmi_platform(fmi3 ? "3.0" : "2.0") / (name + ".so"), me,
            fmi3 ? "3.0" : "2.0", archive.describe())),
        guid("{ctde-test-fmu-" + name + "}"),
        uri(file_uri(archive.folder() / "resources")),
        instance(std::make_unique<Fmi2Instance>(library, "i",
                                                me ? fmi2::Type::kModelExchange : fmi2::Type::kCoSimulation,
                                                guid, uri, once, "test")) {}
  FmuArchive archive;
  std::shared_ptr<Fmi2Library> library;
  std::string guid, uri;
  std::unique_ptr<Fmi2Instance> instance;
};

/// The times of the `reset` trace lines of actor `actor`.
inline std::vector<double> reset_times(const Run& run, const std::string& actor) {
  std::vector<double> times;
  for (const auto& line : run.lines) {
    if (line["kind"] == "reset" && line["actor"] == actor) times.push_back(line["t"].get<double>());
  }
  return times;
}

}  // namespace ctde::test
