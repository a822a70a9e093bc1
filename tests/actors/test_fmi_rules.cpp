// The FMI state machines as ctde writes them down (actors/fmi/fmi_rules.hpp),
// checked against the specifications' sentences; and the resource URI
// (percent-encoded), the ELF check, Scheduled Execution and broken archives.
#include <doctest/doctest.h>
#include <zip.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>

#include "actors/fmi/fmi2_library.hpp"
#include "actors/fmi/fmi_rules.hpp"
#include "actors/fmi/fmu_archive.hpp"
#include "actors/fmi/model_description.hpp"
#include "core/error.hpp"
#include "support/cli_helpers.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
namespace fs = std::filesystem;

namespace {

constexpr FmiKind kFmi2Me{false, true};
constexpr FmiKind kFmi2Cs{false, false};
constexpr FmiKind kFmi3Me{true, true};
constexpr FmiKind kFmi3Cs{true, false};

FmuVariable variable(Causality causality, Variability variability, Initial initial) {
  FmuVariable v;
  v.name.assign(1, 'v');  // (not = "v": GCC 12's -Wrestrict misfires on it here)
  v.causality = causality;
  v.variability = variability;
  v.initial = initial;
  return v;
}

/// An archive of `entries` (name, contents) at `file`.
void write_zip(const fs::path& file, const std::vector<std::pair<std::string, std::string>>& entries) {
  fs::remove(file);
  int error = 0;
  zip_t* archive = zip_open(file.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  REQUIRE(archive != nullptr);
  for (const auto& [name, text] : entries) {
    if (name.back() == '/') {
      REQUIRE(zip_dir_add(archive, name.c_str(), ZIP_FL_ENC_UTF_8) >= 0);
      continue;
    }
    zip_source_t* source = zip_source_buffer(archive, text.data(), text.size(), 0);
    REQUIRE(zip_file_add(archive, name.c_str(), source, ZIP_FL_ENC_UTF_8) >= 0);
  }
  REQUIRE(zip_close(archive) == 0);
}

}  // namespace

TEST_CASE("Model Exchange sets states only in Continuous-Time Mode, in FMI 2.0 and 3.0") {
  // FMI 2.0 3.2.3 and FMI 3.0 3.2: fmi2SetContinuousStates / fmi3SetContinuousStates.
  for (const FmiKind kind : {kFmi2Me, kFmi3Me}) {
    CHECK(allowed(FmiCall::kSetContinuousStates, FmiMode::kContinuousTime, kind));
    CHECK_FALSE(allowed(FmiCall::kSetContinuousStates, FmiMode::kEvent, kind));
    CHECK_FALSE(allowed(FmiCall::kSetContinuousStates, FmiMode::kInitialization, kind));
    CHECK_FALSE(allowed(FmiCall::kSetContinuousStates, FmiMode::kInstantiated, kind));
    CHECK(allowed(FmiCall::kNewDiscreteStates, FmiMode::kEvent, kind));
    CHECK_FALSE(allowed(FmiCall::kNewDiscreteStates, FmiMode::kContinuousTime, kind));
    CHECK(allowed(FmiCall::kCompletedIntegratorStep, FmiMode::kContinuousTime, kind));
    CHECK_FALSE(allowed(FmiCall::kCompletedIntegratorStep, FmiMode::kEvent, kind));
    CHECK_FALSE(allowed(FmiCall::kDoStep, FmiMode::kContinuousTime, kind));
  }
  // FMI 2.0 allows fmi2SetTime and fmi2EnterEventMode in Event Mode; FMI 3.0 does not.
  CHECK(allowed(FmiCall::kSetTime, FmiMode::kEvent, kFmi2Me));
  CHECK_FALSE(allowed(FmiCall::kSetTime, FmiMode::kEvent, kFmi3Me));
  CHECK(allowed(FmiCall::kEnterEventMode, FmiMode::kEvent, kFmi2Me));
  CHECK_FALSE(allowed(FmiCall::kEnterEventMode, FmiMode::kEvent, kFmi3Me));
  // FMI 3.0 reads derivatives in Initialization Mode and variables when Instantiated.
  CHECK_FALSE(allowed(FmiCall::kGetDerivatives, FmiMode::kInitialization, kFmi2Me));
  CHECK(allowed(FmiCall::kGetDerivatives, FmiMode::kInitialization, kFmi3Me));
  CHECK_FALSE(allowed(FmiCall::kGetVariables, FmiMode::kInstantiated, kFmi2Me));
  CHECK(allowed(FmiCall::kGetVariables, FmiMode::kInstantiated, kFmi3Me));
}

TEST_CASE(
    "the modes follow the calls: Instantiated, Initialization, Event, Continuous-Time or Step, Terminated") {
  FmiMode mode = FmiMode::kInstantiated;
  mode = next_mode(FmiCall::kSetupExperiment, mode, kFmi2Me);
  CHECK(mode == FmiMode::kInstantiated);
  mode = next_mode(FmiCall::kEnterInitializationMode, mode, kFmi2Me);
  CHECK(mode == FmiMode::kInitialization);
  CHECK(next_mode(FmiCall::kExitInitializationMode, mode, kFmi2Me) == FmiMode::kEvent);
  CHECK(next_mode(FmiCall::kExitInitializationMode, mode, kFmi2Cs) == FmiMode::kStep);
  CHECK(next_mode(FmiCall::kExitInitializationMode, mode, kFmi3Cs) == FmiMode::kStep);
  CHECK(next_mode(FmiCall::kEnterContinuousTimeMode, FmiMode::kEvent, kFmi3Me) == FmiMode::kContinuousTime);
  CHECK(next_mode(FmiCall::kEnterEventMode, FmiMode::kContinuousTime, kFmi3Me) == FmiMode::kEvent);
  CHECK(next_mode(FmiCall::kSetTime, FmiMode::kContinuousTime, kFmi3Me) == FmiMode::kContinuousTime);
  CHECK(next_mode(FmiCall::kTerminate, FmiMode::kStep, kFmi2Cs) == FmiMode::kTerminated);
  // Co-Simulation steps only in Step Mode; nothing but freeing after an error.
  for (const FmiKind kind : {kFmi2Cs, kFmi3Cs}) {
    CHECK(allowed(FmiCall::kDoStep, FmiMode::kStep, kind));
    CHECK_FALSE(allowed(FmiCall::kDoStep, FmiMode::kInitialization, kind));
    CHECK_FALSE(allowed(FmiCall::kEnterEventMode, FmiMode::kStep, kind));
    CHECK(allowed(FmiCall::kSetVariables, FmiMode::kStep, kind));
  }
  for (const FmiCall call : {FmiCall::kTerminate, FmiCall::kSetVariables, FmiCall::kGetVariables}) {
    CHECK_FALSE(allowed(call, FmiMode::kError, kFmi2Me));
    CHECK_FALSE(allowed(call, FmiMode::kError, kFmi3Cs));
  }
  CHECK(std::string(to_string(FmiMode::kContinuousTime)) == "Continuous-Time Mode");
  CHECK(std::string(fmi2_name(FmiCall::kNewDiscreteStates)) == "fmi2NewDiscreteStates");
}

TEST_CASE("which variables each mode sets follows causality, variability and initial") {
  const FmuVariable continuous_input = variable(Causality::kInput, Variability::kContinuous, Initial::kNone);
  const FmuVariable discrete_input = variable(Causality::kInput, Variability::kDiscrete, Initial::kNone);
  const FmuVariable fixed_parameter = variable(Causality::kParameter, Variability::kFixed, Initial::kExact);
  const FmuVariable tunable_parameter =
      variable(Causality::kParameter, Variability::kTunable, Initial::kExact);
  const FmuVariable exact_state = variable(Causality::kLocal, Variability::kContinuous, Initial::kExact);
  const FmuVariable approx_local = variable(Causality::kLocal, Variability::kContinuous, Initial::kApprox);
  const FmuVariable calculated = variable(Causality::kOutput, Variability::kContinuous, Initial::kCalculated);
  const FmuVariable constant = variable(Causality::kOutput, Variability::kConstant, Initial::kExact);

  // Instantiated: initial exact or approx (and inputs), never constants.
  CHECK(may_set(fixed_parameter, FmiMode::kInstantiated));
  CHECK(may_set(approx_local, FmiMode::kInstantiated));
  CHECK(may_set(discrete_input, FmiMode::kInstantiated));
  CHECK_FALSE(may_set(calculated, FmiMode::kInstantiated));
  CHECK_FALSE(may_set(constant, FmiMode::kInstantiated));
  // Initialization Mode: initial exact and inputs, not approx.
  CHECK(may_set(exact_state, FmiMode::kInitialization));
  CHECK(may_set(continuous_input, FmiMode::kInitialization));
  CHECK(may_set(discrete_input, FmiMode::kInitialization));
  CHECK_FALSE(may_set(approx_local, FmiMode::kInitialization));
  // Event and Step Mode: inputs and tunable parameters.
  for (const FmiMode mode : {FmiMode::kEvent, FmiMode::kStep}) {
    CHECK(may_set(continuous_input, mode));
    CHECK(may_set(discrete_input, mode));
    CHECK(may_set(tunable_parameter, mode));
    CHECK_FALSE(may_set(fixed_parameter, mode));
    CHECK_FALSE(may_set(exact_state, mode));
  }
  // Continuous-Time Mode: continuous inputs only.
  CHECK(may_set(continuous_input, FmiMode::kContinuousTime));
  CHECK_FALSE(may_set(discrete_input, FmiMode::kContinuousTime));
  CHECK_FALSE(may_set(tunable_parameter, FmiMode::kContinuousTime));
  CHECK_FALSE(may_set(continuous_input, FmiMode::kTerminated));

  FmuVariable n = discrete_input;
  n.name.assign(1, 'n');
  CHECK(set_refusal(n, FmiMode::kContinuousTime) ==
        "Continuous-Time Mode sets only continuous inputs; 'n' is an input of variability discrete");
}

TEST_CASE("variability and initial take the specifications' defaults by type and causality") {
  const auto parse = [](const std::string& version, const std::string& variables) {
    const bool fmi3 = version == "3.0";
    const std::string xml = R"(<?xml version="1.0"?><fmiModelDescription fmiVersion=")" + version +
                            R"(" modelName="m" )" + (fmi3 ? "instantiationToken" : "guid") +
                            R"(="{g}"><ModelExchange modelIdentifier="m"/><ModelVariables>)" + variables +
                            "</ModelVariables><ModelStructure/></fmiModelDescription>";
    return parse_model_description(xml, "FMU 'm.fmu'");
  };
  const ModelDescription two =
      parse("2.0", R"(<ScalarVariable name="x" valueReference="0"><Real/></ScalarVariable>
      <ScalarVariable name="n" valueReference="1" causality="input"><Integer start="0"/></ScalarVariable>
      <ScalarVariable name="p" valueReference="2" causality="parameter" variability="fixed"><Real start="1"/></ScalarVariable>)");
  CHECK(two.variables[0].variability == Variability::kContinuous);
  CHECK(two.variables[0].initial == Initial::kCalculated);
  CHECK(two.variables[1].variability == Variability::kDiscrete);  // an Integer is never continuous
  CHECK(two.variables[1].initial == Initial::kNone);
  CHECK(two.variables[2].initial == Initial::kExact);
  // FMI 3.0: continuous only for Float32 and Float64.
  const ModelDescription three =
      parse("3.0", R"(<Float64 name="x" valueReference="0" initial="exact" start="1"/>
      <Int32 name="n" valueReference="1" causality="input" start="0"/>
      <Boolean name="b" valueReference="2" causality="input" start="false"/>
      <Float32 name="f" valueReference="3" causality="local"/>
      <UInt8 name="u" valueReference="4" causality="local"/>)");
  CHECK(three.variables[0].variability == Variability::kContinuous);
  CHECK(three.variables[0].initial == Initial::kExact);
  CHECK(three.variables[1].variability == Variability::kDiscrete);
  CHECK(three.variables[2].variability == Variability::kDiscrete);
  CHECK(three.variables[3].variability == Variability::kContinuous);
  CHECK(three.variables[3].type_name == "Float32");
  CHECK(three.variables[4].variability == Variability::kDiscrete);
  // A continuous Integer is refused, naming the variable.
  try {
    (void)parse("3.0", R"(<Int32 name="k" valueReference="0" variability="continuous"/>)");
    FAIL("a continuous Int32 was accepted");
  } catch (const ModelError& e) {
    CHECK(std::string(e.what()).find("variable 'k' of type Int32 is continuous") != std::string::npos);
  }
}

