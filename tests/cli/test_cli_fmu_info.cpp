// `ctde fmu info FILE.fmu`: the FMU's interfaces, variables and states, and
// what ctde maps each variable to, as text and JSON; a bad file is exit 2.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/cli_helpers.hpp"
#include "support/fmi_helpers.hpp"

using namespace ctde::test;

namespace {

/// The JSON entry of variable `name`.
nlohmann::json variable(const nlohmann::json& info, const std::string& name) {
  for (const auto& v : info["variables"]) {
    if (v["name"] == name) return v;
  }
  FAIL("no variable " << name);
  return {};
}

}  // namespace

TEST_CASE("ctde fmu info --json maps each variable: port kinds per interface, start values, states") {
  const auto listed = run_cli("fmu info --json " + fmu("discrete_inputs"));
  REQUIRE_MESSAGE(listed.status == 0, listed.output);
  const auto info = nlohmann::json::parse(listed.output);
  CHECK(info["fmi_version"] == "2.0");
  CHECK(info["model_name"] == "discrete_inputs");
  CHECK(info["interfaces"]["model_exchange"]["model_identifier"] == "discrete_inputs");
  CHECK(info["interfaces"]["co_simulation"]["variable_communication_step"] == true);
  CHECK(info["variables"].size() == 10);
  // A continuous Real input: continuous in ME; an Integer input: discrete in ME; both take the driver's kind
  // in CS.
  const auto u = variable(info, "u");
  CHECK(u["ctde"]["port"] == "u");
  CHECK(u["ctde"]["kind"]["model_exchange"] == "continuous");
  CHECK(u["ctde"]["kind"]["co_simulation"] == "polymorphic");
  CHECK(u["ctde"]["start"] == true);
  const auto i_in = variable(info, "i_in");
  CHECK(i_in["type"] == "Integer");
  CHECK(i_in["variability"] == "discrete");
  CHECK(i_in["ctde"]["kind"]["model_exchange"] == "discrete");
  const auto e_out = variable(info, "e_out");
  CHECK(e_out["type"] == "Enumeration");
  CHECK(e_out["ctde"]["kind"]["model_exchange"] == "continuous");
  CHECK(e_out["ctde"]["kind"]["co_simulation"] == "discrete");
  CHECK(e_out["ctde"]["start"] == false);  // a calculated output

  const auto ball = nlohmann::json::parse(run_cli("fmu info --json " + fmu("ball")).output);
  CHECK(ball["interfaces"]["co_simulation"].is_null());
  CHECK(ball["states"].size() == 2);
  CHECK(ball["states"][0]["state"] == "h");
  CHECK(ball["states"][0]["derivative"] == "der(h)");
  CHECK(ball["event_indicators"] == 1);
  CHECK(variable(ball, "h")["ctde"]["role"] == "continuous state 0");
  CHECK(variable(ball, "der(v)")["ctde"]["role"] == "derivative of 'v'");
  CHECK(variable(ball, "der(v)")["ctde"]["port"].is_null());
  CHECK(variable(ball, "e")["ctde"]["start"] == true);
  CHECK(variable(ball, "e")["variability"] == "tunable");
  CHECK(ball["interfaces"]["model_exchange"]["directional_derivatives"] == false);
}

TEST_CASE("ctde fmu info says whether an FMU gives its Jacobian by directional derivatives") {
  for (const std::string name : {"coupled", "coupled3"}) {
    CAPTURE(name);
    const auto listed = run_cli("fmu info --json " + fmu(name));
    REQUIRE_MESSAGE(listed.status == 0, listed.output);
    CHECK(nlohmann::json::parse(listed.output)["interfaces"]["model_exchange"]["directional_derivatives"] ==
          true);
    CHECK(run_cli("fmu info " + fmu(name))
              .output.find("model-exchange (" + name + ", directional derivatives)") != std::string::npos);
  }
  const auto plain = run_cli("fmu info " + fmu("coupled_fd"));
  CHECK(plain.output.find("model-exchange (coupled_fd)") != std::string::npos);
}

TEST_CASE("ctde fmu info prints one aligned line per variable, and names a type ports do not carry") {
  const auto listed = run_cli("fmu info " + fmu("discrete_inputs3"));
  REQUIRE_MESSAGE(listed.status == 0, listed.output);
  const std::string& text = listed.output;
  CHECK(
      text.find("FMI 3.0, model 'discrete_inputs3', instantiation token {ctde-test-fmu-discrete_inputs3}") !=
      std::string::npos);
  CHECK(text.find("interfaces: model-exchange (discrete_inputs3), co-simulation (discrete_inputs3)") !=
        std::string::npos);
  CHECK(text.find("states: none") != std::string::npos);
  CHECK(text.find("input port 'i_in' (ME discrete, CS polymorphic); start value settable") !=
        std::string::npos);
  CHECK(text.find("input port 'e_in' (ME discrete, CS polymorphic)") != std::string::npos);  // an Int64
  // Columns line up: every variable line starts its causality at the same column.
  const std::size_t header = text.find("name ");
  REQUIRE(header != std::string::npos);
  const std::size_t column = text.find("causality", header) - header;
  std::size_t lines = 0;
  for (std::size_t at = text.find('\n', header) + 1; at < text.size(); at = text.find('\n', at) + 1) {
    const std::string line = text.substr(at, text.find('\n', at) - at);
    if (line.empty()) break;
    CHECK(line[column - 1] == ' ');
    CHECK(line[column] != ' ');
    ++lines;
  }
  CHECK(lines == 11);  // time and the ten others
}

TEST_CASE("ctde fmu info on a file that is no FMU is exit 2 naming it") {
  const std::filesystem::path file = scratch_file("ctde_cli_fmu_info_test", "not.fmu");
  std::ofstream(file) << "not a zip";
  const auto result = run_cli("fmu info " + file.string());
  CHECK(result.status == 2);
  CHECK(result.output.find("cannot open it as a zip archive") != std::string::npos);
  const auto missing = run_cli("fmu info /no/such/file.fmu");
  CHECK(missing.status == 2);
}

TEST_CASE("ctde fmu info gives an array's size, its start values and its states") {
  const auto listed = run_cli("fmu info --json " + fmu("array3"));
  REQUIRE_MESSAGE(listed.status == 0, listed.output);
  const auto info = nlohmann::json::parse(listed.output);
  const auto x = variable(info, "x");
  CHECK(x["size"] == 3);
  CHECK(x["start"] == nlohmann::json::array({1, 0, 1}));
  CHECK(x["ctde"]["role"] == "continuous states 0..2");
  CHECK(variable(info, "k")["size"] == 1);
  const auto text = run_cli("fmu info " + fmu("array3")).output;
  CHECK(text.find("[1, 0, 1]") != std::string::npos);
  const auto types = nlohmann::json::parse(run_cli("fmu info --json " + fmu("all_types3")).output);
  CHECK(variable(types, "label")["start"] == "none");
  CHECK(variable(types, "label")["ctde"]["start"] == true);
  CHECK(variable(types, "u16_in")["ctde"]["kind"]["model_exchange"] == "discrete");
  CHECK(variable(types, "f32_in")["ctde"]["kind"]["model_exchange"] == "continuous");
}
