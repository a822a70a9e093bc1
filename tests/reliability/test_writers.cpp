// CsvResults and TraceWriter report failed writes instead of losing them quietly.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/csv_results.hpp"
#include "core/trace.hpp"
#include "support/cli_helpers.hpp"

using ctde::CsvResults;
using ctde::TraceWriter;

TEST_CASE("TraceWriter to a file refuses a missing folder instead of creating it") {
  const auto folder = ctde::test::scratch_root() / "ctde_reliability_writers" / "missing";
  std::filesystem::remove_all(folder);
  CHECK_THROWS_WITH_AS(TraceWriter((folder / "t.jsonl").string()), doctest::Contains("' does not exist"),
                       std::runtime_error);
  CHECK_FALSE(std::filesystem::exists(folder));
}

TEST_CASE("TraceWriter reports a failed write, to a file or to a stream") {
  {
    TraceWriter trace("/dev/full");
    CHECK_FALSE(trace.failed());
    trace.run_start({"m", "erk45", 1e-6, 1e-9, 1, 1e-12});
    trace.flush();  // spdlog would only print "[*** LOG ERROR ***]" and go on
    CHECK(trace.failed());
  }
  std::ostringstream broken;
  TraceWriter trace(broken);
  trace.run_start({"m", "erk45", 1e-6, 1e-9, 1, 1e-12});
  CHECK_FALSE(trace.failed());
  broken.setstate(std::ios::badbit);
  trace.run_end("ok", {});
  CHECK(trace.failed());
}

TEST_CASE("CsvResults reports a failed write") {
  std::ofstream full("/dev/full");
  CsvResults results(full, {});
  CHECK_FALSE(results.failed());  // the header is still in the stream's buffer
  results.begin_row(ctde::RowTime::between_ticks(0), 0);
  results.end_row();
  results.flush();
  CHECK(results.failed());
}