TEST_CASE("an FMU with only Scheduled Execution is refused as such") {
  const std::string xml = R"(<?xml version="1.0"?><fmiModelDescription fmiVersion="3.0" modelName="m"
      instantiationToken="{g}"><ScheduledExecution modelIdentifier="m"/><ModelVariables/>
      <ModelStructure/></fmiModelDescription>)";
  try {
    (void)parse_model_description(xml, "FMU 'se.fmu'");
    FAIL("a Scheduled-Execution-only FMU was accepted");
  } catch (const ModelError& e) {
    CHECK(
        std::string(e.what()) ==
        "FMU 'se.fmu': modelDescription.xml: the FMU offers only Scheduled Execution (<ScheduledExecution>), "
        "which ctde does not support: ctde imports Model Exchange and Co-Simulation");
  }
}

TEST_CASE("the FMI 2.0 resource location is a percent-encoded file URI, decoded for FMI 3.0") {
  CHECK(file_uri("/tmp/a b%41/resources") == "file:///tmp/a%20b%2541/resources/");
  CHECK(file_uri("/x/r/") == "file:///x/r/");
  CHECK(file_uri("/t/\xc3\xa9") == "file:///t/%C3%A9/");
  CHECK(file_uri_path("file:///tmp/a%20b%2541/resources/") == "/tmp/a b%41/resources/");
  CHECK(file_uri_path(file_uri("/a b/%zz")) == "/a b/%zz/");
  CHECK(file_uri_path("/plain/path") == "/plain/path");
}

