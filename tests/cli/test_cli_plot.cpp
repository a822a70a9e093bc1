// `ctde run --plot` end to end: the PNG drawn, its size, and the errors.
#include <doctest/doctest.h>

#include "support/cli_helpers.hpp"

#include <cstdint>
#include <filesystem>
#include <string>

namespace {

using ctde::test::CommandResult;
using ctde::test::example_models;
using ctde::test::read_text;
using ctde::test::run_cli;
using ctde::test::run_cli_env;

std::filesystem::path scratch(const std::string& name) {
  return ctde::test::scratch_file("ctde_cli_plot_test", name);
}

/// A 4-byte big-endian number at `offset` of `bytes`.
std::uint32_t big_endian(const std::string& bytes, std::size_t offset) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<unsigned char>(bytes[offset + i]);
  return value;
}

/// A temporary folder of this test's own (TMPDIR for the command): other
/// programs' files in the shared one do not count.
std::filesystem::path private_tmp() {
  const auto dir = std::filesystem::temp_directory_path() / "ctde-plot-test-tmp";
  std::filesystem::create_directories(dir);
  return dir;
}

/// How many results files `run --plot` left in its temporary folder.
std::size_t leftover_results() {
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(private_tmp())) {
    if (entry.path().filename().string().rfind("ctde-results-", 0) == 0) ++count;
  }
  return count;
}

}  // namespace

TEST_CASE("ctde run --plot draws a 1000 x 600 PNG of the recorded signals") {
  const auto png = scratch("spring_mass.png");
  std::filesystem::remove(png);
  const std::size_t leftovers = leftover_results();
  const CommandResult r =
      run_cli_env("TMPDIR=" + private_tmp().string(),
                  "run " + example_models() + "spring_mass.json --quiet --plot " + png.string());
  CHECK(r.status == 0);
  CHECK(r.output.empty());
  const std::string bytes = read_text(png);
  REQUIRE(bytes.size() > 33);
  CHECK(bytes.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  CHECK(big_endian(bytes, 8) == 13);  // the IHDR chunk comes first
  CHECK(bytes.substr(12, 4) == "IHDR");
  CHECK(big_endian(bytes, 16) == 1000);
  CHECK(big_endian(bytes, 20) == 600);
  CHECK(leftover_results() == leftovers);  // the temporary results file is gone
}

TEST_CASE("ctde run --plot with -o keeps the results and plots discrete signals too") {
  const auto png = scratch("sampled_pi.png");
  const auto csv = scratch("sampled_pi.csv");
  std::filesystem::remove(png);
  const CommandResult r = run_cli("run " + example_models() + "sampled_pi.json --quiet -o " + csv.string() +
                                  " --plot " + png.string());
  CHECK(r.status == 0);
  CHECK(read_text(csv).rfind("time,microstep,", 0) == 0);
  const std::string bytes = read_text(png);
  REQUIRE(bytes.size() > 24);
  CHECK(big_endian(bytes, 16) == 1000);
  CHECK(big_endian(bytes, 20) == 600);
}

TEST_CASE("ctde run --plot exits 2 and runs nothing when the plot tool is missing or the name is wrong") {
  const auto csv = scratch("not_run.csv");
  std::filesystem::remove(csv);
  const CommandResult missing = run_cli_env(
      "CTDE_PYTHON=/nonexistent/python3", "run " + example_models() + "spring_mass.json -o " + csv.string() +
                                              " --plot " + scratch("never.png").string());
  CHECK(missing.status == 2);
  CHECK(missing.output.find("'/nonexistent/python3' is not an executable file") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(csv));

  const CommandResult no_script =
      run_cli_env("CTDE_PLOT_SCRIPT=/nonexistent/plot.py",
                  "run " + example_models() + "spring_mass.json --plot " + scratch("never.png").string());
  CHECK(no_script.status == 2);
  CHECK(no_script.output.find("cannot find plot_results.py") != std::string::npos);

  const CommandResult bad_name = run_cli("run " + example_models() + "spring_mass.json --plot plot.jpeg");
  CHECK(bad_name.status == 2);
  CHECK(bad_name.output.find("must end in .png, .svg or .pdf") != std::string::npos);
}

TEST_CASE("ctde run --plot exits 3 and keeps the results when the plot tool fails") {
  const auto csv = scratch("kept.csv");
  std::filesystem::remove(csv);
  const CommandResult r =
      run_cli_env("CTDE_PYTHON=/bin/false", "run " + example_models() + "spring_mass.json --quiet -o " +
                                                csv.string() + " --plot " + scratch("failed.png").string());
  CHECK(r.status == 3);
  CHECK(r.output.find("the plot was not drawn") != std::string::npos);
  CHECK(r.output.find("exit status 1") != std::string::npos);
  CHECK(r.output.find("the results are kept in " + csv.string()) != std::string::npos);
  CHECK(read_text(csv).rfind("time,microstep,force.out,", 0) == 0);

  // Without -o the results went to a temporary file: its name is given, and it is kept.
  const CommandResult temporary =
      run_cli_env("CTDE_PYTHON=/bin/false", "run " + example_models() + "spring_mass.json --quiet --plot " +
                                                scratch("failed.png").string());
  CHECK(temporary.status == 3);
  const auto at = temporary.output.find("the results are kept in ");
  REQUIRE(at != std::string::npos);
  std::string kept = temporary.output.substr(at + 24);
  kept = kept.substr(0, kept.find('\n'));
  CHECK(read_text(kept).rfind("time,microstep,", 0) == 0);
  std::filesystem::remove(kept);
}
