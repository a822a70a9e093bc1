// A user actor type in a plugin for `ctde run --load` (tests/cli/test_cli_plugins.cpp):
// y = 2 u, polymorphic like the built-in Gain, with its own tooltip and validation line.
#include <ctde/ctde.hpp>

namespace {

class Doubler final : public ctde::Actor {
 public:
  static constexpr ctde::ActorInfo kInfo{
      .type = "Doubler",
      .family = "user",
      .summary = "y = 2 u.",
      .sample_params = R"({})",
  };
  explicit Doubler(std::string name) : Actor(std::move(name), kInfo, ctde::TimeMode::kUnresolved) {
    in_ = declare_input("in", ctde::PortKind::kPolymorphic);
    out_ = declare_output("out", ctde::PortKind::kPolymorphic);
  }
  void evaluate(ctde::EvalContext& context) const override {
    const auto u = context.input(in_);
    const auto y = context.output(out_);
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = 2.0 * u[i];
  }
  // What `ctde graph` and `ctde validate` show of it: a plug-in says it of itself, as the built-in types do.
  [[nodiscard]] std::string tooltip_lines() const override { return "\nfactor = 2 (fixed)"; }
  [[nodiscard]] std::string validation_summary() const override { return "doubles its input"; }

 private:
  ctde::InputPort in_;
  ctde::OutputPort out_;
};

}  // namespace

extern "C" void ctde_register_actors(ctde::ActorRegistry& registry) {
  ctde::register_actor<Doubler>(registry);
}
