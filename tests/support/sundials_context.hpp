#pragma once
// A SUNDIALS context for the tests that make SUNDIALS objects of their own
// (vectors, matrices, linear solvers), on SUNDIALS 6 and 7 alike.

#include <sundials/sundials_context.h>
#include <sundials/sundials_version.h>

#include <stdexcept>

namespace ctde::test {

class SundialsContext {
 public:
  SundialsContext() {
#if SUNDIALS_VERSION_MAJOR >= 7
    const int made = SUNContext_Create(SUN_COMM_NULL, &ctx_);
#else
    const int made = SUNContext_Create(nullptr, &ctx_);
#endif
    if (made != 0) throw std::runtime_error("SUNContext_Create failed");
  }
  ~SundialsContext() { (void)SUNContext_Free(&ctx_); }
  SundialsContext(const SundialsContext&) = delete;
  SundialsContext& operator=(const SundialsContext&) = delete;

  [[nodiscard]] SUNContext get() const { return ctx_; }

 private:
  SUNContext ctx_ = nullptr;
};

}  // namespace ctde::test
