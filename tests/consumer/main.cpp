// A separate project that uses an installed ctde: builds a model in C++ and validates it.
#include <ctde/actors/continuous/integrator.hpp>
#include <ctde/actors/sources/constant.hpp>
#include <ctde/core/validate.hpp>

#include <iostream>

int main() {
  ctde::Model model("consumer");
  auto& source = model.add<ctde::Constant>("source");
  source.set_parameter("value", 2.0);
  model.add<ctde::Integrator>("x");
  model.connect("source.out", "x.in");
  const ctde::FlatModel flat = ctde::validate(model);
  const bool ok = flat.actors.size() == 2 && flat.continuous_schedule.size() == 2 &&
                  flat.actors[1].mode == ctde::TimeMode::kContinuous;
  std::cout << (ok ? "consumer ok" : "consumer FAILED") << "\n";
  return ok ? 0 : 1;
}
