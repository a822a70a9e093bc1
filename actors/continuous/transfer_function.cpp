#include "actors/continuous/transfer_function.hpp"

namespace ctde {

TransferFunction::TransferFunction(std::string name) : Actor(std::move(name), "TransferFunction", TimeMode::kContinuous) {
  declare_input("in", PortKind::kContinuous, 1);
  declare_output("out", PortKind::kContinuous, 1);
  num_ = declare_parameter("num", ParamKind::kVector);
  den_ = declare_parameter("den", ParamKind::kVector);
}

void TransferFunction::configure(const ParameterScope& scope) {
  (void)scope;
  auto num = vector(num_);
  const auto den = vector(den_);
  if (den.empty() || den[0] == 0.0) fail(den_, "must have a non-zero leading coefficient");
  while (num.size() > 1 && num[0] == 0.0) num = num.subspan(1);
  if (num.size() > den.size()) {
    fail("the numerator's degree (" + std::to_string(num.size() - 1) +
         ") exceeds the denominator's (" + std::to_string(den.size() - 1) + "): not proper");
  }
  set_feedthrough(num.size() == den.size() && num[0] != 0.0);
}

}  // namespace ctde
