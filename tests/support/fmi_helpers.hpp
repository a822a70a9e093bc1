#pragma once
// The test FMUs of tests/fmi/ in small models (tests/actors/test_fmi*.cpp).

#include <doctest/doctest.h>

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

/// Test FMU `name`'s archive and binary, loaded directly (no actor), for calls the importer never makes.
struct DirectFmu {
  DirectFmu(const std::string& name, bool me, bool fmi3)
      : archive(fmu(name)),
        library(std::make_shared<Fmi2Library>(
            archive.folder() / "binaries" / fmi_platform(fmi3 ? "3.0" : "2.0") / (name + ".so"), me,
            fmi3 ? "3.0" : "2.0", archive.describe())),
        guid("{ctde-test-fmu-" + name + "}"),
        uri(file_uri(archive.folder() / "resources")),
        type(me ? fmi2::Type::kModelExchange : fmi2::Type::kCoSimulation) {}
  /// A new instance (`once`: made as canBeInstantiatedOnlyOncePerProcess says).
  [[nodiscard]] std::unique_ptr<Fmi2Instance> make_instance(const std::string& instance_name = "i",
                                                            bool once = false) const {
    return std::make_unique<Fmi2Instance>(library, instance_name, type, guid, uri, once, "test");
  }
  FmuArchive archive;
  std::shared_ptr<Fmi2Library> library;
  std::string guid, uri;
  fmi2::Type type;
};

/// One instance of test FMU `name`, made directly.
struct OneInstance : DirectFmu {
  OneInstance(const std::string& name, bool me, bool fmi3, bool once = false)
      : DirectFmu(name, me, fmi3), instance(make_instance("i", once)) {}
  std::unique_ptr<Fmi2Instance> instance;
};

/// A Model Exchange instance from Instantiated to Continuous-Time Mode (an
/// experiment from 0, the event iteration once), each call required to succeed.
inline void enter_continuous_time(Fmi2Instance& fmu) {
  const auto& f = fmu.f();
  REQUIRE(f.setup_experiment(fmu.component(), 0, 0, 0, 0, 0) == fmi2::Status::kOK);
  REQUIRE(f.enter_initialization_mode(fmu.component()) == fmi2::Status::kOK);
  REQUIRE(f.exit_initialization_mode(fmu.component()) == fmi2::Status::kOK);
  fmi2::EventInfo info{};
  REQUIRE(f.new_discrete_states(fmu.component(), &info) == fmi2::Status::kOK);
  REQUIRE(f.enter_continuous_time_mode(fmu.component()) == fmi2::Status::kOK);
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
