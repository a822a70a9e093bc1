#include "results/mat_file.hpp"

#include <matio.h>

#include <array>
#include <cctype>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "results/write_error.hpp"

namespace ctde::results {

namespace {

/// MATLAB's longest name (namelengthmax).
constexpr std::size_t kMaxName = 63;

struct VarFree {
  void operator()(matvar_t* var) const { Mat_VarFree(var); }
};
using Var = std::unique_ptr<matvar_t, VarFree>;

struct MatClose {
  void operator()(mat_t* mat) const { Mat_Close(mat); }
};

/// A rows x columns double matrix, column-major `data` copied.
Var matrix(const char* name, std::size_t rows, std::size_t columns, const double* data) {
  std::array<std::size_t, 2> dims{rows, columns};
  return Var(Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims.data(), const_cast<double*>(data),
                           0));  // NOLINT(cppcoreguidelines-pro-type-const-cast): copied
}

Var text(const char* name, const std::string& value) {
  std::array<std::size_t, 2> dims{1, value.size()};
  return Var(Mat_VarCreate(name, MAT_C_CHAR, MAT_T_UINT8, 2, dims.data(), const_cast<char*>(value.data()),
                           0));  // NOLINT(cppcoreguidelines-pro-type-const-cast): copied
}

}  // namespace

std::string matlab_name(const std::string& name) {
  std::string out;
  if (name.empty() || std::isalpha(static_cast<unsigned char>(name.front())) == 0) out = "s_";
  for (const char c : name) out += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
  return out;
}

void write_mat_file(const std::string& path, const RunRecord& record, const std::string& model_text) {
  const auto fail = [&path](const std::string& what) {
    throw WriteError("cannot write the MAT file '" + path + "': " + what);
  };
  std::vector<std::string> fields;
  std::set<std::string> seen;
  for (const SignalData& signal : record.signals) {
    std::string field = matlab_name(signal.name);
    if (field.size() > kMaxName)
      fail("the signal '" + signal.name + "' gives a field name longer than 63 characters");
    if (!seen.insert(field).second) fail("two signals give the same field name '" + field + "'");
    fields.push_back(std::move(field));
  }
  const std::unique_ptr<mat_t, MatClose> mat(Mat_CreateVer(path.c_str(), nullptr, MAT_FT_MAT5));
  if (!mat) fail("cannot create the file");
  const std::size_t rows = record.time.size();
  const auto write = [&](Var var, const char* what) {
    if (!var || Mat_VarWrite(mat.get(), var.get(), MAT_COMPRESSION_NONE) != 0)
      fail(std::string("the variable ") + what);
  };
  write(matrix("time", rows, 1, record.time.data()), "time");
  const std::vector<double> microstep(record.microstep.begin(), record.microstep.end());
  write(matrix("microstep", rows, 1, microstep.data()), "microstep");

  std::vector<const char*> names;
  names.reserve(fields.size() + 1);
  for (const auto& field : fields) names.push_back(field.c_str());
  names.push_back(nullptr);
  std::array<std::size_t, 2> one{1, 1};
  Var signals(Mat_VarCreateStruct2("signals", 2, one.data(), names.data()));
  if (!signals) fail("the variable signals");
  for (std::size_t i = 0; i < record.signals.size(); ++i) {
    const SignalData& signal = record.signals[i];
    Var values = matrix(fields[i].c_str(), rows, signal.width, signal.values.data());
    if (!values) fail("the field signals." + fields[i]);
    Mat_VarSetStructFieldByName(signals.get(), fields[i].c_str(), 0, values.release());  // the struct owns it
  }
  write(std::move(signals), "signals");

  std::array<std::size_t, 2> list{record.signals.size(), 1};
  Var cells(Mat_VarCreate("signal_names", MAT_C_CELL, MAT_T_CELL, 2, list.data(), nullptr, 0));
  if (!cells) fail("the variable signal_names");
  for (std::size_t i = 0; i < record.signals.size(); ++i) {
    Mat_VarSetCell(cells.get(), static_cast<int>(i), text(nullptr, record.signals[i].name).release());
  }
  write(std::move(cells), "signal_names");

  write(text("status", record.status), "status");
  write(text("message", record.message), "message");
  write(text("model", model_text), "model");

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
  Var statistics(Mat_VarCreateStruct2("statistics", 2, one.data(), counter_names.data()));
  if (!statistics) fail("the variable statistics");
  for (const auto& [name, value] : counters) {
    Mat_VarSetStructFieldByName(statistics.get(), name, 0, matrix(name, 1, 1, &value).release());
  }
  write(std::move(statistics), "statistics");
}

}  // namespace ctde::results
