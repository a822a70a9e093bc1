// The DE phase of the director on pure discrete-event models.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "actors/builtin_actors.hpp"
#include "core/actor_context.hpp"
#include "core/csv_results.hpp"
#include "core/format.hpp"
#include "core/recorded_signal.hpp"
#include "core/trace.hpp"
#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::add;
using ctde::test::events_of;
using ctde::test::run_model;

TEST_CASE("simultaneous events are delivered in a deterministic order") {
  // Two clocks tick at the same instants; Merge sends the two tokens in input
  // order, one microstep apart; the counter sees both.
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 2},
    "actors": [
      {"name": "a", "type": "DiscreteClock", "params": {"period": 1, "values": [10]}},
      {"name": "b", "type": "DiscreteClock", "params": {"period": 1, "values": [20]}},
      {"name": "merge", "type": "Merge"},
      {"name": "count", "type": "Counter"}],
    "connections": [["a.out", "merge.in0"], ["b.out", "merge.in1"], ["merge.out", "count.in"]]})");
  REQUIRE(run.result.status == RunStatus::kOk);
  std::vector<std::tuple<double, int, std::string, double>> seen;
  for (const auto& line : run.lines) {
    if (line["kind"] != "event") continue;
    seen.emplace_back(line["t"].get<double>(), line["n"].get<int>(), line["actor"].get<std::string>(),
                      line["value"][0].get<double>());
  }
  // Within a microstep tokens reach deeper actors at once: Merge fires once
  // at (0, 0) with both tokens, sends the first and keeps the second for the
  // next microstep.
  const std::vector<std::tuple<double, int, std::string, double>> expected = {
      {0, 0, "a", 10},     {0, 0, "b", 20},     {0, 0, "merge", 10}, {0, 0, "count", 1},  {0, 1, "merge", 20},
      {0, 1, "count", 2},  {1, 0, "a", 10},     {1, 0, "b", 20},     {1, 0, "merge", 10}, {1, 0, "count", 3},
      {1, 1, "merge", 20}, {1, 1, "count", 4},  {2, 0, "a", 10},     {2, 0, "b", 20},     {2, 0, "merge", 10},
      {2, 0, "count", 5},  {2, 1, "merge", 20}, {2, 1, "count", 6}};
  CHECK(seen == expected);
}

TEST_CASE("the same model gives a byte-identical trace") {
  const std::string model = R"({"ctde": 1, "director": {"stop_time": 50},
    "actors": [
      {"name": "arrivals", "type": "PoissonClock", "params": {"mean_interval": 1, "seed": 7}},
      {"name": "server", "type": "Server", "params": {"service_time": 0.9}},
      {"name": "done", "type": "Counter"}],
    "connections": [["arrivals.out", "server.in"], ["server.out", "done.in"]]})";
  const auto first = run_model(model);
  const auto second = run_model(model);
  CHECK(first.trace.size() > 1000);
  CHECK(first.trace == second.trace);
  CHECK(first.lines.front()["kind"] == "run_start");
  CHECK(first.lines.back()["kind"] == "run_end");
  CHECK(first.lines.back()["status"] == "ok");
}

TEST_CASE("a TimeDelay of 0 in a loop fires the Zeno error with the actors named") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 1, "max_microsteps": 50},
    "actors": [
      {"name": "kick", "type": "SingleEvent", "params": {"time": 0.5}},
      {"name": "merge", "type": "Merge"},
      {"name": "echo", "type": "TimeDelay", "params": {"delay": 0}}],
    "connections": [["kick.out", "merge.in0"], ["merge.out", "echo.in"], ["echo.out", "merge.in1"]]})");
  CHECK(run.result.status == RunStatus::kError);
  CHECK(run.result.tag.time == 500'000'000'000);
  CHECK(run.result.tag.microstep == 50);
  CHECK(run.result.message.find("Zeno behaviour: more than max_microsteps (50) microsteps at t = 0.5 s") !=
        std::string::npos);
  CHECK((run.result.message.find("still firing: merge") != std::string::npos ||
         run.result.message.find("still firing: echo") != std::string::npos));
  CHECK(run.lines.back()["status"] == "error");
  CHECK(run.lines[run.lines.size() - 2]["kind"] == "error");
}

