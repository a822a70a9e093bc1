#include "domains/ctde/run_options.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/model_file.hpp"
#include "core/time.hpp"

namespace ctde {

OdeOptions make_ode_options(const RunOptions& run) {
  OdeOptions options;
  options.method = run.solver;
  options.integrator = run.integrator;
  options.linear_solver = run.linear_solver;
  options.rtol = run.rtol;
  options.atol = run.atol;
  options.atol_per_state = run.atol_per_state;
  options.initial_step = run.initial_step;
  options.min_step = run.min_step;
  options.max_step = run.max_step;
  return options;
}

namespace {

std::string option(const std::string& key) { return "director option '" + key + "'"; }

RunOptions read_run_options(const std::map<std::string, ParamValue>& director, const ParameterScope& scope);

}  // namespace

void check(const RunOptions& options) {
  const auto positive = [](const std::string& key, double value, bool allow_inf = false) {
    if (!(value > 0) || (!allow_inf && !std::isfinite(value))) {
      throw OptionError(key, option(key) + " must be a finite number > 0, got " + format_double(value));
    }
  };
  if (!std::isfinite(options.start_time)) {
    throw OptionError("start_time",
                      option("start_time") + " must be finite, got " + format_double(options.start_time));
  }
  if (!(options.stop_time > options.start_time) || !std::isfinite(options.stop_time)) {
    throw OptionError("stop_time", option("stop_time") + " must be finite and after start_time (" +
                                       format_double(options.start_time) + "), got " +
                                       format_double(options.stop_time));
  }
  TimeResolution resolution(1.0);
  try {
    resolution = TimeResolution(options.time_resolution);  // checks the range
  } catch (const ModelError& e) {
    throw OptionError("time_resolution", option("time_resolution") + ": " + e.message());
  }
  const std::array<std::pair<const char*, double>, 2> times{
      {{"start_time", options.start_time}, {"stop_time", options.stop_time}}};
  for (const auto& [key, seconds] : times) {  // and the horizon
    try {
      (void)resolution.to_ticks(seconds);
    } catch (const ModelError& e) {
      throw OptionError(key, option(key) + ": " + e.what());
    }
  }
  if (resolution.to_ticks(options.stop_time) - resolution.to_ticks(options.start_time) < 1) {
    throw OptionError("stop_time", option("stop_time") + " (" + format_double(options.stop_time) +
                                       " s) is less than one tick (" +
                                       format_double(resolution.seconds_per_tick()) +
                                       " s) after start_time: the run would not advance");
  }
  positive("rtol", options.rtol);
  if (options.rtol < 1e-15 || options.rtol > 1) {
    throw OptionError("rtol", option("rtol") + " must be from 1e-15 (a double's precision) to 1, got " +
                                  format_double(options.rtol));
  }
  positive("atol", options.atol);
  for (const double v : options.atol_per_state) positive("atol", v);
  if (options.initial_step) positive("initial_step", *options.initial_step);
  if (options.min_step) positive("min_step", *options.min_step);
  if (options.max_step) positive("max_step", *options.max_step, /*allow_inf=*/true);
  if (options.min_step && options.max_step && *options.min_step > *options.max_step) {
    throw OptionError("min_step", "director option 'min_step' (" + format_double(*options.min_step) +
                                      ") exceeds 'max_step' (" + format_double(*options.max_step) + ")");
  }
  if (options.max_microsteps < 1 || options.max_microsteps > 1'000'000'000) {
    throw OptionError("max_microsteps", option("max_microsteps") +
                                            " must be a whole number from 1 to 1e9, got " +
                                            std::to_string(options.max_microsteps));
  }
  if (options.event_tolerance) positive("event_tolerance", *options.event_tolerance);
  if (options.output_interval) {
    positive("output_interval", *options.output_interval);
    if (*options.output_interval < resolution.seconds_per_tick()) {
      throw OptionError("output_interval", option("output_interval") + " (" +
                                               format_double(*options.output_interval) +
                                               " s) is shorter than one tick of the time resolution (" +
                                               format_double(resolution.seconds_per_tick()) + " s)");
    }
  }
}

OptionError::OptionError(std::string key, const std::string& message)
    : ModelError(message), key_(std::move(key)) {}

RunOptions make_run_options(const std::map<std::string, ParamValue>& director, const ParameterScope& scope,
                            const std::string& file) {
  try {
    return read_run_options(director, scope);
  } catch (const OptionError& e) {
    if (file.empty()) throw;
    throw e.in_file(file);
  }
}

ModelError OptionError::in_file(const std::string& file) const {
  return ModelError(message()).located(file + " at /director/" + key_);
}

namespace {

/// Reads the director's options by key: each value evaluated in the model's scope, an error an
/// OptionError naming the key. Not copyable, not movable (it refers to its caller's map and scope).
class OptionReader {
 public:
  OptionReader(const std::map<std::string, ParamValue>& director, const ParameterScope& scope)
      : director_(director), scope_(scope) {}
  OptionReader(const OptionReader&) = delete;
  OptionReader& operator=(const OptionReader&) = delete;
  OptionReader(OptionReader&&) = delete;
  OptionReader& operator=(OptionReader&&) = delete;
  ~OptionReader() = default;

  /// The number `key` holds, or nullopt when it is absent.
  [[nodiscard]] std::optional<double> number(const std::string& key) const {
    const auto it = find(key);
    if (it == director_.end()) return std::nullopt;
    try {
      return scope_.evaluate(it->second, ParamKind::kScalar, option(key)).scalar();
    } catch (const OptionError&) {
      throw;
    } catch (const ModelError& e) {
      throw OptionError(key, e.message());
    }
  }

