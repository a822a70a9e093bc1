// A separate project that uses an installed ctde with <prefix>/include as
// its only include folder: builds a model in C++, validates it, runs it into
// columns and checks the numbers.

// Nothing of ctde before its headers: no compile definition and no folder
// of the package's internals on the include path.
#ifdef CTDE_VERSION
#error "CTDE_VERSION is defined before any ctde header: a compile definition leaks from the package"
#endif
#if __has_include("core/model.hpp") || __has_include(<core/model.hpp>)
#error "core/model.hpp is on the include path: <prefix>/include/ctde leaks from the package"
#endif

#include <ctde/actors/continuous/integrator.hpp>  // a header alone finds its own includes
#include <ctde/ctde.hpp>

#include <cmath>
#include <iostream>
#include <string>

int main() {
  ctde::Model model("consumer");
  auto& source = model.add<ctde::Constant>("source");
  source.set_parameter("value", 2.0);
  model.add<ctde::Integrator>("x");
  model.connect("source.out", "x.in");
  model.record() = {"x.out"};
  const ctde::FlatModel flat = ctde::validate(model);
  bool ok = flat.actors.size() == 2 && flat.continuous_schedule.size() == 2 &&
            flat.actors[1].mode == ctde::TimeMode::kContinuous;

  ctde::RunOptions options;
  options.stop_time = 1.0;
  ctde::ColumnarResults results(ctde::resolve_record(flat, model.record()));
  ctde::Director director(flat, options, model.name(), nullptr, &results);
  const ctde::RunResult result = director.run();
  // x' = 2 from 0: x(1) = 2.
  ok = ok && result.status == ctde::RunStatus::kOk && results.rows() >= 2 && results.time().back() == 1.0 &&
       std::abs(results.column("x.out").back() - 2.0) < 1e-9;
  ok = ok && std::string(CTDE_VERSION) == CONSUMER_EXPECTED_VERSION;
  std::cout << (ok ? "consumer ok" : "consumer FAILED") << " (ctde " << CTDE_VERSION << ")\n";
  return ok ? 0 : 1;
}