TEST_CASE("a constant reaches discrete inputs once, at the start") {
  const auto run = run_model(R"({"ctde": 1, "director": {"stop_time": 5},
    "actors": [{"name": "c", "type": "Constant", "params": {"value": 4}},
               {"name": "n", "type": "Accumulator"}],
    "connections": [["c.out", "n.in"]]})");
  CHECK(events_of(run, "n") == std::vector<std::pair<double, double>>{{0, 4}});
}

namespace {
/// Asks twice for the same time events; counts its firings in a shared counter.
class DoubleBooker final : public Actor {
 public:
  DoubleBooker(std::string name, int& fired)
      : Actor(std::move(name), "DoubleBooker", TimeMode::kDiscrete), fired_(fired) {}
  void initialize(FireContext& context) const override {
    const Tick one = context.resolution().to_ticks(1.0);
    context.fire_at(one);
    context.fire_at(one);
    context.fire_at(2 * one);
  }
  void fire(FireContext& context) const override {
    ++fired_;
    if (context.tag() == Tag{context.resolution().to_ticks(2.0), 0}) {
      context.fire_at(context.tag().time);  // twice for the next microstep
      context.fire_at(context.tag().time);
    }
  }

 private:
  int& fired_;
};
}  // namespace

TEST_CASE("an actor asking twice for the same time event fires once at that tag") {
  int fired = 0;
  Model model("twins");
  model.add<DoubleBooker>("booker", fired);
  add(model, "DiscreteClock", "other").set_parameter("period", 0.5);  // shares the times
  add(model, "Counter", "n");
  model.connect("other.out", "n.in");
  const FlatModel flat = validate(model);
  RunOptions options;
  options.stop_time = 3;
  Director director(flat, options, "twins");
  const RunResult result = director.run();
  CHECK(result.status == RunStatus::kOk);
  CHECK(fired == 3);  // at (1, 0), (2, 0) and (2, 1)
}

namespace {
/// What the actors of a large model share: per-actor firing counts and the
/// times of all firings in order.
struct Firings {
  std::vector<int> count;
  std::vector<Tick> times;
};

/// Fires every `period` seconds, `limit` times, then stops asking. Fails when
/// fired at `fail_at` seconds (if positive).
class Periodic final : public Actor {
 public:
  Periodic(std::string name, std::size_t index, double period, int limit, Firings& firings,
           double fail_at = -1)
      : Actor(std::move(name), "Periodic", TimeMode::kDiscrete),
        index_(index),
        period_(period),
        limit_(limit),
        fail_at_(fail_at),
        firings_(firings) {}
  void initialize(FireContext& context) const override {
    context.fire_at(context.resolution().to_ticks(period_));
  }
  void fire(FireContext& context) const override {
    if (fail_at_ > 0 && context.tag().time == context.resolution().to_ticks(fail_at_)) {
      throw std::runtime_error("failing on purpose");
    }
    firings_.times.push_back(context.tag().time);
    if (++firings_.count[index_] < limit_) {
      context.fire_at(context.tag().time + context.resolution().to_ticks(period_));
    }
  }