  /// The text `key` holds, or nullopt when it is absent.
  [[nodiscard]] std::optional<std::string> text(const std::string& key) const {
    const auto it = find(key);
    if (it == director_.end()) return std::nullopt;
    try {
      return scope_.evaluate(it->second, ParamKind::kString, option(key)).text();
    } catch (const ModelError& e) {
      throw OptionError(key, e.message());
    }
  }

  /// A key with two allowed words: true for `a`, false for `b`, nullopt when it is absent.
  /// @throws OptionError "key must be \"a\" or \"b\", got ...".
  [[nodiscard]] std::optional<bool> either(const std::string& key, const char* a, const char* b) const {
    const auto s = text(key);
    if (!s) return std::nullopt;
    if (*s == a || *s == b) return *s == a;
    throw OptionError(key, option(key) + " must be \"" + a + "\" or \"" + b + "\", got \"" + *s + "\"");
  }

  /// Reads `atol`, when given: one number into options.atol, several into options.atol_per_state.
  void atol(RunOptions& options) const {
    const auto it = find("atol");
    if (it == director_.end()) return;
    ResolvedParam given;
    try {
      given = scope_.evaluate(it->second, ParamKind::kVector, option("atol"));
    } catch (const ModelError& e) {
      throw OptionError("atol", e.message());
    }
    const std::span<const double> values = given.values();
    if (values.size() == 1) {
      options.atol = values[0];
    } else {
      options.atol_per_state.assign(values.begin(), values.end());
    }
  }

 private:
  /// `key`'s entry. @throws std::logic_error for a key the model format does
  /// not list (core/model_file.hpp, director_keys): a file could never give it.
  [[nodiscard]] std::map<std::string, ParamValue>::const_iterator find(const std::string& key) const {
    const std::vector<std::string>& keys = director_keys();
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      throw std::logic_error("director option '" + key + "' is read but not one of the model format's");
    return director_.find(key);
  }

  const std::map<std::string, ParamValue>& director_;
  const ParameterScope& scope_;
};

/// Reads the options solver and linear_solver into `options`.
void read_solvers(const OptionReader& read, RunOptions& options) {
  if (auto s = read.text("solver")) {
    const std::optional<SolverKind> kind = solver_kind(*s);
    if (!kind) {
      throw OptionError("solver",
                        concat({option("solver"), " must be one of ", solver_names(), "; got \"", *s, "\""}));
    }
    options.solver = *kind;
  }
  if (auto s = read.text("linear_solver")) {
    const std::optional<LinearSolverKind> kind = linear_solver_kind(*s);
    if (!kind) {
      throw OptionError("linear_solver", concat({option("linear_solver"), " must be one of ",
                                                 linear_solver_names(), "; got \"", *s, "\""}));
    }
    options.linear_solver = *kind;
  }
}

/// Reads the options rtol, atol, initial_step, min_step, max_step, max_microsteps and
/// event_tolerance into `options`.
void read_tolerances(const OptionReader& read, RunOptions& options) {
  if (auto v = read.number("rtol")) options.rtol = *v;
  read.atol(options);
  if (auto v = read.number("initial_step")) options.initial_step = *v;
  if (auto v = read.number("min_step")) options.min_step = *v;
  if (auto v = read.number("max_step")) options.max_step = *v;
  if (auto v = read.number("max_microsteps")) {
    if (!(*v >= 1) || *v > 1e9 || *v != std::floor(*v)) {  // before the conversion to a whole number
      throw OptionError(
          "max_microsteps",
          option("max_microsteps") + " must be a whole number from 1 to 1e9, got " + format_double(*v));
    }
    options.max_microsteps = static_cast<long>(*v);
  }
  if (auto v = read.number("event_tolerance")) options.event_tolerance = *v;
}

/// Reads the options integrator, events, event_state, output_interval, subsystems and
/// algebraic_loops into `options`.
void read_modes(const OptionReader& read, RunOptions& options) {
  if (auto first = read.either("integrator", "ctde", "arkode")) {
    options.integrator = *first ? OdeIntegrator::kCtde : OdeIntegrator::kArkode;
  }
  if (auto first = read.either("events", "normal", "none")) {
    options.events = *first ? EventMode::kNormal : EventMode::kNone;
  }
  if (auto first = read.either("event_state", "interpolated", "integrated")) {
    options.event_state = *first ? EventState::kInterpolated : EventState::kIntegrated;
  }
  if (auto v = read.number("output_interval")) options.output_interval = *v;
  if (auto first = read.either("subsystems", "split", "joined")) {
    options.subsystems = *first ? Subsystems::kSplit : Subsystems::kJoined;
  }
  if (auto first = read.either("algebraic_loops", "solve", "error")) {
    options.algebraic_loops = *first ? AlgebraicLoops::kSolve : AlgebraicLoops::kError;
  }
}

RunOptions read_run_options(const std::map<std::string, ParamValue>& director, const ParameterScope& scope) {
  const OptionReader read(director, scope);
  RunOptions options;
  // Read every option; their values are checked together, by check(), as
  // the Director checks options built in C++.
  if (auto v = read.number("start_time")) options.start_time = *v;
  const auto stop = read.number("stop_time");
  if (!stop)
    throw OptionError("stop_time", "director option 'stop_time' is required (the run's end, in seconds)");
  options.stop_time = *stop;
  if (auto v = read.number("time_resolution")) options.time_resolution = *v;
  read_solvers(read, options);
  read_tolerances(read, options);
  read_modes(read, options);
  check(options);
  return options;
}

}  // namespace

}  // namespace ctde
