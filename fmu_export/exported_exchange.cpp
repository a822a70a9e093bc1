// Model Exchange of an exported model (exported_instance.hpp; docs/fmi.md,
// "Export"): the importer integrates the run's states; the run evaluates
// at the importer's points and runs the events the importer enters Event
// Mode for (Director, "Integrated by another program").
#include <algorithm>
#include <cmath>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "core/format.hpp"
#include "fmu_export/exported_instance.hpp"

namespace ctde::fmu {

namespace {

/// "n derivatives, but the model has m" for an array of the wrong size.
std::string wrong_size(std::size_t given, const char* what, std::size_t has) {
  return std::to_string(given) + " " + what + ", but the model has " + std::to_string(has);
}

}  // namespace

void ExportedInstance::evaluate_exchange() {
  if (exchange_.evaluated || !director_) return;
  director_->evaluate_at(now_time_, exchange_.x, exchange_.dx, exchange_.z);
  exchange_.evaluated = true;
}

Status ExportedInstance::set_time(double t) noexcept {
  const char* fn = "SetTime";
  if (allowed(FmiCall::kSetTime, fn) != Status::kOk) return Status::kError;
  // By tick: the last event's time is a tick, which the importer's time may round to.
  if (!std::isfinite(t) || resolution_.to_ticks(t) < resolution_.to_ticks(director_->time()) ||
      resolution_.to_ticks(t) > resolution_.to_ticks(stop_)) {
    return fail(fn, "time " + format_double(t) + " s is not from the last event's time " +
                        format_double(director_->time()) + " s to the stop time " + format_double(stop_) +
                        " s");
  }
  now_time_ = t;
  exchange_.evaluated = false;
  return Status::kOk;
}

Status ExportedInstance::set_continuous_states(std::span<const double> x) noexcept {
  const char* fn = "SetContinuousStates";
  if (allowed(FmiCall::kSetContinuousStates, fn) != Status::kOk) return Status::kError;
  if (x.size() != exchange_.x.size()) return fail(fn, wrong_size(x.size(), "states", exchange_.x.size()));
  for (std::size_t k = 0; k < x.size(); ++k) {
    if (!std::isfinite(x[k])) return fail(fn, "state " + std::to_string(k) + " is " + format_double(x[k]));
  }
  std::copy(x.begin(), x.end(), exchange_.x.begin());
  exchange_.evaluated = false;
  return Status::kOk;
}

Status ExportedInstance::get_exchange(FmiCall call, const char* fn, const char* what,
                                      const std::vector<double>& from, bool evaluated,
                                      std::span<double> out) noexcept {
  if (allowed(call, fn) != Status::kOk) return Status::kError;
  if (out.size() != from.size()) return fail(fn, wrong_size(out.size(), what, from.size()));
  try {
    if (!director_) build();
    if (evaluated) evaluate_exchange();
  } catch (const std::exception& e) {
    return fail(fn, e.what());
  }
  std::copy(from.begin(), from.end(), out.begin());
  return Status::kOk;
}

Status ExportedInstance::get_derivatives(std::span<double> dx) noexcept {
  return get_exchange(FmiCall::kGetDerivatives, "GetDerivatives", "derivatives", exchange_.dx, true, dx);
}

Status ExportedInstance::get_event_indicators(std::span<double> z) noexcept {
  return get_exchange(FmiCall::kGetEventIndicators, "GetEventIndicators", "indicators", exchange_.z, true, z);
}

Status ExportedInstance::get_continuous_states(std::span<double> x) noexcept {
  return get_exchange(FmiCall::kGetContinuousStates, "GetContinuousStates", "states", exchange_.x, false, x);
}

Status ExportedInstance::get_nominals(std::span<double> x) noexcept {
  const char* fn = "GetNominalsOfContinuousStates";
  if (mode_ == FmiMode::kError) return fail(fn, std::string("not allowed in ") + to_string(mode_));
  if (x.size() != exchange_.x.size()) return fail(fn, wrong_size(x.size(), "nominals", exchange_.x.size()));
  std::fill(x.begin(), x.end(), 1.0);  // ctde's states have no nominal values of their own
  return Status::kOk;
}

Status ExportedInstance::enter_event_mode() noexcept {
  if (allowed(FmiCall::kEnterEventMode, "EnterEventMode") != Status::kOk) return Status::kError;
  if (mode_ == FmiMode::kContinuousTime) exchange_.event_pending = true;
  mode_ = FmiMode::kEvent;
  return Status::kOk;
}

Status ExportedInstance::update_discrete_states(EventInfo& info) noexcept {
  const char* fn = "UpdateDiscreteStates";
  info = {};
  if (allowed(FmiCall::kNewDiscreteStates, fn) != Status::kOk) return Status::kError;
  try {
    if (std::exchange(exchange_.event_pending, false) && !finished_) {
      const std::vector<double> before = exchange_.x;
      if (!director_->events_at(now_time_, exchange_.x)) {
        const RunResult result = director_->run();
        finished_ = true;
        if (result.status == RunStatus::kError) return fail(fn, result.message);
        if (result.status == RunStatus::kStopped) {
          ended_ = true;
          log(Status::kOk, "logEvents", "a Stop ended the run at t = " + format_double(result.time) + " s");
        }
      }
      const std::span<const double> x = director_->states();
      std::copy(x.begin(), x.end(), exchange_.x.begin());
      exchange_.evaluated = false;
      info.values_changed = !std::equal(before.begin(), before.end(), exchange_.x.begin());
    }
    info.terminate = ended_;
    if (const std::optional<double> next = finished_ ? std::nullopt : director_->next_event_time()) {
      info.next_defined = true;
      info.next_time = *next;
    }
  } catch (const std::exception& e) {
    return fail(fn, e.what());
  }
  return Status::kOk;
}

Status ExportedInstance::enter_continuous_time_mode() noexcept {
  if (allowed(FmiCall::kEnterContinuousTimeMode, "EnterContinuousTimeMode") != Status::kOk)
    return Status::kError;
  mode_ = FmiMode::kContinuousTime;
  return Status::kOk;
}

Status ExportedInstance::completed_integrator_step(bool& enter_event_mode, bool& terminate) noexcept {
  const char* fn = "CompletedIntegratorStep";
  enter_event_mode = false;
  terminate = ended_;
  if (allowed(FmiCall::kCompletedIntegratorStep, fn) != Status::kOk) return Status::kError;
  try {
    if (!finished_) enter_event_mode = director_->step_completed(now_time_, exchange_.x);
  } catch (const std::exception& e) {
    return fail(fn, e.what());
  }
  return Status::kOk;
}

}  // namespace ctde::fmu