 private:
  std::size_t index_;
  double period_;
  int limit_;
  double fail_at_;
  Firings& firings_;
};

/// "p<k>".
std::string name_of(std::size_t k) { return ctde::concat({"p", std::to_string(k)}); }
double period_of(std::size_t k) { return 0.001 * static_cast<double>(1 + k % 13); }
int limit_of(std::size_t k) { return static_cast<int>(1 + k % 40); }

/// Runs 5000 Periodic actors to 0.05 s (the director serves events with
/// their heap slot open, EventQueue::open_top, in models this large).
/// Actor `failing` (if any) fails at 0.02 s; `limit(k)` caps actor k's firings.
template <class Limit>
RunResult run_periodic(Firings& firings, Limit limit, std::optional<std::size_t> failing = std::nullopt) {
  constexpr std::size_t kActors = 5000;
  firings.count.assign(kActors, 0);
  Model model("many");
  for (std::size_t k = 0; k < kActors; ++k) {
    model.add<Periodic>(name_of(k), k, period_of(k), limit(k), firings, k == failing ? 0.02 : -1);
  }
  const FlatModel flat = validate(model);
  RunOptions options;
  options.stop_time = 0.05;
  Director director(flat, options, "many");
  return director.run();
}
}  // namespace

TEST_CASE("a large model fires every actor at its own times, in time order") {
  Firings firings;
  const RunResult result = run_periodic(firings, limit_of);
  REQUIRE(result.status == RunStatus::kOk);
  std::size_t total = 0;
  for (std::size_t k = 0; k < firings.count.size(); ++k) {
    // Firings at period, 2 period, ... up to the stop time or the limit.
    const auto in_time = static_cast<int>(std::floor(0.05 / period_of(k) + 1e-9));
    const int expected = std::min(in_time, limit_of(k));
    CHECK_MESSAGE(firings.count[k] == expected, "actor p", k);
    total += static_cast<std::size_t>(expected);
  }
  CHECK(firings.times.size() == total);
  CHECK(std::is_sorted(firings.times.begin(), firings.times.end()));
  CHECK(result.stats.time_events == total);
}

TEST_CASE("an actor of a large model failing while its event is served ends the run with its name") {
  Firings firings;
  const RunResult result = run_periodic(
      firings, [](std::size_t) { return 1000; }, 4316);
  CHECK(result.status == RunStatus::kError);
  CHECK(result.actor == "p4316");
  CHECK(result.message.find("p4316: failing on purpose") != std::string::npos);
  CHECK(result.tag == Tag{TimeResolution{}.to_ticks(0.02), 0});  // the tag of p4316's 20th firing
  // What fired before the failure was recorded; nothing after it fired.
  CHECK(std::is_sorted(firings.times.begin(), firings.times.end()));
  CHECK(firings.times.back() == result.tag.time);
  CHECK(firings.count[4316] == 19);  // period 0.001 s: at 0.001 ... 0.019 s, failed at 0.02 s
}

namespace {
/// A run's trace and the times its progress callback saw.
struct Seen {
  RunResult result;
  std::string trace;
  std::vector<double> progress;
};

/// Runs `flat` with a trace; `with_results`: recording every signal too. A
/// model with nothing continuous and no results sink takes the director's
/// pure-DE shortcut (Director::Impl::lone_event); recording results makes
/// the same model run through the general loop, with the same trace.
Seen run_traced(const FlatModel& flat, const RunOptions& options, bool with_results) {
  Seen seen;
  std::ostringstream out;
  std::ostringstream csv;
  {
    TraceWriter trace(out);
    std::vector<std::string> record;
    for (const FlatActor& actor : flat.actors) {
      for (const PortSpec& port : actor.actor->outputs()) record.push_back(actor.path + "." + port.name);
    }
    CsvResults results(csv, resolve_record(flat, record));
    Director director(flat, options, "shortcut", &trace, with_results ? &results : nullptr);
    director.set_progress([&](double t, const RunStatistics&) { seen.progress.push_back(t); });
    seen.result = director.run();
  }
  seen.trace = out.str();
  return seen;
}

/// The shortcut and the general loop on `flat`: the same trace, statistics,
/// end and progress calls. `reset` runs before each run (the actors' own
/// records).
void check_shortcut(
    const FlatModel& flat, const RunOptions& options, const std::function<void()>& reset = [] {}) {
  reset();
  const Seen shortcut = run_traced(flat, options, false);
  reset();
  const Seen general = run_traced(flat, options, true);
  CHECK(shortcut.result.status == general.result.status);
  CHECK(shortcut.result.tag.time == general.result.tag.time);
  CHECK(shortcut.result.tag.microstep == general.result.tag.microstep);
  CHECK(shortcut.result.stats.events == general.result.stats.events);
  CHECK(shortcut.result.stats.time_events == general.result.stats.time_events);
  // Progress after every phase; recording results, also at the end of the
  // continuous phase that leads to it (at the same time).
  std::vector<double> phases = general.progress;
  phases.erase(std::unique(phases.begin(), phases.end()), phases.end());
  CHECK(shortcut.progress.size() > 40);  // a phase at each of many event times
  CHECK(shortcut.progress == phases);
  CHECK(shortcut.trace == general.trace);
}
}  // namespace

