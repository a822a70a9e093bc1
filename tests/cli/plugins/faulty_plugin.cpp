// Actor types for the command's rare paths (tests/reliability/test_exit_paths.cpp):
// `Bug`, which throws std::logic_error where a bug in ctde would (exit 4), and
// `SaysStarted`, which tells a waiting test on stderr that the run is under way, so
// that a signal lands mid-run by construction rather than after a guessed sleep.
#include <ctde/ctde.hpp>

#include <unistd.h>

#include <atomic>
#include <stdexcept>
#include <string_view>

namespace {

/// Throws std::logic_error when asked for its number of states, which the director does
/// as it lays the run out, after the outputs were opened and outside the actor calls
/// it guards (those end the run as failed, exit 3): what an unexpected exception
/// inside ctde looks like to the command.
class Bug final : public ctde::Actor {
 public:
  static constexpr ctde::ActorInfo kInfo{
      .type = "Bug",
      .family = "user",
      .summary = "Throws std::logic_error when asked for its number of states (a planted bug).",
      .sample_params = R"({})",
  };
  explicit Bug(std::string name) : Actor(std::move(name), kInfo, ctde::TimeMode::kDiscrete) {}
  [[nodiscard]] std::size_t state_size() const override {
    throw std::logic_error("a planted bug (faulty_plugin.cpp)");
  }
};

/// The first event on `in` in this process writes "ctde-test: run under way" to stderr.
class SaysStarted final : public ctde::Actor {
 public:
  static constexpr ctde::ActorInfo kInfo{
      .type = "SaysStarted",
      .family = "user",
      .summary = "The first event on `in` writes \"ctde-test: run under way\" to stderr.",
      .sample_params = R"({})",
  };
  explicit SaysStarted(std::string name) : Actor(std::move(name), kInfo, ctde::TimeMode::kDiscrete) {
    in_ = declare_input("in", ctde::PortKind::kDiscrete);
    set_feedthrough(false);
  }
  void check_widths(std::span<const int> /*inputs*/, std::span<const int> /*outputs*/) const override {}
  void fire(ctde::FireContext& context) const override {
    static std::atomic<bool> said{false};
    // One write for the whole line: a sweep's processes share stderr, and `<< std::endl`
    // wrote the text and its newline apart, so two processes' lines could interleave.
    static constexpr std::string_view kLine = "ctde-test: run under way\n";
    if (context.has_token(in_) && !said.exchange(true)) {
      [[maybe_unused]] const auto written = ::write(STDERR_FILENO, kLine.data(), kLine.size());
    }
  }

 private:
  ctde::InputPort in_;
};

}  // namespace

extern "C" void ctde_register_actors(ctde::ActorRegistry& registry) {
  ctde::register_actor<Bug>(registry);
  ctde::register_actor<SaysStarted>(registry);
}
