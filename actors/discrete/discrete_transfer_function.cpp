#include "actors/discrete/discrete_transfer_function.hpp"

#include "core/actor_context.hpp"

namespace ctde {

DiscreteTransferFunction::DiscreteTransferFunction(std::string name)
    : UnaryActor(std::move(name), kInfo, TimeMode::kDiscrete, 1) {
  num_ = declare_parameter("num", ParamKind::kVector);
  den_ = declare_parameter("den", ParamKind::kVector);
}

void DiscreteTransferFunction::configure(const ParameterScope& /*scope*/) {
  const auto num = vector(num_);
  const auto den = vector(den_);
  if (den.empty() || den[0] == 0.0) {
    fail(den_, "must start with a non-zero coefficient (the highest power of z)");
  }
  if (num.size() > den.size()) {
    fail(num_, "has degree " + std::to_string(num.size() - 1) + ", above the denominator's (" +
                   std::to_string(den.size() - 1) + "): the filter would need future inputs");
  }
  const std::size_t order = den.size() - 1;
  a_.assign(order + 1, 0.0);
  b_.assign(order + 1, 0.0);
  for (std::size_t i = 0; i <= order; ++i) a_[i] = den[i] / den[0];
  const std::size_t shift = den.size() - num.size();  // num(z) / z^order in powers of z^-1
  for (std::size_t i = 0; i < num.size(); ++i) b_[shift + i] = num[i] / den[0];
  set_feedthrough(b_[0] != 0.0);  // strictly proper: y[k] from the delay line alone
}

namespace {
/// The direct form II transposed delay line (the filter's order of values).
struct FilterState final : ActorState {
  std::vector<double> s;

  /// Its size is the order's (a snapshot of another order is refused).
  void save(StateWriter& out) const override { out.values(s); }
  void restore(StateReader& in) override { in.values_into(std::span<double>(s)); }
};
}  // namespace

std::unique_ptr<ActorState> DiscreteTransferFunction::make_state() const {
  auto state = std::make_unique<FilterState>();
  state->s.assign(a_.size() - 1, 0.0);
  return state;
}

double DiscreteTransferFunction::step(std::vector<double>& s, double u) const {
  const std::size_t order = s.size();
  const double y = b_[0] * u + (order > 0 ? s[0] : 0.0);
  for (std::size_t i = 0; i < order; ++i) {
    const double next = i + 1 < order ? s[i + 1] : 0.0;
    s[i] = next + b_[i + 1] * u - a_[i + 1] * y;
  }
  return y;
}

void DiscreteTransferFunction::fire(FireContext& context) const {
  auto& s = context.state<FilterState>().s;
  if (context.breaks_loop()) {  // strictly proper: y[k] = s[0] is sent when a token samples the loop
    if (context.has_token(in_)) (void)step(s, context.token(in_)[0]);
    if (context.loop_sample()) context.emit(out_, s.empty() ? 0.0 : s[0]);
    return;
  }
  if (!context.has_token(in_)) return;
  context.emit(out_, step(s, context.token(in_)[0]));
}

}  // namespace ctde
