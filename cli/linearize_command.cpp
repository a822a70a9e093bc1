#include "cli/linearize_command.hpp"

#include <algorithm>
#include <cstdio>

#include "actors/builtin_actors.hpp"
#include "cli/model_path.hpp"
#include "cli/plugins.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "domains/ctde/director.hpp"
#include "results/linearization_file.hpp"
#include "results/write_error.hpp"
#include "run/command_error.hpp"
#include "run/run_setup.hpp"
#include "run/snapshot_file.hpp"

namespace ctde::cli {

namespace {

using Linearization = Director::Linearization;

/// A matrix as a table, its rows and columns named.
void print_matrix(std::ostream& out, const results::LinearizationMatrix& m,
                  const std::vector<std::string>& rows, const std::vector<std::string>& columns) {
  out << m.name << " (" << m.rows << " x " << m.columns << ")";
  if (m.rows == 0 || m.columns == 0) {
    out << ": empty\n";
    return;
  }
  out << ":\n";
  std::size_t width = 0;
  for (const std::string& r : rows) width = std::max(width, r.size());
  char cell[32];
  out << std::string(width, ' ');
  for (const std::string& c : columns) {
    std::snprintf(cell, sizeof cell, " %13.13s", c.c_str());
    out << cell;
  }
  out << "\n";
  for (std::size_t i = 0; i < m.rows; ++i) {
    out << rows[i] << std::string(width - rows[i].size(), ' ');
    for (std::size_t j = 0; j < m.columns; ++j) {
      std::snprintf(cell, sizeof cell, " %13.6g", (*m.values)[i * m.columns + j]);
      out << cell;
    }
    out << "\n";
  }
}

void print(std::ostream& out, const Linearization& lin) {
  out << "linearized at t = " << format_double(lin.time) << " s: " << lin.states.size() << " states, "
      << lin.inputs.size() << " inputs, " << lin.outputs.size() << " outputs\n";
  const std::vector<results::LinearizationMatrix> all = results::linearization_matrices(lin);
  print_matrix(out, all[0], lin.states, lin.states);
  print_matrix(out, all[1], lin.states, lin.inputs);
  print_matrix(out, all[2], lin.outputs, lin.states);
  print_matrix(out, all[3], lin.outputs, lin.inputs);
  out << "eigenvalues of A:";
  for (const auto& e : lin.eigenvalues) {
    out << " " << format_double(e.real());
    if (e.imag() != 0) out << (e.imag() > 0 ? "+" : "-") << format_double(std::abs(e.imag())) << "i";
  }
  out << (lin.eigenvalues.empty() ? " (none)\n" : "\n");
}

}  // namespace

void linearize_command(const LinearizeRequest& request, std::ostream& out) {
  if (!request.output.empty() && !results::is_linearization_file(request.output)) {
    throw CommandError(kExitUsage, "-o " + request.output + ": linearize writes .json, .mat or .npz files");
  }
  std::optional<SnapshotFile> snapshot;
  ParameterOverrides overrides = request.overrides;
  if (!request.resume.empty()) snapshot = read_resume_file(request.resume, request.overrides, overrides);
  Model model = load_model_file(request.model, command_actors(), overrides, command_model_path());
  Linearization lin;
  try {
    lin = linearize_model(model, request.at,
                          snapshot ? std::optional<RunSnapshot>(std::move(snapshot->snapshot)) : std::nullopt,
                          !request.overrides.empty(), request.inputs, request.outputs);
  } catch (const ModelError&) {
    throw;
  } catch (const SnapshotError& e) {
    throw CommandError(kExitUsage, concat({"--resume ", request.resume, ": ", e.what()}));
  } catch (const std::runtime_error& e) {
    throw CommandError(kExitRunFailed, e.what());
  }
  print(out, lin);
  if (request.output.empty()) return;
  try {
    results::write_linearization_file(request.output, lin);
  } catch (const results::WriteError& e) {
    throw CommandError(kExitRunFailed, e.what());
  }
}

}  // namespace ctde::cli
