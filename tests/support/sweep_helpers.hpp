#pragma once
// What the tests of `ctde sweep` share (tests/cli/test_cli_sweep*.cpp,
// tests/sweep/test_warm_start_command.cpp): running the command, under
// mpirun too, and the Python scripts that read its HDF5 files.

#include <doctest/doctest.h>

#include <string>

#include "cli_helpers.hpp"

namespace ctde::test {

/// The command was built with MPI (tests/CMakeLists.txt: CMake found it and CTDE_MPI is on).
inline constexpr bool kHaveMpi = CTDE_HAVE_MPI != 0;

/// Debian's interpreter, which has h5py.
inline const std::string kSweepPython = "/usr/bin/python3";

/// `ctde sweep MODEL SPEC -o OUT OPTIONS`.
inline CommandResult sweep(const std::string& model, const std::string& spec, const std::string& out,
                           const std::string& options) {
  return run_cli("sweep " + model + " " + spec + " -o " + out + " " + options);
}

/// Check `check` of tests/cli/sweep_checks.py on `arguments`: what it
/// printed, status 0 when its assertions held.
inline CommandResult python_check(const std::string& check, const std::string& arguments) {
  return run_shell(kSweepPython + " " + CTDE_SOURCE_DIR + "/tests/cli/sweep_checks.py " + check + " " +
                   arguments + " 2>&1");
}

/// tests/sweep/h5_compare.py's verdict on two sweep files.
inline CommandResult compare(const std::string& a, const std::string& b) {
  return run_shell(kSweepPython + " " + CTDE_SOURCE_DIR + "/tests/sweep/h5_compare.py " + a + " " + b +
                   " 2>&1");
}

/// Checks that sweep files `a` and `b` hold the same runs (the comparison
/// script's difference as the message).
inline void check_same_file(const std::string& a, const std::string& b) {
  const CommandResult same = compare(a, b);
  CHECK_MESSAGE(same.status == 0, same.output);
}

/// `mpirun ... ctde ARGUMENTS` with what Open MPI needs here (root, more ranks than cores), for this
/// command only. Open MPI's own allocations outlive MPI_Finalize: a sanitized build does not count them.
inline CommandResult mpirun(int ranks, const std::string& arguments) {
  return run_shell(
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
      "ASAN_OPTIONS=\"${ASAN_OPTIONS}:detect_leaks=0\" "
      "mpirun --oversubscribe -np " +
      std::to_string(ranks) + " " + CTDE_CLI + " " + arguments + " 2>&1");
}

}  // namespace ctde::test
