#pragma once
/// MATLAB variables and files through matio, for the MAT files ctde writes
/// (mat_file.cpp: a run's results; linearization_file.cpp: a
/// linearization). Every variable is made with its data copied, and freed by
/// its owner.

#include <matio.h>

#include <complex>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace ctde::results {

struct MatVarFree {
  void operator()(matvar_t* var) const { Mat_VarFree(var); }
};
/// A variable, owned; null when matio could not make it.
using MatVar = std::unique_ptr<matvar_t, MatVarFree>;

/// A rows x columns double matrix from column-major `data` (MATLAB's order).
[[nodiscard]] MatVar mat_matrix(const char* name, std::size_t rows, std::size_t columns, const double* data);
/// A complex column of `values`.
[[nodiscard]] MatVar mat_complex_column(const char* name, const std::vector<std::complex<double>>& values);
/// A text: a 1 x length char array.
[[nodiscard]] MatVar mat_text(const char* name, const std::string& value);
/// A column cell array of texts, or null when matio could not make one of them.
[[nodiscard]] MatVar mat_texts(const char* name, const std::vector<std::string>& values);

/// A MAT file (version 5, uncompressed) being written; closed when it goes.
/// Every failure is a WriteError "cannot write the <what> '<path>': <reason>".
class MatWriter {
 public:
  /// Creates or truncates `path`; `what` names the file in messages ("MAT file").
  /// @throws WriteError when it cannot be created.
  MatWriter(std::string path, std::string what);
  MatWriter(const MatWriter&) = delete;
  MatWriter& operator=(const MatWriter&) = delete;
  ~MatWriter();

  /// Writes `var`, made for the variable `name`.
  /// @throws WriteError naming the variable when it is null or cannot be written.
  void write(MatVar var, const std::string& name);
  /// @throws WriteError with `reason`.
  [[noreturn]] void fail(const std::string& reason) const;

 private:
  std::string path_;
  std::string what_;
  mat_t* mat_ = nullptr;
};

}  // namespace ctde::results