TEST_CASE("a pure-DE model runs the same with and without the director's lone-event shortcut") {
  // Phases of every kind: a lone clock whose tokens go nowhere (the
  // shortcut's case), tokens to deeper actors in the same microstep (a
  // clock into a Server), tokens kept for microstep 1 (Merge), a fire_at
  // of the current time (a TimeDelay of 0), and a run that ends on a Stop
  // or at its stop time.
  for (const bool stop : {false, true}) {
    CAPTURE(stop);
    const std::string text = std::string(R"({"ctde": 1, "director": {"stop_time": 60},
      "actors": [
        {"name": "alone", "type": "PoissonClock", "params": {"mean_interval": 0.3, "seed": 3}},
        {"name": "arrivals", "type": "PoissonClock", "params": {"mean_interval": 1, "seed": 7}},
        {"name": "server", "type": "Server", "params": {"service_time": 0.9}},
        {"name": "done", "type": "Counter"},
        {"name": "a", "type": "DiscreteClock", "params": {"period": 5, "values": [10]}},
        {"name": "b", "type": "DiscreteClock", "params": {"period": 5, "values": [20]}},
        {"name": "merge", "type": "Merge"},
        {"name": "count", "type": "Counter"},
        {"name": "kick", "type": "SingleEvent", "params": {"time": 20.5}},
        {"name": "echo", "type": "TimeDelay", "params": {"delay": 0}},
        {"name": "echoed", "type": "Counter"},
        {"name": "halt", "type": "SingleEvent", "params": {"time": )") +
                             (stop ? "40" : "1e3") + R"(}},
        {"name": "stop", "type": "Stop"}],
      "connections": [["arrivals.out", "server.in"], ["server.out", "done.in"],
        ["a.out", "merge.in0"], ["b.out", "merge.in1"], ["merge.out", "count.in"],
        ["kick.out", "echo.in"], ["echo.out", "echoed.in"], ["halt.out", "stop.in"]]})";
    Model model = load_model_text(text, "test.json", builtin_actors());
    const FlatModel flat = validate(model);
    const RunOptions options = make_run_options(model.director(), model.parameters());
    const Seen seen = run_traced(flat, options, false);
    CHECK(seen.result.status == (stop ? RunStatus::kStopped : RunStatus::kOk));
    CHECK(seen.trace.find(R"("n":1)") != std::string::npos);  // microstep 1 was reached
    CHECK(seen.result.stats.time_events > 150);
    check_shortcut(flat, options);
  }
}

TEST_CASE("a large pure-DE model runs the same with and without the lone-event shortcut") {
  // 5000 actors: events served with their heap slot open, the next actor
  // prefetched (Director::Impl::prefetch_ahead).
  constexpr std::size_t kActors = 5000;
  Firings firings;
  Model model("many");
  for (std::size_t k = 0; k < kActors; ++k)
    model.add<Periodic>(name_of(k), k, period_of(k), limit_of(k), firings);
  const FlatModel flat = validate(model);
  RunOptions options;
  options.stop_time = 0.05;
  check_shortcut(flat, options, [&] {
    firings.count.assign(kActors, 0);
    firings.times.clear();
  });
}
