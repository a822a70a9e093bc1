#include "cli/linearize_command.hpp"

#include <matio.h>
#include <zip.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "actors/builtin_actors.hpp"
#include "cli/model_path.hpp"
#include "cli/plugins.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "domains/ctde/director.hpp"
#include "run/command_error.hpp"
#include "run/run_setup.hpp"
#include "run/snapshot_file.hpp"

namespace ctde::cli {

namespace {

using Linearization = Director::Linearization;

/// The matrices of a linearization, by name: rows, columns, row-major values.
struct Matrix {
  const char* name;
  std::size_t rows;
  std::size_t columns;
  const std::vector<double>* values;
};

std::vector<Matrix> matrices(const Linearization& lin) {
  const std::size_t n = lin.states.size();
  const std::size_t m = lin.inputs.size();
  const std::size_t p = lin.outputs.size();
  return {{"A", n, n, &lin.a}, {"B", n, m, &lin.b}, {"C", p, n, &lin.c}, {"D", p, m, &lin.d}};
}

nlohmann::json to_json(const Linearization& lin) {
  nlohmann::json doc = {
      {"time", lin.time}, {"states", lin.states}, {"inputs", lin.inputs}, {"outputs", lin.outputs}};
  for (const Matrix& matrix : matrices(lin)) {
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t i = 0; i < matrix.rows; ++i) {
      const auto row = matrix.values->begin() + static_cast<std::ptrdiff_t>(i * matrix.columns);
      rows.push_back(std::vector<double>(row, row + static_cast<std::ptrdiff_t>(matrix.columns)));
    }
    doc[matrix.name] = rows;
  }
  nlohmann::json eigenvalues = nlohmann::json::array();
  for (const auto& e : lin.eigenvalues) eigenvalues.push_back({e.real(), e.imag()});
  doc["eigenvalues"] = eigenvalues;
  return doc;
}

/// A .npy file's bytes: version 1.0, the header padded to 64 bytes, then the data.
std::string npy(const std::string& dtype, const std::vector<std::size_t>& shape, const void* data,
                std::size_t bytes) {
  std::string dims;
  for (const std::size_t d : shape) dims += std::to_string(d) + ",";
  if (shape.size() > 1) dims.pop_back();
  std::string header = "{'descr': '" + dtype + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(static_cast<const char*>(data), bytes);
  return out;
}

/// Names as a numpy array of unicode strings (UTF-32, padded to the longest).
std::string npy_names(const std::vector<std::string>& names) {
  std::size_t width = 1;
  for (const std::string& name : names) width = std::max(width, name.size());
  std::vector<std::uint32_t> chars(names.size() * width, 0);
  for (std::size_t i = 0; i < names.size(); ++i) {
    for (std::size_t k = 0; k < names[i].size(); ++k)
      chars[i * width + k] = static_cast<unsigned char>(names[i][k]);
  }
  return npy("<U" + std::to_string(width), {names.size()}, chars.data(), chars.size() * 4);
}

void write_npz(const std::string& path, const Linearization& lin) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const Matrix& m : matrices(lin)) {
    files.emplace_back(std::string(m.name) + ".npy",
                       npy("<f8", {m.rows, m.columns}, m.values->data(), m.values->size() * sizeof(double)));
  }
  files.emplace_back("states.npy", npy_names(lin.states));
  files.emplace_back("inputs.npy", npy_names(lin.inputs));
  files.emplace_back("outputs.npy", npy_names(lin.outputs));
  files.emplace_back("eigenvalues.npy", npy("<c16", {lin.eigenvalues.size()}, lin.eigenvalues.data(),
                                            lin.eigenvalues.size() * sizeof(std::complex<double>)));
  files.emplace_back("time.npy", npy("<f8", {}, &lin.time, sizeof(double)));
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  if (archive == nullptr) throw CommandError(kExitRunFailed, "cannot write '" + path + "'");
  for (const auto& [name, bytes] : files) {
    zip_source_t* source = zip_source_buffer(archive, bytes.data(), bytes.size(), 0);
    if (source == nullptr || zip_file_add(archive, name.c_str(), source, ZIP_FL_OVERWRITE) < 0) {
      zip_source_free(source);
      zip_discard(archive);
      throw CommandError(kExitRunFailed, "cannot write '" + path + "'");
    }
  }
  if (zip_close(archive) != 0) {  // the buffers are read here
    zip_discard(archive);
    throw CommandError(kExitRunFailed, "cannot write '" + path + "'");
  }
}

