#pragma once
// The paths the tests use, as functions (tests/support/paths.cpp holds the
// values): the macros CTDE_SOURCE_DIR, CTDE_BINARY_DIR, CTDE_CLI,
// CTDE_TEST_FMUS, the plugins' and the C++ examples' are defined for every
// test file as calls of these, so that no test file's command line holds an
// absolute path and a fresh clone's build hits ccache (tests/CMakeLists.txt).
// Included into every test file by the compiler (-include).

namespace ctde::test::paths {

const char* source_dir();
const char* binary_dir();
const char* cli();
const char* test_fmus();
const char* doubler_plugin();
const char* clashing_plugin();
const char* faulty_plugin();
const char* example_first_model();
const char* example_thermostat();

}  // namespace ctde::test::paths
