// A linearization's files (results/linearization_file.hpp), read back with
// the libraries that read them elsewhere: JSON with nlohmann, the MAT file
// with matio, the .npz archive with libzip and its .npy arrays by their
// format's layout (python/tests/test_linearize.py reads all three with
// numpy and scipy); and what each refuses.
#include <doctest/doctest.h>
#include <matio.h>
#include <zip.h>
#include <nlohmann/json.hpp>

#include <complex>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "results/linearization_file.hpp"
#include "results/write_error.hpp"
#include "support/cli_helpers.hpp"

using namespace ctde;
using namespace ctde::results;
using ctde::test::scratch_file;

namespace {

/// Two states, one input, two outputs; A's eigenvalues -1 ± 2i.
Director::Linearization sample() {
  Director::Linearization lin;
  lin.time = 1.5;
  lin.states = {"x[0]", "x[1]"};
  lin.inputs = {"u.in"};
  lin.outputs = {"y.out", "longer_name.out"};
  lin.a = {-1, 2, -2, -1};
  lin.b = {0, 1};
  lin.c = {1, 0, 0.5, 3};
  lin.d = {0, 7};
  lin.eigenvalues = {{-1, 2}, {-1, -2}};
  return lin;
}

/// The bytes of `name` in the zip archive at `path`.
std::string zip_entry(const std::string& path, const std::string& name) {
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &error);
  REQUIRE(archive != nullptr);
  zip_stat_t stat;
  REQUIRE(zip_stat(archive, name.c_str(), 0, &stat) == 0);
  std::string bytes(stat.size, '\0');
  zip_file_t* file = zip_fopen(archive, name.c_str(), 0);
  REQUIRE(file != nullptr);
  CHECK(zip_fread(file, bytes.data(), stat.size) == static_cast<zip_int64_t>(stat.size));
  zip_fclose(file);
  zip_close(archive);
  return bytes;
}

/// An .npy array: its header's text and its data's bytes, the layout checked.
struct Npy {
  std::string header;
  std::string data;
};
Npy read_npy(const std::string& bytes) {
  REQUIRE(bytes.size() >= 10);
  CHECK(bytes.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
  const std::size_t length = static_cast<unsigned char>(bytes[8]) +
                             256 * static_cast<std::size_t>(static_cast<unsigned char>(bytes[9]));
  CHECK((10 + length) % 64 == 0);  // the data starts aligned
  CHECK(bytes[10 + length - 1] == '\n');
  return {bytes.substr(10, length), bytes.substr(10 + length)};
}

std::vector<double> doubles(const std::string& data) {
  std::vector<double> out(data.size() / sizeof(double));
  std::memcpy(out.data(), data.data(), out.size() * sizeof(double));
  return out;
}

}  // namespace

TEST_CASE("a linearization's JSON file holds A, B, C, D row by row, the names, the eigenvalues, the time") {
  const Director::Linearization lin = sample();
  const std::string path = scratch_file("linearization_file", "lin.json").string();
  write_linearization_file(path, lin);
  std::ifstream file(path);
  const nlohmann::json doc = nlohmann::json::parse(file);
  CHECK(doc["time"] == 1.5);
  CHECK(doc["states"] == nlohmann::json(lin.states));
  CHECK(doc["inputs"] == nlohmann::json(lin.inputs));
  CHECK(doc["outputs"] == nlohmann::json(lin.outputs));
  CHECK(doc["A"] == nlohmann::json::parse("[[-1, 2], [-2, -1]]"));
  CHECK(doc["B"] == nlohmann::json::parse("[[0], [1]]"));
  CHECK(doc["C"] == nlohmann::json::parse("[[1, 0], [0.5, 3]]"));
  CHECK(doc["D"] == nlohmann::json::parse("[[0], [7]]"));
  CHECK(doc["eigenvalues"] == nlohmann::json::parse("[[-1, 2], [-1, -2]]"));
}

