#pragma once
/// The `Server` actor (what it computes: kInfo.summary).

#include "token_delay.hpp"

namespace ctde {

/// Not copyable, not movable (see Actor).
class Server : public TokenDelay {
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

 private:
  InputPort service_in_;
};

}  // namespace ctde
