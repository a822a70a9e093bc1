#pragma once
/// The `Server` actor (what it computes: kInfo.summary).

#include "../base/unary_actor.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Server : public UnaryActor {
 public:
  static constexpr ActorInfo kInfo{
      .type = "Server",
      .family = "discrete",
      .summary =
          "A single server with an unbounded FIFO queue: each token waits its turn, is served for its "
          "service time (the latest token on `service_time`, else the parameter `service_time`), then "
          "departs on `out`.",
      .sample_params = R"({"service_time": 0.5})",
  };

  explicit Server(std::string name);
  [[nodiscard]] std::unique_ptr<ActorState> make_state() const override;
  void fire(FireContext& context) const override;

 protected:
  void configure(const ParameterScope& scope) override;
  void check_times(const TimeResolution& resolution) const override;

 private:
  InputPort service_in_;
  ParamHandle service_;
};

}  // namespace ctde
