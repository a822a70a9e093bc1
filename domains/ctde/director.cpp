#include "domains/ctde/director.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/actor_context.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "domains/de/event_queue.hpp"

namespace ctde {

const char* to_string(RunStatus status) {
  switch (status) {
    case RunStatus::kOk: return "ok";
    case RunStatus::kStopped: return "stopped";
    case RunStatus::kError: return "error";
  }
  return "?";
}

class Director::Impl final : public DirectorServices {
 public:
  Impl(const FlatModel& model, const RunOptions& options, std::string name, TraceWriter* trace)
      : model_(model),
        options_(options),
        name_(std::move(name)),
        trace_(trace),
        resolution_(options.time_resolution),
        start_(resolution_.to_ticks(options.start_time)),
        stop_(resolution_.to_ticks(options.stop_time)) {
    lay_out();
  }

  RunResult run() {
    if (trace_ != nullptr) {
      trace_->run_start({name_, to_string(options_.solver), options_.rtol, options_.atol,
                         options_.stop_time, options_.time_resolution});
    }
    try {
      initialize();
      while (!stop_requested_) {
        if (queue_.empty()) break;
        const Tick t = queue_.peek().tag.time;
        if (t > stop_) break;
        now_ = {t, 0};
        discrete_phase();
      }
      if (!stop_requested_) now_ = {std::max(now_.time, stop_), 0};
      return finish(stop_requested_ ? RunStatus::kStopped : RunStatus::kOk, "", "");
    } catch (const Failure& f) {
      return finish(RunStatus::kError, f.message, f.actor);
    }
  }

  // ---- DirectorServices

  void emit(std::uint32_t actor, std::uint32_t output, std::span<const double> token) override {
    const std::uint32_t port = b_.actors[actor].first_output + output;
    const Slice value = b_.outputs[port];
    if (token.size() != value.width) {
      throw std::logic_error(model_.actors[actor].path + " sent a token of width " +
                             std::to_string(token.size()) + " on a port of width " +
                             std::to_string(value.width));
    }
    std::copy(token.begin(), token.end(), b_.signals.begin() + value.offset);
    ++stats_.events;
    if (trace_ != nullptr) {
      const Tag delivered{now_.time, now_.microstep + 1};
      trace_->event(delivered, resolution_.to_seconds(delivered.time), model_.actors[actor].path,
                    model_.actors[actor].actor->outputs()[output].name, token);
    }
    for (std::uint32_t r = b_.receivers_begin[port]; r < b_.receivers_begin[port + 1]; ++r) {
      const std::uint32_t input = b_.receivers[r];
      const Slice slot = b_.input_tokens[input];
      std::copy(token.begin(), token.end(), b_.tokens_next.begin() + slot.offset);
      if (b_.present_next[input] == 0) {
        b_.present_next[input] = 1;
        present_next_list_.push_back(input);
      }
      const std::uint32_t receiver = b_.input_owner[input];
      if (scheduled_next_[receiver] == 0) {
        scheduled_next_[receiver] = 1;
        fire_next_.push_back(receiver);
      }
    }
  }

  void fire_at(std::uint32_t actor, Tick time) override {
    if (time < now_.time) {
      throw std::logic_error(model_.actors[actor].path + " asked to be fired in the past");
    }
    if (time > stop_) return;  // never reached
    const Tag tag = time == now_.time && initialized_ ? Tag{time, now_.microstep + 1} : Tag{time, 0};
    queue_.insert(Event{tag, b_.depth[actor], 0, actor, 0});
  }

  void request_stop(std::uint32_t actor) override {
    stop_requested_ = true;
    stop_actor_ = actor;
  }

  void states_changing(std::uint32_t actor) override {
    if (!initialized_) return;
    throw Failure{"continuous states are not supported by this director yet",
                  model_.actors[actor].path};
  }

  [[nodiscard]] const TimeResolution& resolution() const override { return resolution_; }
  [[nodiscard]] Tick start_tick() const override { return start_; }
  [[nodiscard]] Tick stop_tick() const override { return stop_; }

 private:
  struct Failure {
    std::string message;
    std::string actor;
  };

