#include "results/mat_variables.hpp"

#include <array>
#include <utility>

#include "results/write_error.hpp"

namespace ctde::results {

MatVar mat_matrix(const char* name, std::size_t rows, std::size_t columns, const double* data) {
  std::array<std::size_t, 2> dims{rows, columns};
  return MatVar(Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims.data(), const_cast<double*>(data),
                              0));  // NOLINT(cppcoreguidelines-pro-type-const-cast): copied
}

MatVar mat_complex_column(const char* name, const std::vector<std::complex<double>>& values) {
  std::vector<double> re;
  std::vector<double> im;
  re.reserve(values.size());
  im.reserve(values.size());
  for (const std::complex<double>& v : values) {
    re.push_back(v.real());
    im.push_back(v.imag());
  }
  mat_complex_split_t split{re.data(), im.data()};
  std::array<std::size_t, 2> dims{values.size(), 1};
  return MatVar(Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims.data(), &split, MAT_F_COMPLEX));
}

MatVar mat_text(const char* name, const std::string& value) {
  std::array<std::size_t, 2> dims{1, value.size()};
  return MatVar(Mat_VarCreate(name, MAT_C_CHAR, MAT_T_UINT8, 2, dims.data(), const_cast<char*>(value.data()),
                              0));  // NOLINT(cppcoreguidelines-pro-type-const-cast): copied
}

MatVar mat_texts(const char* name, const std::vector<std::string>& values) {
  std::array<std::size_t, 2> dims{values.size(), 1};
  MatVar cells(Mat_VarCreate(name, MAT_C_CELL, MAT_T_CELL, 2, dims.data(), nullptr, 0));
  if (!cells) return cells;
  for (std::size_t i = 0; i < values.size(); ++i) {
    MatVar text = mat_text(nullptr, values[i]);
    if (!text) return nullptr;
    Mat_VarSetCell(cells.get(), static_cast<int>(i), text.release());  // the cell array owns it
  }
  return cells;
}

MatWriter::MatWriter(std::string path, std::string what) : path_(std::move(path)), what_(std::move(what)) {
  mat_ = Mat_CreateVer(path_.c_str(), nullptr, MAT_FT_MAT5);
  if (mat_ == nullptr) fail("cannot create the file");
}

MatWriter::~MatWriter() {
  if (mat_ != nullptr) Mat_Close(mat_);
}

void MatWriter::write(MatVar var, const std::string& name) {
  if (!var || Mat_VarWrite(mat_, var.get(), MAT_COMPRESSION_NONE) != 0) fail("the variable " + name);
}

void MatWriter::fail(const std::string& reason) const {
  throw WriteError("cannot write the " + what_ + " '" + path_ + "': " + reason);
}

}  // namespace ctde::results
