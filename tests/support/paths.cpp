// The values of tests/support/paths.hpp: the only test file compiled with
// the absolute paths (CTDE_PATH_* definitions, tests/CMakeLists.txt).
#include "support/paths.hpp"

namespace ctde::test::paths {

const char* source_dir() { return CTDE_PATH_SOURCE_DIR; }
const char* binary_dir() { return CTDE_PATH_BINARY_DIR; }
const char* cli() { return CTDE_PATH_CLI; }
const char* test_fmus() { return CTDE_PATH_TEST_FMUS; }
const char* doubler_plugin() { return CTDE_PATH_DOUBLER_PLUGIN; }
const char* clashing_plugin() { return CTDE_PATH_CLASHING_PLUGIN; }
const char* faulty_plugin() { return CTDE_PATH_FAULTY_PLUGIN; }
#ifdef CTDE_PATH_EXAMPLE_FIRST_MODEL  // built with CTDE_BUILD_EXAMPLES (examples/cpp/CMakeLists.txt)
const char* example_first_model() { return CTDE_PATH_EXAMPLE_FIRST_MODEL; }
const char* example_thermostat() { return CTDE_PATH_EXAMPLE_THERMOSTAT; }
#else
const char* example_first_model() { return ""; }
const char* example_thermostat() { return ""; }
#endif

}  // namespace ctde::test::paths
