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
        const Tick t = queue_.peek().time();
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
      throw std::logic_error(flat(actor).path + " sent a token of width " +
                             std::to_string(token.size()) + " on a port of width " +
                             std::to_string(value.width));
    }
    std::copy(token.begin(), token.end(), b_.signals.begin() + value.offset);
    ++stats_.events;
    if (trace_ != nullptr) {
      const Tag delivered{now_.time, now_.microstep + 1};
      trace_->event(delivered, resolution_.to_seconds(delivered.time), flat(actor).path,
                    flat(actor).actor->outputs()[output].name, token);
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
      if ((flags_[receiver] & kScheduledNext) == 0) {
        flags_[receiver] |= kScheduledNext;
        fire_next_.push_back(receiver);
      }
    }
  }

  void fire_at(std::uint32_t actor, Tick time) override {
    if (time < now_.time) {
      throw std::logic_error(flat(actor).path + " asked to be fired in the past");
    }
    if (time > stop_) return;  // never reached
    const Tag tag = time == now_.time && initialized_ ? Tag{time, now_.microstep + 1} : Tag{time, 0};
    if (held_top_) {  // reuse the slot of the event that fired us: one sift instead of two
      held_top_ = false;
      queue_.replace_top(Event::at(tag, actor));
      return;
    }
    queue_.insert(Event::at(tag, actor));
  }

  void request_stop(std::uint32_t actor) override {
    stop_requested_ = true;
    stop_actor_ = actor;
  }

  void states_changing(std::uint32_t actor) override {
    if (!initialized_) return;
    throw Failure{"continuous states are not supported by this director yet",
                  flat(actor).path};
  }

  [[nodiscard]] const TimeResolution& resolution() const override { return resolution_; }
  [[nodiscard]] Tick start_tick() const override { return start_; }
  [[nodiscard]] Tick stop_tick() const override { return stop_; }

 private:
  struct Failure {
    std::string message;
    std::string actor;
  };

  /// Offsets of every port in the flat buffers. Inside the director an
  /// actor is known by its depth (its position in the topological order), so
  /// that the queue's events name their receiver and the firing loop walks
  /// arrays in order.
  void lay_out() {
    const auto n = static_cast<std::uint32_t>(model_.actors.size());
    by_depth_.resize(n);
    for (std::uint32_t a = 0; a < n; ++a) by_depth_[model_.actors[a].depth] = a;
    actors_.resize(n);
    b_.actors.resize(n);
    b_.depth.resize(n);
    std::uint32_t signal_size = 0;
    std::uint32_t token_size = 0;
    std::uint32_t inputs = 0;
    std::uint32_t outputs = 0;
    for (std::uint32_t d = 0; d < n; ++d) {
      const FlatActor& actor = flat(d);
      if (actor.actor->state_size() > 0) {
        throw ModelError(actor.actor->describe() + " has continuous states; this version of the "
                         "director runs discrete-event models only");
      }
      actors_[d] = actor.actor;
      b_.depth[d] = d;
      b_.actors[d].first_input = inputs;
      b_.actors[d].first_output = outputs;
      for (const int w : actor.output_widths) {
        b_.outputs.push_back({signal_size, static_cast<std::uint32_t>(w)});
        signal_size += static_cast<std::uint32_t>(w);
        ++outputs;
      }
      for (std::size_t i = 0; i < actor.input_widths.size(); ++i) {
        const auto w = static_cast<std::uint32_t>(actor.input_widths[i]);
        b_.input_tokens.push_back({token_size, w});
        b_.input_owner.push_back(d);
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
    for (std::uint32_t d = 0; d < n; ++d) {
      const FlatActor& actor = flat(d);
      for (std::size_t i = 0; i < actor.drivers.size(); ++i) {
        const std::uint32_t input = b_.actors[d].first_input + static_cast<std::uint32_t>(i);
        if (!actor.drivers[i]) {
          b_.inputs[input] = {zeros, static_cast<std::uint32_t>(actor.input_widths[i])};
          continue;
        }
        const std::uint32_t driver = model_.actors[actor.drivers[i]->actor].depth;
        const std::uint32_t output = b_.actors[driver].first_output + actor.drivers[i]->port;
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
    flags_.assign(n, 0);
    for (const std::uint32_t a : model_.continuous_schedule) continuous_.push_back(model_.actors[a].depth);
  }

  [[nodiscard]] const FlatActor& flat(std::uint32_t d) const { return model_.actors[by_depth_[d]]; }

  void initialize() {
    now_ = {start_, 0};
    const double t = resolution_.to_seconds(start_);
    for (std::uint32_t d = 0; d < actors_.size(); ++d) {
      b_.states[d] = actors_[d]->make_state();
      ActorContext context(b_, this, d, now_, t);
      guarded(d, [&] { actors_[d]->initialize(context); });
    }
    for (const std::uint32_t d : continuous_) {
      ActorContext context(b_, this, d, now_, t);
      guarded(d, [&] { actors_[d]->evaluate(context); });
    }
    initialized_ = true;
  }

  /// Runs `call` for actor `a`, turning its failures into a run failure.
  template <class Call>
  void guarded(std::uint32_t a, Call&& call) {
    try {
      call();
    } catch (const Failure&) {
      throw;
    } catch (const std::exception& e) {
      throw Failure{flat(a).path + ": " + e.what(), flat(a).path};
    }
  }

  void discrete_phase() {
    const double t = resolution_.to_seconds(now_.time);
    while (true) {
      // Update: what was sent at n-1 becomes visible at n.
      if (!present_now_list_.empty() || !present_next_list_.empty()) {
        for (const std::uint32_t p : present_now_list_) b_.present_now[p] = 0;
        present_now_list_.clear();
        std::swap(b_.present_now, b_.present_next);
        std::swap(b_.tokens_now, b_.tokens_next);
        std::swap(present_now_list_, present_next_list_);
      }
      if (!fire_next_.empty()) {
        firing_.swap(fire_next_);
        fire_next_.clear();
        for (const std::uint32_t a : firing_) flags_[a] = kFiring;
      }
      // Take the time events of (t, n). The last one stays at the top of the
      // heap ("held") until a fire_at reuses its slot or the firing ends: new
      // events are all later than (t, n), so it stays on top meanwhile.
      while (!queue_.empty() && queue_.peek().tag() == now_) {
        const std::uint32_t a = queue_.peek().depth();
        ++stats_.time_events;
        if (trace_ != nullptr) trace_->time_event(now_, t, flat(a).path);
        if ((flags_[a] & kFiring) == 0) firing_.push_back(a);
        flags_[a] |= kFiring | kTimeEvent;
        if (!queue_.another_at(now_)) {
          held_top_ = true;
          break;
        }
        queue_.pop();
      }
      if (firing_.empty()) return;
      if (now_.microstep >= static_cast<std::uint64_t>(options_.max_microsteps)) zeno(t);
      if (firing_.size() > 1) {
        std::sort(firing_.begin(), firing_.end());  // depth order
      }
      for (const std::uint32_t a : firing_) {
        ActorContext context(b_, this, a, now_, t, (flags_[a] & kTimeEvent) != 0);
        guarded(a, [&] { actors_[a]->fire(context); });
        flags_[a] &= kScheduledNext;
      }
      if (held_top_) {
        held_top_ = false;
        queue_.pop();
      }
      firing_.clear();
      if (stop_requested_) return;
      // Nothing sent and nothing queued for the next microstep: the phase is over.
      if (fire_next_.empty() && present_next_list_.empty() &&
          (queue_.empty() || queue_.peek().tag() != Tag{now_.time, now_.microstep + 1})) {
        return;
      }
      ++now_.microstep;
    }
  }

  [[noreturn]] void zeno(double t) {
    std::string names;
    for (std::size_t i = 0; i < firing_.size() && i < 8; ++i) {
      names += (names.empty() ? "" : ", ") + flat(firing_[i]).path;
    }
    if (firing_.size() > 8) names += ", ...";
    throw Failure{"Zeno behaviour: more than max_microsteps (" + std::to_string(options_.max_microsteps) +
                      ") microsteps at t = " + format_double(t) + " s; still firing: " + names +
                      " (a zero-delay loop keeps sending tokens; add a TimeDelay with a positive "
                      "delay, or raise max_microsteps)",
                  flat(firing_.front()).path};
  }

  RunResult finish(RunStatus status, std::string message, std::string actor) {
    RunResult result;
    result.status = status;
    result.tag = now_;
    result.time = resolution_.to_seconds(now_.time);
    result.stats = stats_;
    if (status == RunStatus::kStopped) result.actor = flat(stop_actor_).path;
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
  bool held_top_ = false;  ///< the queue's top is an event already taken (see discrete_phase)
  bool stop_requested_ = false;
  std::uint32_t stop_actor_ = 0;
  RunStatistics stats_;
  // Per actor flags, in one byte.
  static constexpr std::uint8_t kFiring = 1;         ///< in firing_ at this microstep
  static constexpr std::uint8_t kTimeEvent = 2;      ///< a time event at this microstep
  static constexpr std::uint8_t kScheduledNext = 4;  ///< in fire_next_

  std::vector<std::uint32_t> by_depth_;     ///< depth -> index in the FlatModel
  std::vector<const Actor*> actors_;        ///< by depth
  std::vector<std::uint32_t> continuous_;   ///< depths of the continuous schedule
  std::vector<std::uint32_t> firing_;
  std::vector<std::uint32_t> fire_next_;
  std::vector<std::uint8_t> flags_;
  std::vector<std::uint32_t> present_now_list_;
  std::vector<std::uint32_t> present_next_list_;
};

Director::Director(const FlatModel& model, const RunOptions& options, std::string model_name,
                   TraceWriter* trace)
    : impl_(std::make_unique<Impl>(model, options, std::move(model_name), trace)) {}

Director::~Director() = default;

RunResult Director::run() { return impl_->run(); }

}  // namespace ctde
