// FMI 3.0 specifics of the FMU actor (actors/fmi/): the platform folder of
// its binaries (<arch>-<os>, not FMI 2.0's linux64), and messages that name
// the FMI 3.0 function and status the adapter called.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "actors/fmi/fmi2_library.hpp"
#include "actors/fmi/fmi3_adapter.hpp"
#include "support/cli_helpers.hpp"
#include "support/fmi_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

/// `ctde validate` of a model of test FMU `name`.
CommandResult validate_fmu(const std::string& name) {
  const std::filesystem::path model = scratch_file("ctde_fmi3_test", name + ".json");
  std::ofstream(model) << fmu_model(name, "", R"("stop_time": 1)", "");
  return test::run_cli("validate " + model.string());
}

}  // namespace

TEST_CASE("the platform folders are FMI 2.0's x86 names and FMI 3.0's <arch>-<os> tuples") {
#if defined(__linux__) && defined(__x86_64__)
  CHECK(std::string(fmi2_platform()) == "linux64");
  CHECK(std::string(fmi3_platform()) == "x86_64-linux");
#elif defined(__linux__) && defined(__aarch64__)
  CHECK(std::string(fmi2_platform()).empty());  // FMI 2.0's linux64 is x86-64: not this machine
  CHECK(std::string(fmi3_platform()) == "aarch64-linux");
#endif
  CHECK(std::string(fmi_platform("3.0")) == fmi3_platform());
  CHECK(std::string(fmi_platform("2.0")) == fmi2_platform());
  CHECK(std::string(fmi2_platform()) != fmi3_platform());
}

TEST_CASE("an FMI 3.0 FMU is loaded from binaries/<arch>-<os>/ and refused with only binaries/linux64/") {
  // ball3 has its binary under the FMI 3.0 tuple: it loads and runs.
  const auto run = run_model(fmu_model("ball3", "", R"("stop_time": 0.2)", R"("a.h")"));
  REQUIRE_MESSAGE(run.result.status == RunStatus::kOk, run.result.message);
  CHECK(run.rows.back().values[0] == doctest::Approx(1 - 9.81 * 0.2 * 0.2 / 2).epsilon(1e-6));

  const std::string tuple = fmi3_platform();
  const auto refused = validate_fmu("fmi2_folder3");
  CHECK(refused.status == 2);
  CHECK_MESSAGE(refused.output.find("actor 'a' (FMU), parameter 'file': FMU '" + fmu("fmi2_folder3") + "'") !=
                    std::string::npos,
                refused.output);
  CHECK_MESSAGE(
      refused.output.find("no binary for this platform (" + tuple + "): fmi2_folder3.so is not in binaries/" +
                          tuple + "/") != std::string::npos,
      refused.output);
  if (std::string(fmi2_platform()) == "linux64") {
    CHECK_MESSAGE(refused.output.find("(binaries/linux64/ is FMI 2.0's name; FMI 3.0 requires binaries/" +
                                      tuple + "/)") != std::string::npos,
                  refused.output);
  }
}

TEST_CASE("the adapter's FMI 2.0 calls are named by their FMI 3.0 functions in messages") {
  CHECK(std::string(fmi3_call_name("fmi2GetDerivatives", fmi2::Type::kModelExchange)) ==
        "fmi3GetContinuousStateDerivatives");
  CHECK(std::string(fmi3_call_name("fmi2NewDiscreteStates", fmi2::Type::kModelExchange)) ==
        "fmi3UpdateDiscreteStates");
  CHECK(std::string(fmi3_call_name("fmi2GetReal", fmi2::Type::kModelExchange)) == "fmi3GetFloat64");
  CHECK(std::string(fmi3_call_name("fmi2SetInteger", fmi2::Type::kCoSimulation)) == "fmi3SetInt32");
  CHECK(std::string(fmi3_call_name("fmi2Instantiate", fmi2::Type::kModelExchange)) ==
        "fmi3InstantiateModelExchange");
  CHECK(std::string(fmi3_call_name("fmi2Instantiate", fmi2::Type::kCoSimulation)) ==
        "fmi3InstantiateCoSimulation");
  CHECK(std::string(fmi3_call_name("fmi2DoStep", fmi2::Type::kCoSimulation)) == "fmi3DoStep");
}

TEST_CASE("an FMI 3.0 discard at the solution names fmi3GetContinuousStateDerivatives and fmi3Discard") {
  const auto run =
      run_model(fmu_model("discard3", R"("start": {"reset": false})", R"("stop_time": 2)", R"("a.x")"));
  REQUIRE(run.result.status == RunStatus::kError);
  CHECK(run.result.message.find("actor 'a' (FMU)") != std::string::npos);
  CHECK_MESSAGE(run.result.message.find("fmi3GetContinuousStateDerivatives returned fmi3Discard: x = ") !=
                    std::string::npos,
                run.result.message);
  CHECK(run.result.message.find("is outside the domain x >= 0") != std::string::npos);
  CHECK(run.result.message.find("fmi2") == std::string::npos);
  CHECK(run.result.time == doctest::Approx(1.0).epsilon(1e-6));
  // With the reset on, the FMI 3.0 twin recovers from the trial points' discards as the FMI 2.0 one.
  const auto recovered = run_model(
      fmu_model("discard3", "", R"("stop_time": 2, "rtol": 1e-3, "atol": 1e-3)", R"("a.x", "a.resets")"));
  const auto twin = run_model(
      fmu_model("discard", "", R"("stop_time": 2, "rtol": 1e-3, "atol": 1e-3)", R"("a.x", "a.resets")"));
  REQUIRE_MESSAGE(recovered.result.status == RunStatus::kOk, recovered.result.message);
  CHECK(recovered.csv == twin.csv);
  CHECK(recovered.rows.back().values[1] == 2);
}

TEST_CASE("an FMI 3.0 FMU whose instantiationToken is not the binary's is refused with exit 2") {
  const auto refused = validate_fmu("wrong_token3");
  CHECK(refused.status == 2);
  CHECK_MESSAGE(refused.output.find("FMU '" + fmu("wrong_token3") + "'") != std::string::npos,
                refused.output);
  CHECK_MESSAGE(refused.output.find("fmi3InstantiateModelExchange failed: wrong instantiation token "
                                    "{not-the-binary-token}") != std::string::npos,
                refused.output);
  CHECK_MESSAGE(refused.output.find("(is the instantiation token {not-the-binary-token} the binary's?)") !=
                    std::string::npos,
                refused.output);
}
