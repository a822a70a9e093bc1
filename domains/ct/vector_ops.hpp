#pragma once
/// The vector operations of the solver's serial N_Vectors, compiled in this
/// project.
///
/// Debian's SUNDIALS is compiled without optimization (-O0), and an explicit
/// Runge–Kutta step spends most of its time in vector operations (stage
/// combinations, norms, copies): with these operations a hand-written
/// ARKODE run of a 1000-state chain takes 26.9 ms instead of 112 ms
/// (docs/performance.md, "Vector operations"). These are
/// the same operations, written here and compiled with the project's flags,
/// installed in the operation table of each serial vector (its content is
/// unchanged, so NV_DATA_S and the dense linear solvers still work; clones
/// copy the table). Each one keeps the serial implementation's special cases
/// and its order of summation, so results are bit for bit those of the
/// library's own (tests/ct/test_vector_ops.cpp checks every operation).

#include <sundials/sundials_nvector.h>

namespace ctde {

/// Installs the project's operations in serial vector `v` (from
/// N_VNew_Serial, N_VNewEmpty_Serial or their clones): every standard
/// operation and local reduction, and the fused and vector array operations
/// that `v` has enabled (enable them first; absent ones stay absent, so
/// that ARKODE computes as it did). The rest stays as it was. Nothing is
/// installed when the fast paths are off (core/fast_paths.hpp).
void use_project_vector_ops(N_Vector v);

}  // namespace ctde