TEST_CASE("a linearization's MAT file holds A, B, C, D by column, the names as cells, complex eigenvalues") {
  const Director::Linearization lin = sample();
  const std::string path = scratch_file("linearization_file", "lin.mat").string();
  write_linearization_file(path, lin);
  mat_t* mat = Mat_Open(path.c_str(), MAT_ACC_RDONLY);
  REQUIRE(mat != nullptr);
  const auto values = [&](const char* name, std::size_t rows, std::size_t columns) {
    matvar_t* var = Mat_VarRead(mat, name);
    REQUIRE(var != nullptr);
    CHECK(var->rank == 2);
    CHECK(var->dims[0] == rows);
    CHECK(var->dims[1] == columns);
    const auto* data = static_cast<const double*>(var->data);
    std::vector<double> out(data, data + rows * columns);
    Mat_VarFree(var);
    return out;
  };
  CHECK(values("A", 2, 2) == std::vector<double>{-1, -2, 2, -1});  // MATLAB's order: by column
  CHECK(values("B", 2, 1) == std::vector<double>{0, 1});
  CHECK(values("C", 2, 2) == std::vector<double>{1, 0.5, 0, 3});
  CHECK(values("D", 2, 1) == std::vector<double>{0, 7});
  CHECK(values("time", 1, 1) == std::vector<double>{1.5});
  matvar_t* eigenvalues = Mat_VarRead(mat, "eigenvalues");
  REQUIRE(eigenvalues != nullptr);
  CHECK(eigenvalues->isComplex != 0);
  const auto* split = static_cast<const mat_complex_split_t*>(eigenvalues->data);
  CHECK(static_cast<const double*>(split->Re)[1] == -1);
  CHECK(static_cast<const double*>(split->Im)[0] == 2);
  CHECK(static_cast<const double*>(split->Im)[1] == -2);
  Mat_VarFree(eigenvalues);
  matvar_t* outputs = Mat_VarRead(mat, "outputs");
  REQUIRE(outputs != nullptr);
  CHECK(outputs->class_type == MAT_C_CELL);
  CHECK(outputs->dims[0] == 2);
  matvar_t* second = Mat_VarGetCell(outputs, 1);
  REQUIRE(second != nullptr);
  CHECK(std::string(static_cast<const char*>(second->data), second->dims[1]) == "longer_name.out");
  Mat_VarFree(outputs);
  Mat_Close(mat);
}

TEST_CASE(
    "a linearization's .npz archive holds one .npy array per name, row-major, aligned as numpy reads it") {
  const Director::Linearization lin = sample();
  const std::string path = scratch_file("linearization_file", "lin.npz").string();
  write_linearization_file(path, lin);
  const Npy a = read_npy(zip_entry(path, "A.npy"));
  CHECK(a.header.rfind("{'descr': '<f8', 'fortran_order': False, 'shape': (2,2), }", 0) == 0);
  CHECK(doubles(a.data) == lin.a);
  CHECK(doubles(read_npy(zip_entry(path, "D.npy")).data) == lin.d);
  const Npy time = read_npy(zip_entry(path, "time.npy"));
  CHECK(time.header.rfind("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", 0) == 0);
  CHECK(doubles(time.data) == std::vector<double>{1.5});
  const Npy eigenvalues = read_npy(zip_entry(path, "eigenvalues.npy"));
  CHECK(eigenvalues.header.rfind("{'descr': '<c16', 'fortran_order': False, 'shape': (2,), }", 0) == 0);
  CHECK(doubles(eigenvalues.data) == std::vector<double>{-1, 2, -1, -2});
  // Names: UTF-32, each padded to the longest ("longer_name.out": 15 characters).
  const Npy outputs = read_npy(zip_entry(path, "outputs.npy"));
  CHECK(outputs.header.rfind("{'descr': '<U15', 'fortran_order': False, 'shape': (2,), }", 0) == 0);
  CHECK(outputs.data.size() == 2 * 15 * 4);
  CHECK(outputs.data.substr(0, 4) == std::string("y\0\0\0", 4));
  CHECK(outputs.data.substr(5 * 4, 4) == std::string("\0\0\0\0", 4));  // "y.out" padded
}

TEST_CASE("a linearization file that cannot be made is a WriteError naming it and why, in every format") {
  const std::filesystem::path folder = scratch_file("linearization_file", "no_such_folder");
  for (const std::string extension : {".json", ".mat", ".npz"}) {
    CAPTURE(extension);
    const std::string path = (folder / ("lin" + extension)).string();
    std::string message;
    try {
      write_linearization_file(path, sample());
    } catch (const WriteError& e) {
      message = e.what();
    }
    const std::string head = "cannot write the linearization file '" + path + "': ";
    // libzip makes the file when the archive closes, and says why it could not.
    const std::string reason = extension == ".npz" ? "No such file or directory" : "cannot create the file";
    CHECK(message.rfind(head, 0) == 0);
    CHECK(message.find(reason, head.size()) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(path));
  }
}

TEST_CASE("a linearization file is .json, .mat or .npz; another extension is refused") {
  CHECK(is_linearization_file("a/lin.json"));
  CHECK(is_linearization_file("lin.mat"));
  CHECK(is_linearization_file("lin.npz"));
  CHECK_FALSE(is_linearization_file("lin.xlsx"));
  CHECK_FALSE(is_linearization_file("lin"));
  CHECK_THROWS_AS(write_linearization_file("lin.xlsx", sample()), std::invalid_argument);
}
