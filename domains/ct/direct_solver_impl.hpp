#pragma once
/// (Private: not installed, it includes SUNDIALS.) What the direct linear
/// solvers of the Newton systems compiled here share (band_solver.cpp,
/// dense_solver.cpp): a SUNLinearSolver of SUNDIALS' direct type whose
/// content, a `Content` (with a member `sunindextype last_flag`), holds the
/// solver's own data and is freed with it by SUNLinSolFree.

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

#include <new>

namespace ctde {

/// The content of `s`, a solver made by make_direct_solver<Content>.
template <class Content>
Content& direct_content(SUNLinearSolver s) {
  return *static_cast<Content*>(s->content);
}

/// A new direct solver with a default Content and these setup and solve
/// operations. Null when out of memory.
template <class Content>
SUNLinearSolver make_direct_solver(SUNContext ctx, int (*setup)(SUNLinearSolver, SUNMatrix),
                                   int (*solve)(SUNLinearSolver, SUNMatrix, N_Vector, N_Vector,
                                                sunrealtype)) {
  SUNLinearSolver s = SUNLinSolNewEmpty(ctx);
  if (s == nullptr) return nullptr;
  auto* content = new (std::nothrow) Content;
  if (content == nullptr) {
    SUNLinSolFreeEmpty(s);
    return nullptr;
  }
  s->content = content;
  s->ops->gettype = [](SUNLinearSolver /*s*/) { return SUNLINEARSOLVER_DIRECT; };
  s->ops->getid = [](SUNLinearSolver /*s*/) { return SUNLINEARSOLVER_CUSTOM; };
  s->ops->lastflag = [](SUNLinearSolver solver) { return direct_content<Content>(solver).last_flag; };
  s->ops->setup = setup;
  s->ops->solve = solve;
  s->ops->free = [](SUNLinearSolver solver) {
    if (solver == nullptr) return 0;
    delete static_cast<Content*>(solver->content);
    solver->content = nullptr;
    SUNLinSolFreeEmpty(solver);
    return 0;
  };
  return s;
}

}  // namespace ctde