  /// Offsets of every port in the flat buffers.
  void lay_out() {
    const auto n = static_cast<std::uint32_t>(model_.actors.size());
    b_.actors.resize(n);
    b_.depth.resize(n);
    std::uint32_t signal_size = 0;
    std::uint32_t token_size = 0;
    std::uint32_t inputs = 0;
    std::uint32_t outputs = 0;
    for (std::uint32_t a = 0; a < n; ++a) {
      const FlatActor& actor = model_.actors[a];
      if (actor.actor->state_size() > 0) {
        throw ModelError(actor.actor->describe() + " has continuous states; this version of the "
                         "director runs discrete-event models only");
      }
      b_.depth[a] = actor.depth;
      b_.actors[a].first_input = inputs;
      b_.actors[a].first_output = outputs;
      for (const int w : actor.output_widths) {
        b_.outputs.push_back({signal_size, static_cast<std::uint32_t>(w)});
        signal_size += static_cast<std::uint32_t>(w);
        ++outputs;
      }
      for (std::size_t i = 0; i < actor.input_widths.size(); ++i) {
        const auto w = static_cast<std::uint32_t>(actor.input_widths[i]);
        b_.input_tokens.push_back({token_size, w});
        b_.input_owner.push_back(a);
        token_size += w;
        ++inputs;
      }
    }
    // Unconnected inputs read a slice of zeros at the end of the signals.
    std::uint32_t widest = 1;
    for (const Slice& s : b_.input_tokens) widest = std::max(widest, s.width);
    const std::uint32_t zeros = signal_size;
    signal_size += widest;
    b_.signals.assign(signal_size, 0.0);
    for (const Slice& s : b_.outputs) widest = std::max(widest, s.width);
    b_.scratch.assign(widest, 0.0);
    b_.inputs.resize(inputs);
    std::vector<std::vector<std::uint32_t>> receivers(outputs);
    for (std::uint32_t a = 0; a < n; ++a) {
      const FlatActor& actor = model_.actors[a];
      for (std::size_t i = 0; i < actor.drivers.size(); ++i) {
        const std::uint32_t input = b_.actors[a].first_input + static_cast<std::uint32_t>(i);
        if (!actor.drivers[i]) {
          b_.inputs[input] = {zeros, static_cast<std::uint32_t>(actor.input_widths[i])};
          continue;
        }
        const std::uint32_t output = b_.actors[actor.drivers[i]->actor].first_output + actor.drivers[i]->port;
        b_.inputs[input] = b_.outputs[output];
        if (actor.input_kinds[i] == PortKind::kDiscrete) receivers[output].push_back(input);
      }
    }
    b_.receivers_begin.assign(1, 0);
    for (const auto& list : receivers) {
      b_.receivers.insert(b_.receivers.end(), list.begin(), list.end());
      b_.receivers_begin.push_back(static_cast<std::uint32_t>(b_.receivers.size()));
    }
    b_.tokens_now.assign(token_size, 0.0);
    b_.tokens_next.assign(token_size, 0.0);
    b_.present_now.assign(inputs, 0);
    b_.present_next.assign(inputs, 0);
    b_.states.resize(n);
    b_.x = b_.x_storage.data();
    scheduled_next_.assign(n, 0);
    firing_flag_.assign(n, 0);
    time_event_flag_.assign(n, 0);
  }

  void initialize() {
    now_ = {start_, 0};
    const double t = resolution_.to_seconds(start_);
    for (const std::uint32_t a : order()) {
      const Actor& actor = *model_.actors[a].actor;
      b_.states[a] = actor.make_state();
      ActorContext context(b_, this, a, now_, t);
      guarded(a, [&] { actor.initialize(context); });
    }
    for (const std::uint32_t a : model_.continuous_schedule) {
      ActorContext context(b_, this, a, now_, t);
      guarded(a, [&] { model_.actors[a].actor->evaluate(context); });
    }
    initialized_ = true;
  }

  /// Every actor in depth order.
  [[nodiscard]] std::vector<std::uint32_t> order() const {
    std::vector<std::uint32_t> out(model_.actors.size());
    for (std::uint32_t a = 0; a < out.size(); ++a) out[model_.actors[a].depth] = a;
    return out;
  }

  /// Runs `call` for actor `a`, turning its failures into a run failure.
  template <class Call>
  void guarded(std::uint32_t a, Call&& call) {
    try {
      call();
    } catch (const Failure&) {
      throw;
    } catch (const std::exception& e) {
      throw Failure{model_.actors[a].path + ": " + e.what(), model_.actors[a].path};
    }
  }

