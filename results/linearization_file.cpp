#include "results/linearization_file.hpp"

#include <zip.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>

#include "results/mat_variables.hpp"
#include "results/write_error.hpp"

namespace ctde::results {

namespace {

using Linearization = Director::Linearization;

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
  throw WriteError("cannot write the linearization file '" + path + "': " + reason);
}

void write_json(const std::string& path, const Linearization& lin) {
  nlohmann::json doc = {
      {"time", lin.time}, {"states", lin.states}, {"inputs", lin.inputs}, {"outputs", lin.outputs}};
  for (const LinearizationMatrix& matrix : linearization_matrices(lin)) {
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
  std::ofstream file(path);
  if (!file) fail(path, "cannot create the file");
  file << doc.dump(2) << "\n";
  file.close();
  if (!file) fail(path, "the write failed");
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
  for (const LinearizationMatrix& m : linearization_matrices(lin)) {
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
  if (archive == nullptr) fail(path, "cannot create the file");
  for (const auto& [name, bytes] : files) {
    zip_source_t* source = zip_source_buffer(archive, bytes.data(), bytes.size(), 0);
    if (source == nullptr || zip_file_add(archive, name.c_str(), source, ZIP_FL_OVERWRITE) < 0) {
      zip_source_free(source);
      zip_discard(archive);
      fail(path, "the array " + name);
    }
  }
  if (zip_close(archive) != 0) {  // the buffers are read and the file made here
    const std::string reason = zip_strerror(archive);
    zip_discard(archive);
    fail(path, reason);
  }
}

void write_mat(const std::string& path, const Linearization& lin) {
  MatWriter mat(path, "linearization file");
  for (const LinearizationMatrix& m : linearization_matrices(lin)) {
    std::vector<double> by_column(m.values->size());  // MATLAB stores columns
    for (std::size_t i = 0; i < m.rows; ++i) {
      for (std::size_t j = 0; j < m.columns; ++j) by_column[i + j * m.rows] = (*m.values)[i * m.columns + j];
    }
    mat.write(mat_matrix(m.name, m.rows, m.columns, by_column.data()), m.name);
  }
  mat.write(mat_complex_column("eigenvalues", lin.eigenvalues), "eigenvalues");
  mat.write(mat_matrix("time", 1, 1, &lin.time), "time");
  mat.write(mat_texts("states", lin.states), "states");
  mat.write(mat_texts("inputs", lin.inputs), "inputs");
  mat.write(mat_texts("outputs", lin.outputs), "outputs");
}

}  // namespace

std::vector<LinearizationMatrix> linearization_matrices(const Linearization& lin) {
  const std::size_t n = lin.states.size();
  const std::size_t m = lin.inputs.size();
  const std::size_t p = lin.outputs.size();
  return {{"A", n, n, &lin.a}, {"B", n, m, &lin.b}, {"C", p, n, &lin.c}, {"D", p, m, &lin.d}};
}

bool is_linearization_file(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  return extension == ".json" || extension == ".mat" || extension == ".npz";
}

void write_linearization_file(const std::string& path, const Linearization& lin) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".json") {
    write_json(path, lin);
  } else if (extension == ".mat") {
    write_mat(path, lin);
  } else if (extension == ".npz") {
    write_npz(path, lin);
  } else {
    throw std::invalid_argument("write_linearization_file: '" + path + "' is not a .json, .mat or .npz file");
  }
}

}  // namespace ctde::results
