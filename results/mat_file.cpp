#include "results/mat_file.hpp"

#include <array>
#include <cctype>
#include <set>
#include <utility>
#include <vector>

#include "results/mat_variables.hpp"
#include "results/write_error.hpp"

namespace ctde::results {

namespace {

/// MATLAB's longest name (namelengthmax).
constexpr std::size_t kMaxName = 63;

}  // namespace

std::string matlab_name(const std::string& name) {
  std::string out;
  if (name.empty() || std::isalpha(static_cast<unsigned char>(name.front())) == 0) out = "s_";
  for (const char c : name) out += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
  return out;
}

void write_mat_file(const std::string& path, const RunRecord& record, const std::string& model_text) {
  // The names are checked before the file is made: a refused record leaves no file.
  const auto refuse = [&path](const std::string& what) {
    throw WriteError("cannot write the MAT file '" + path + "': " + what);
  };
  std::vector<std::string> fields;
  std::set<std::string> seen;
  for (const SignalData& signal : record.signals) {
    std::string field = matlab_name(signal.name);
    if (field.size() > kMaxName)
      refuse("the signal '" + signal.name + "' gives a field name longer than 63 characters");
    if (!seen.insert(field).second) refuse("two signals give the same field name '" + field + "'");
    fields.push_back(std::move(field));
  }
  MatWriter mat(path, "MAT file");
  const std::size_t rows = record.time.size();
  mat.write(mat_matrix("time", rows, 1, record.time.data()), "time");
  const std::vector<double> microstep(record.microstep.begin(), record.microstep.end());
  mat.write(mat_matrix("microstep", rows, 1, microstep.data()), "microstep");

  std::vector<const char*> names;
  names.reserve(fields.size() + 1);
  for (const auto& field : fields) names.push_back(field.c_str());
  names.push_back(nullptr);
  std::array<std::size_t, 2> one{1, 1};
  MatVar signals(Mat_VarCreateStruct2("signals", 2, one.data(), names.data()));
  if (!signals) mat.fail("the variable signals");
  for (std::size_t i = 0; i < record.signals.size(); ++i) {
    const SignalData& signal = record.signals[i];
    MatVar values = mat_matrix(fields[i].c_str(), rows, signal.width, signal.values.data());
    if (!values) mat.fail("the field signals." + fields[i]);
    Mat_VarSetStructFieldByName(signals.get(), fields[i].c_str(), 0, values.release());  // the struct owns it
  }
  mat.write(std::move(signals), "signals");

  std::vector<std::string> signal_names;
  signal_names.reserve(record.signals.size());
  for (const SignalData& signal : record.signals) signal_names.push_back(signal.name);
  mat.write(mat_texts("signal_names", signal_names), "signal_names");

  mat.write(mat_text("status", record.status), "status");
  mat.write(mat_text("message", record.message), "message");
  mat.write(mat_text("model", model_text), "model");

  std::vector<std::pair<const char*, double>> counters;
  counters.reserve(kRunCounters.size() + 2);
  for (const RunCounter& counter : kRunCounters) {
    counters.emplace_back(counter.name, static_cast<double>(record.stats.*counter.member));
  }
  counters.emplace_back("end_time", record.end_time);
  counters.emplace_back("wall_time", record.wall_time);
  std::vector<const char*> counter_names;
  counter_names.reserve(counters.size() + 1);
  for (const auto& counter : counters) counter_names.push_back(counter.first);
  counter_names.push_back(nullptr);
  MatVar statistics(Mat_VarCreateStruct2("statistics", 2, one.data(), counter_names.data()));
  if (!statistics) mat.fail("the variable statistics");
  for (const auto& [name, value] : counters) {
    Mat_VarSetStructFieldByName(statistics.get(), name, 0, mat_matrix(name, 1, 1, &value).release());
  }
  mat.write(std::move(statistics), "statistics");
}

}  // namespace ctde::results