TEST_CASE("a binary for another machine is named by its ELF machine, a non-ELF file as such") {
  const fs::path folder = test::scratch_file("ctde_fmi_rules_test", "elf");
  fs::create_directories(folder);
  // The first 20 bytes of an ELF header: magic, class, data, version, ..., e_type, e_machine.
  std::array<unsigned char, 64> header{};
  header[0] = 0x7f;
  header[1] = 'E';
  header[2] = 'L';
  header[3] = 'F';
  header[4] = 2;   // 64-bit
  header[5] = 1;   // little-endian
  header[16] = 3;  // a shared object
#if defined(__aarch64__)
  header[18] = 62;  // x86-64 on an AArch64 machine
  const std::string other = "x86-64";
#else
  header[18] = 183;  // AArch64 elsewhere
  const std::string other = "AArch64";
#endif
  const fs::path foreign = folder / "foreign.so";
  std::ofstream(foreign, std::ios::binary).write(reinterpret_cast<const char*>(header.data()), header.size());
  CHECK(elf_mismatch(foreign).find("it is built for " + other + " (64-bit ELF, machine") == 0);
  const fs::path text = folder / "text.so";
  std::ofstream(text) << "not a binary at all, but long enough";
  CHECK(elf_mismatch(text).find("it is not an ELF shared library") == 0);
  try {
    Fmi2Library library(foreign, true, "3.0", "FMU 'f.fmu'");
    FAIL("a foreign binary was loaded");
  } catch (const ModelError& e) {
    CHECK(std::string(e.what()).find("FMU 'f.fmu': cannot load its binary foreign.so: it is built for " +
                                     other) == 0);
  }
}

TEST_CASE("an archive with a file where a folder is needed is a bad FMU: exit 2 naming the entry") {
  const fs::path file = test::scratch_file("ctde_fmi_rules_test", "file_and_folder.fmu");
  write_zip(file, {{"modelDescription.xml", "<fmiModelDescription/>"},
                   {"binaries", "a file"},
                   {"binaries/x86_64-linux/m.so", "x"}});
  try {
    FmuArchive archive(file);
    FAIL("the archive was extracted");
  } catch (const ModelError& e) {
    CHECK(std::string(e.what()).find("cannot extract entry 'binaries/x86_64-linux/m.so'") !=
          std::string::npos);
    CHECK(std::string(e.what()).find("the archive holds a file where this entry needs a folder") !=
          std::string::npos);
  }
  const fs::path model = test::scratch_file("ctde_fmi_rules_test", "file_and_folder.json");
  std::ofstream(model) << R"({"ctde": 1, "actors": [{"name": "a", "type": "FMU", "params": {"file": ")" +
                              file.string() + R"("}}]})";
  const auto validated = test::run_cli("validate " + model.string());
  CHECK(validated.status == 2);
  CHECK(validated.output.find("cannot extract entry") != std::string::npos);
}
