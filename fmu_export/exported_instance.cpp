#include "fmu_export/exported_instance.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "actors/builtin_actors.hpp"
#include "core/format.hpp"
#include "core/model_file.hpp"
#include "core/time.hpp"
#include "run/run_setup.hpp"

namespace ctde::fmu {

namespace {

/// The table's rule (fmi_rules.hpp), with what an exported instance adds (exported_instance.hpp).
bool allowed_in(FmiCall call, FmiMode mode, FmiKind kind) {
  const bool state_call = call == FmiCall::kGetFMUState || call == FmiCall::kSetFMUState;
  if (state_call && (mode == FmiMode::kInstantiated || kind.model_exchange)) return false;
  return allowed(call, mode, kind) || (call == FmiCall::kGetVariables && mode == FmiMode::kError);
}

/// Refuses an interface the FMU does not offer: resources/fmu.json says
/// which (`ctde export` writes it); without it, Co-Simulation only.
void offered_interfaces(const std::string& resources, FmiKind kind) {
  bool co_simulation = true;
  bool model_exchange = false;
  if (std::ifstream in(resources + "/fmu.json"); in) {
    const nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (doc.is_object()) {
      co_simulation = doc.value("co_simulation", true);
      model_exchange = doc.value("model_exchange", false);
    }
  }
  if (kind.model_exchange && !model_exchange)
    throw std::runtime_error("this FMU offers Co-Simulation only (exported with --interface cs)");
  if (!kind.model_exchange && !co_simulation)
    throw std::runtime_error("this FMU offers Model Exchange only (exported with --interface me)");
}

/// Model Exchange integrates the run as one part (Director, "Integrated by another program").
void joined(Model& model) { model.director().insert_or_assign("subsystems", ParamValue("joined")); }

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error("cannot read " + path +
                             " (is the resource location the FMU's resources folder?)");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

ExportedInstance::ExportedInstance(std::string name, const std::string& resources, std::string_view token,
                                   FmiKind kind, Logger log)
    : name_(std::move(name)), resources_(resources), log_(std::move(log)), kind_(kind) {
  model_text_ = read_text(resources_ + "/model.json");
  const std::string expected = instantiation_token(model_text_);
  if (token != expected) {
    throw std::runtime_error(
        "instantiation token '" + std::string(token) + "' is not this FMU's ('" + expected +
        "'): the modelDescription.xml and resources/model.json are of different exports");
  }
  model_ = std::make_unique<Model>(
      load_model_text(model_text_, resources_ + "/model.json", builtin_actors(), {}, resources_));
  offered_interfaces(resources_, kind_);
  if (kind_.model_exchange) joined(*model_);
  const RunSetup setup = set_up_run(*model_, std::nullopt);
  variables_ = fmu_variables(*model_, setup);
  if (kind_.model_exchange) {
    const Director director(setup.flat, setup.options, model_->name());
    if (const std::string problem = director.external_integration_problem(); !problem.empty())
      throw std::runtime_error("this model cannot be run as Model Exchange: " + problem);
    add_exchange_variables(variables_, director);
    // Sized once: the variables point into them (value_place).
    exchange_.x.assign(director.state_count(), 0.0);
    exchange_.dx.assign(director.state_count(), 0.0);
    exchange_.z.assign(director.indicator_count(), 0.0);
  }
  start_ = setup.options.start_time;
  stop_ = setup.options.stop_time;
  resolution_ = TimeResolution(setup.options.time_resolution);
  reset();
}

ExportedInstance::~ExportedInstance() = default;

void ExportedInstance::log(Status status, std::string_view category, const std::string& message) const {
  if (!log_) return;
  if (status == Status::kOk && !debug_) return;
  log_(status, category, message);
}

Status ExportedInstance::fail(std::string_view function, const std::string& message) noexcept {
  try {
    log(Status::kError, "logStatusError", std::string(function) + ": " + message);
  } catch (...) {  // NOLINT(bugprone-empty-catch): a logger that throws cannot be told
  }
  mode_ = FmiMode::kError;
  return Status::kError;
}

Status ExportedInstance::allowed(FmiCall call, std::string_view function) noexcept {
  if (allowed_in(call, mode_, kind_)) return Status::kOk;
  return fail(function, std::string("not allowed in ") + to_string(mode_));
}

Status ExportedInstance::enter_initialization(std::optional<double> tolerance, double start,
                                              std::optional<double> stop) noexcept {
  const char* fn = "EnterInitializationMode";
  if (allowed(FmiCall::kEnterInitializationMode, fn) != Status::kOk) return Status::kError;
  if (!std::isfinite(start)) return fail(fn, "startTime is not finite");
  if (tolerance && !(*tolerance > 0))
    return fail(fn, "tolerance " + format_double(*tolerance) + " is not positive");
  if (stop && !(*stop > start)) {
    return fail(fn, "stopTime " + format_double(*stop) + " is not after startTime " + format_double(start));
  }
  start_ = start;
  tolerance_ = tolerance;
  // Without a stop time the run may go on to a quarter of the time horizon (docs/fmi.md).
  stop_ = stop ? *stop : start + 0.25 * resolution_.horizon();
  director_.reset();
  mode_ = FmiMode::kInitialization;
  return Status::kOk;
}

Status ExportedInstance::exit_initialization() noexcept {
  const char* fn = "ExitInitializationMode";
  if (allowed(FmiCall::kExitInitializationMode, fn) != Status::kOk) return Status::kError;
  try {
    if (!director_) build();
  } catch (const std::exception& e) {
    return fail(fn, e.what());
  }
  // Model Exchange: Event Mode, the start's events already run (build()).
  mode_ = next_mode(FmiCall::kExitInitializationMode, mode_, kind_);
  return Status::kOk;
}

void ExportedInstance::build(const RunSnapshot* resume) {
  director_.reset();
  setup_.reset();
  outputs_.assign(variables_.size(), {});
  ParameterOverrides overrides;
  for (const Variable& v : variables_) {
    if (v.causality == Causality::kParameter && values_[v.reference] != v.start)
      overrides.emplace_back(v.name, format_double(values_[v.reference]));
  }
  // The model as the constructor loaded it serves the first build without
  // parameters set (loading it again is most of an instantiation's time).
  if (const bool as_loaded = std::exchange(model_as_loaded_, false); !as_loaded || !overrides.empty()) {
    model_ = std::make_unique<Model>(
        load_model_text(model_text_, resources_ + "/model.json", builtin_actors(), overrides, resources_));
  }
  for (const Variable& v : variables_) {
    if (v.causality != Causality::kInput || v.element != 0) continue;
    Actor* input = model_->top().find_child(v.source);
    if (input != nullptr) input->set_parameter("start", ParamValue(input_values(v.source)));
  }
  if (kind_.model_exchange) joined(*model_);
  model_->director().insert_or_assign("start_time", ParamValue(start_));
  model_->director().insert_or_assign("stop_time", ParamValue(stop_));
  if (tolerance_) model_->director().insert_or_assign("rtol", ParamValue(*tolerance_));
  setup_ = std::make_unique<RunSetup>(set_up_run(*model_, std::nullopt));
  std::vector<Variable> now = fmu_variables(*model_, *setup_);
  director_ = std::make_unique<Director>(setup_->flat, setup_->options, model_->name());
  if (kind_.model_exchange) add_exchange_variables(now, *director_);
  const bool same = now.size() == variables_.size() &&
                    std::equal(now.begin(), now.end(), variables_.begin(),
                               [](const Variable& a, const Variable& b) { return a.name == b.name; });
  if (!same) {
    director_.reset();  // no run whose values the variables do not describe
    throw std::runtime_error(
        "the parameters set change the model's inputs, outputs or states (their widths)");
  }
  director_->return_at_events(early_return_);
  resolution_ = TimeResolution(setup_->options.time_resolution);
  ended_ = false;
  finished_ = false;
  value_at_.assign(variables_.size(), nullptr);
  for (const Variable& v : variables_) value_at_[v.reference] = value_place(v);
  if (resume != nullptr) director_->resume_from(*resume, /*parameters_may_differ=*/true);
  const double at = resume != nullptr ? resume->time : start_;
  stand_at(resolution_.to_ticks(at));
  if (!director_->advance_to(at)) {
    const RunResult result = director_->run();
    if (result.status == RunStatus::kError) throw std::runtime_error(result.message);
    ended_ = true;
    finished_ = true;
  }
  if (kind_.model_exchange) {
    const std::span<const double> x = director_->states();
    std::copy(x.begin(), x.end(), exchange_.x.begin());
    exchange_.evaluated = false;
    exchange_.event_pending = false;
  }
}

const double* ExportedInstance::value_place(const Variable& v) {
  switch (v.role) {
    case Role::kState:
      return &exchange_.x[v.element];
    case Role::kDerivative:
      return &exchange_.dx[v.element];
    case Role::kIndicator:
      return &exchange_.z[v.element];
    case Role::kValue:
      break;
  }
  if (v.causality == Causality::kOutput || v.causality == Causality::kLocal) {
    outputs_[v.reference] = director_->output_values(v.source);
    return &outputs_[v.reference][v.element];
  }
  return v.causality == Causality::kIndependent ? &now_time_ : &values_[v.reference];
}

std::vector<double> ExportedInstance::input_values(const std::string& input) const {
  std::vector<double> values;
  for (const Variable& v : variables_) {
    if (v.causality == Causality::kInput && v.source == input) values.push_back(values_[v.reference]);
  }
  return values;
}

Status ExportedInstance::do_step(double t, double h, bool& terminate, bool& early,
                                 double& last_time) noexcept {
  const char* fn = "DoStep";
  terminate = false;
  early = false;
  if (allowed(FmiCall::kDoStep, fn) != Status::kOk) return Status::kError;
  try {
    const TimeResolution& resolution = resolution_;
    last_time = now_time_;
    if (ended_) return fail(fn, "the model's run ended at t = " + format_double(last_time) + " s (a Stop)");
    if (!std::isfinite(t) || !std::isfinite(h) || h < 0)
      return fail(fn, "communication point " + format_double(t) + " s and step " + format_double(h) + " s");
    if (t != now_time_ && resolution.to_ticks(t) != now_ticks_) {
      return fail(fn, "the communication point " + format_double(t) +
                          " s is not where the last step ended (" + format_double(last_time) + " s)");
    }
    const Tick target = resolution.to_ticks(t + h);
    const double target_time = resolution.to_seconds(target);
    if (target_time > stop_) {
      return fail(fn, "a step to " + format_double(t + h) + " s goes past the stop time " +
                          format_double(stop_) + " s");
    }
    if (director_->advance_to(target_time, Director::Pause::kAhead)) {
      if (early_return_ && director_->time() < target_time) {  // after the events of a time inside the step
        stand_at(resolution.to_ticks(director_->time()));
        last_time = now_time_;
        early = true;
        return Status::kOk;
      }
      now_ticks_ = target;
      now_time_ = last_time = target_time;
      return Status::kOk;
    }
    const RunResult result = director_->run();
    finished_ = true;
    stand_at(result.tag.time);
    last_time = result.time;
    if (result.status == RunStatus::kError) return fail(fn, result.message);
    if (result.status == RunStatus::kStopped) {
      ended_ = true;
      terminate = true;
      log(Status::kOk, "logEvents", "a Stop ended the run at t = " + format_double(result.time) + " s");
    }
    return Status::kOk;
  } catch (const std::exception& e) {
    return fail(fn, e.what());
  }
}

double ExportedInstance::get_variable(const Variable& v) {
  switch (v.causality) {
    case Causality::kIndependent:
      return director_ ? now_time_ : start_;
    case Causality::kInput:
    case Causality::kParameter:
      return values_[v.reference];
    case Causality::kOutput:
    case Causality::kLocal:
      if (!director_) build();
      return *value_at_[v.reference];
  }
  return 0;
}

Status ExportedInstance::get(std::span<const std::uint32_t> references, std::span<double> values) noexcept {
  const char* fn = "GetFloat64";
  if (allowed(FmiCall::kGetVariables, fn) != Status::kOk) return Status::kError;
  if (values.size() != references.size())
    return fail(fn, "nValues " + std::to_string(values.size()) + " for " + std::to_string(references.size()) +
                        " value references");
  try {
    for (std::size_t i = 0; i < references.size(); ++i) {
      if (references[i] >= variables_.size())
        return fail(fn, "no Float64 variable has value reference " + std::to_string(references[i]));
      // With a run, every value where it lives (build()); else as it would start.
      const Causality causality = variables_[references[i]].causality;
      if (kind_.model_exchange && (causality == Causality::kOutput || causality == Causality::kLocal)) {
        if (!director_) build();
        evaluate_exchange();  // at the importer's time and states
      }
      values[i] = director_ ? *value_at_[references[i]] : get_variable(variables_[references[i]]);
    }
  } catch (const std::exception& e) {
    return fail(fn, e.what());
  }
  return Status::kOk;
}

Status ExportedInstance::set(std::span<const std::uint32_t> references,
                             std::span<const double> values) noexcept {
  const char* fn = "SetFloat64";
  if (allowed(FmiCall::kSetVariables, fn) != Status::kOk) return Status::kError;
  if (values.size() != references.size())
    return fail(fn, "nValues " + std::to_string(values.size()) + " for " + std::to_string(references.size()) +
                        " value references");
  try {
    std::vector<std::string> inputs;  // touched in Step Mode: given to the run once each
    bool tuned = false;
    for (std::size_t i = 0; i < references.size(); ++i) {
      if (references[i] >= variables_.size())
        return fail(fn, "no Float64 variable has value reference " + std::to_string(references[i]));
      const Variable& v = variables_[references[i]];
      const bool input = v.causality == Causality::kInput;
      const bool parameter = v.causality == Causality::kParameter;
      if (!input && !parameter) {
        return fail(fn, "'" + v.name + "' (causality " + to_string(v.causality) + ") cannot be set");
      }
      const bool running = mode_ != FmiMode::kInstantiated && mode_ != FmiMode::kInitialization;
      if (parameter && running && !v.tunable) {
        return fail(fn, "parameter '" + v.name +
                            "' is fixed: it cannot be set after initialization (the model's "
                            "\"tunable\" lists those that can)");
      }
      if (!std::isfinite(values[i])) return fail(fn, "'" + v.name + "': a value that is not finite");
      if (parameter && running && kind_.model_exchange) {
        return fail(fn,
                    "parameter '" + v.name +
                        "': a Model Exchange instance of ctde takes parameters before initialization only");
      }
      if (mode_ == FmiMode::kContinuousTime && !input) {
        return fail(fn, "'" + v.name + "': Continuous-Time Mode sets only continuous inputs");
      }
      values_[v.reference] = values[i];
      if (!running) {
        director_.reset();  // built again with these values when needed
      } else if (input) {
        if (std::find(inputs.begin(), inputs.end(), v.source) == inputs.end()) inputs.push_back(v.source);
      } else {
        tuned = true;
      }
    }
    if (tuned && !finished_) {
      const RunSnapshot here = director_->snapshot();
      build(&here);
    }
    for (const std::string& input : inputs) {
      // Model Exchange: at once, for the importer's next evaluation; Co-Simulation: an event of the run.
      if (kind_.model_exchange) {
        director_->hold_input(input, input_values(input));
        exchange_.evaluated = false;
      } else if (!finished_) {
        director_->set_input(input, input_values(input));
      }
    }
  } catch (const std::exception& e) {
    return fail(fn, e.what());
  }
  return Status::kOk;
}

Status ExportedInstance::no_variables(FmiCall call, std::string_view function, std::string_view type,
                                      std::span<const std::uint32_t> references) noexcept {
  if (allowed(call, function) != Status::kOk) return Status::kError;
  if (references.empty()) return Status::kOk;
  return fail(function, "no " + std::string(type) + " variable has value reference " +
                            std::to_string(references.front()) + " (the model's variables are all Float64)");
}

Status ExportedInstance::terminate() noexcept {
  if (allowed(FmiCall::kTerminate, "Terminate") != Status::kOk) return Status::kError;
  mode_ = FmiMode::kTerminated;
  return Status::kOk;
}

Status ExportedInstance::reset() noexcept {
  director_.reset();
  setup_.reset();
  if (!model_as_loaded_) model_.reset();
  outputs_.assign(variables_.size(), {});
  values_.assign(variables_.size(), 0.0);
  for (const Variable& v : variables_) values_[v.reference] = v.start;
  ended_ = false;
  finished_ = false;
  tolerance_.reset();
  exchange_.evaluated = false;
  exchange_.event_pending = false;
  mode_ = FmiMode::kInstantiated;
  return Status::kOk;
}

}  // namespace ctde::fmu