struct MatVarFree {
  void operator()(matvar_t* var) const { Mat_VarFree(var); }
};
using MatVar = std::unique_ptr<matvar_t, MatVarFree>;

/// A cell array of strings (a column).
MatVar mat_names(const char* name, const std::vector<std::string>& names) {
  std::size_t dims[2] = {names.size(), 1};
  MatVar cell(Mat_VarCreate(name, MAT_C_CELL, MAT_T_CELL, 2, dims, nullptr, 0));
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::size_t text_dims[2] = {1, names[i].size()};
    matvar_t* text =
        Mat_VarCreate(nullptr, MAT_C_CHAR, MAT_T_UINT8, 2, text_dims, const_cast<char*>(names[i].data()),
                      0);  // copied (no MAT_F_DONT_COPY_DATA)
    Mat_VarSetCell(cell.get(), static_cast<int>(i), text);
  }
  return cell;
}

void write_mat(const std::string& path, const Linearization& lin) {
  mat_t* mat = Mat_CreateVer(path.c_str(), nullptr, MAT_FT_MAT5);
  if (mat == nullptr) throw CommandError(kExitRunFailed, "cannot write '" + path + "'");
  bool ok = true;
  const auto write = [&](MatVar var) {
    ok = ok && var && Mat_VarWrite(mat, var.get(), MAT_COMPRESSION_NONE) == 0;
  };
  for (const Matrix& m : matrices(lin)) {
    std::vector<double> by_column(m.values->size());  // MATLAB stores columns
    for (std::size_t i = 0; i < m.rows; ++i) {
      for (std::size_t j = 0; j < m.columns; ++j) by_column[i + j * m.rows] = (*m.values)[i * m.columns + j];
    }
    std::size_t dims[2] = {m.rows, m.columns};
    write(MatVar(Mat_VarCreate(m.name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, by_column.data(), 0)));
  }
  std::vector<double> re;
  std::vector<double> im;
  for (const auto& e : lin.eigenvalues) {
    re.push_back(e.real());
    im.push_back(e.imag());
  }
  mat_complex_split_t split{re.data(), im.data()};
  std::size_t dims[2] = {lin.eigenvalues.size(), 1};
  write(MatVar(Mat_VarCreate("eigenvalues", MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, &split, MAT_F_COMPLEX)));
  std::size_t one[2] = {1, 1};
  double time = lin.time;
  write(MatVar(Mat_VarCreate("time", MAT_C_DOUBLE, MAT_T_DOUBLE, 2, one, &time, 0)));
  write(mat_names("states", lin.states));
  write(mat_names("inputs", lin.inputs));
  write(mat_names("outputs", lin.outputs));
  Mat_Close(mat);
  if (!ok) throw CommandError(kExitRunFailed, "cannot write '" + path + "'");
}

/// A matrix as a table, its rows and columns named.
void print_matrix(std::ostream& out, const Matrix& m, const std::vector<std::string>& rows,
                  const std::vector<std::string>& columns) {
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
  const std::vector<Matrix> all = matrices(lin);
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
  const std::string extension = std::filesystem::path(request.output).extension().string();
  if (!request.output.empty() && extension != ".json" && extension != ".mat" && extension != ".npz") {
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
  if (extension == ".json") {
    std::ofstream file(request.output);
    file << to_json(lin).dump(2) << "\n";
    if (!file) throw CommandError(kExitRunFailed, "cannot write '" + request.output + "'");
  } else if (extension == ".npz") {
    write_npz(request.output, lin);
  } else if (extension == ".mat") {
    write_mat(request.output, lin);
  }
}

}  // namespace ctde::cli