  void discrete_phase() {
    const double t = resolution_.to_seconds(now_.time);
    while (true) {
      // Update: what was sent at n-1 becomes visible at n.
      for (const std::uint32_t p : present_now_list_) b_.present_now[p] = 0;
      present_now_list_.clear();
      std::swap(b_.present_now, b_.present_next);
      std::swap(b_.tokens_now, b_.tokens_next);
      std::swap(present_now_list_, present_next_list_);
      firing_.swap(fire_next_);
      fire_next_.clear();
      for (const std::uint32_t a : firing_) {
        scheduled_next_[a] = 0;
        firing_flag_[a] = 1;
      }
      while (!queue_.empty() && queue_.peek().tag == now_) {
        const std::uint32_t a = queue_.peek().target;
        queue_.pop();
        ++stats_.time_events;
        time_event_flag_[a] = 1;
        if (trace_ != nullptr) trace_->time_event(now_, t, model_.actors[a].path);
        if (firing_flag_[a] == 0) {
          firing_flag_[a] = 1;
          firing_.push_back(a);
        }
      }
      if (firing_.empty()) return;
      if (now_.microstep >= static_cast<std::uint64_t>(options_.max_microsteps)) zeno(t);
      if (firing_.size() > 1) {
        std::sort(firing_.begin(), firing_.end(),
                  [this](std::uint32_t a, std::uint32_t b) { return b_.depth[a] < b_.depth[b]; });
      }
      for (const std::uint32_t a : firing_) {
        ActorContext context(b_, this, a, now_, t, time_event_flag_[a] != 0);
        guarded(a, [&] { model_.actors[a].actor->fire(context); });
        firing_flag_[a] = 0;
        time_event_flag_[a] = 0;
      }
      firing_.clear();
      if (stop_requested_) return;
      ++now_.microstep;
    }
  }

  [[noreturn]] void zeno(double t) {
    std::string names;
    for (std::size_t i = 0; i < firing_.size() && i < 8; ++i) {
      names += (names.empty() ? "" : ", ") + model_.actors[firing_[i]].path;
    }
    if (firing_.size() > 8) names += ", ...";
    throw Failure{"Zeno behaviour: more than max_microsteps (" + std::to_string(options_.max_microsteps) +
                      ") microsteps at t = " + format_double(t) + " s; still firing: " + names +
                      " (a zero-delay loop keeps sending tokens; add a TimeDelay with a positive "
                      "delay, or raise max_microsteps)",
                  model_.actors[firing_.front()].path};
  }

  RunResult finish(RunStatus status, std::string message, std::string actor) {
    RunResult result;
    result.status = status;
    result.tag = now_;
    result.time = resolution_.to_seconds(now_.time);
    result.stats = stats_;
    if (status == RunStatus::kStopped) result.actor = model_.actors[stop_actor_].path;
    if (status == RunStatus::kError) {
      result.message = "at " + describe(now_, resolution_) + ": " + message;
      result.actor = actor;
      if (trace_ != nullptr) trace_->error(now_, result.time, "error", result.message, actor);
    }
    if (trace_ != nullptr) trace_->run_end(to_string(status), stats_);
    return result;
  }

  const FlatModel& model_;
  RunOptions options_;
  std::string name_;
  TraceWriter* trace_;
  TimeResolution resolution_;
  Tick start_;
  Tick stop_;
  RunBuffers b_;
  EventQueue queue_;
  Tag now_;
  bool initialized_ = false;
  bool stop_requested_ = false;
  std::uint32_t stop_actor_ = 0;
  RunStatistics stats_;
  std::vector<std::uint32_t> firing_;
  std::vector<std::uint32_t> fire_next_;
  std::vector<std::uint8_t> scheduled_next_;
  std::vector<std::uint8_t> firing_flag_;
  std::vector<std::uint8_t> time_event_flag_;
  std::vector<std::uint32_t> present_now_list_;
  std::vector<std::uint32_t> present_next_list_;
};

Director::Director(const FlatModel& model, const RunOptions& options, std::string model_name,
                   TraceWriter* trace)
    : impl_(std::make_unique<Impl>(model, options, std::move(model_name), trace)) {}

Director::~Director() = default;

RunResult Director::run() { return impl_->run(); }

}  // namespace ctde
