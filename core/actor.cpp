#include "core/actor.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/composite.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/graph_text.hpp"

namespace ctde {

Actor::Actor(std::string name, std::string_view type, TimeMode mode)
    : name_(std::move(name)),
      type_(type),
      declared_mode_(mode),
      inputs_(empty_port_list()),
      outputs_(empty_port_list()) {}

Actor::Actor(std::string name, const ActorInfo& info, TimeMode mode)
    : Actor(std::move(name), info.type, mode) {
  family_ = info.family;
}

Actor::~Actor() = default;

void Actor::initialize(FireContext& /*context*/) const {}
void Actor::evaluate(EvalContext& /*context*/) const {}
void Actor::derivatives(const ReadContext& /*context*/, std::span<double> /*dxdt*/) const {}
void Actor::fire(FireContext& /*context*/) const {}

Crossing Actor::guard_direction(std::size_t /*i*/) const { return Crossing::kBoth; }

std::string Actor::guard_name(std::size_t /*i*/) const { return {}; }

void Actor::guards(const ReadContext& /*context*/, std::span<double> g) const {
  std::fill(g.begin(), g.end(), 0.0);
}

std::string Actor::path() const {
  if (parent_ == nullptr || parent_->parent_ == nullptr) return name_;
  return parent_->path() + "." + name_;
}

std::string Actor::tooltip_lines() const {
  std::string out;
  for (const ParamSlot& slot : parameters()) {
    if (slot.resolved.is_unset()) continue;  // an optional parameter left unset
    append(out, {"\n", slot.name.str(), " = ", short_value(slot.resolved)});
  }
  return out;
}

void Actor::write_graph_cluster(std::ostream& /*out*/, const GraphVertex& /*vertex*/) const {
  throw std::logic_error(describe() + " draws no cluster of its own");
}

std::string Actor::describe() const { return "actor '" + path() + "' (" + type_.str() + ")"; }

void Actor::set_time_mode(TimeMode mode) {
  if (declared_mode_ != TimeMode::kUnresolved) {
    throw ModelError(describe() + " has a fixed time mode (" + std::string(to_string(declared_mode_)) +
                     "); only polymorphic actors take a time_mode");
  }
  if (mode != TimeMode::kContinuous && mode != TimeMode::kDiscrete) {
    throw ModelError(describe() + ": time_mode must be continuous or discrete");
  }
  mode_override_ = mode;
}

namespace {
std::optional<std::size_t> find_port(const std::vector<PortSpec>& ports, std::string_view name) {
  for (std::size_t i = 0; i < ports.size(); ++i) {
    if (ports[i].name == name) return i;
  }
  return std::nullopt;
}
}  // namespace

std::optional<std::size_t> Actor::find_input(std::string_view name) const {
  return find_port(*inputs_, name);
}
std::optional<std::size_t> Actor::find_output(std::string_view name) const {
  return find_port(*outputs_, name);
}

InputPort Actor::declare_input(std::string name, PortKind kind, int width, bool optional) {
  inputs_ = with_port(*inputs_, {std::move(name), PortDirection::kInput, kind, width, optional});
  return InputPort{inputs_->size() - 1};
}

OutputPort Actor::declare_output(std::string name, PortKind kind, int width) {
  outputs_ = with_port(*outputs_, {std::move(name), PortDirection::kOutput, kind, width, false});
  return OutputPort{outputs_->size() - 1};
}

void Actor::declare_numbered_inputs(std::size_t count, PortKind kind) {
  PortList ports;
  ports.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    ports.push_back({"in" + std::to_string(i), PortDirection::kInput, kind, kInferredWidth, false});
  }
  inputs_ = intern_port_list(std::move(ports));
}

std::size_t Actor::port_count(ParamHandle p) const {
  const double count = scalar(p);
  if (!(count >= 1 && count <= 1000) || count != std::floor(count))
    fail(p, "must be a whole number from 1 to 1000");
  return static_cast<std::size_t>(count);
}

ParamHandle Actor::declare_parameter(std::string_view name, ParamKind kind,
                                     std::optional<ParamValue> default_value) {
  params_.push_back(
      {InternedName(name), kind, WrittenParam(std::move(default_value)), ResolvedParam(kind), {}, false});
  return {params_.size() - 1};
}

ParamHandle Actor::declare_optional_parameter(std::string_view name, ParamKind kind) {
  params_.push_back({InternedName(name), kind, WrittenParam(), ResolvedParam(kind), {}, true});
  return {params_.size() - 1};
}

void Actor::set_parameter(const std::string& name, ParamValue value, SourceLocation location) {
  for (auto& slot : params_) {
    if (slot.name == name) {
      slot.value = std::move(value);
      slot.location = std::move(location);
      return;
    }
  }
  std::string known;
  for (const auto& slot : params_) known += (known.empty() ? "" : ", ") + slot.name.str();
  throw ModelError(describe() + " has no parameter '" + name + "'" +
                   (known.empty() ? " (it takes none)" : " (its parameters: " + known + ")"));
}

void Actor::resolve_parameters(const ParameterScope& scope) {
  for (auto& slot : params_) {
    if (!slot.value && slot.optional) {
      slot.resolved = ResolvedParam(slot.kind);
      continue;
    }
    if (!slot.value) {
      throw ModelError(describe() + ": required parameter '" + slot.name.str() + "' is not set")
          .located(location_);
    }
    // Plain numbers and strings need no evaluation (and no message text).
    const WrittenParam& written = slot.value;
    const bool text_kind = slot.kind == ParamKind::kString || slot.kind == ParamKind::kFile;
    if (written.kind() == ParamValue::Kind::kNumber && !text_kind && slot.kind != ParamKind::kStructure) {
      slot.resolved = ResolvedParam::number(slot.kind, written.number());
      continue;
    }
    if (written.kind() == ParamValue::Kind::kText && text_kind) {
      slot.resolved = ResolvedParam::text_value(slot.kind, std::string(written.text()));
      continue;
    }
    // A value held inline (an expression) is read through a copy, without a heap block.
    const ParamValue* boxed = written.boxed();
    const ParamValue copy = boxed == nullptr ? written.get() : ParamValue(0.0);
    const ParamValue& value = boxed == nullptr ? copy : *boxed;
    try {
      slot.resolved = scope.evaluate(value, slot.kind, describe() + ", parameter '" + slot.name.str() + "'");
    } catch (const ModelError& e) {
      throw e.located(slot.location.empty() ? location_ : slot.location);
    }
  }
  try {
    configure(scope);
  } catch (const ModelError& e) {
    throw e.location().empty() ? e.located(location_) : e;
  }
}

bool Actor::feeds_through(std::size_t in, std::size_t out) const {
  switch (feedthrough_) {
    case Feedthrough::kAll:
      return true;
    case Feedthrough::kNone:
      return false;
    case Feedthrough::kListed:
      return std::find(feedthrough_pairs_.begin(), feedthrough_pairs_.end(), std::pair{in, out}) !=
             feedthrough_pairs_.end();
  }
  return true;
}

void Actor::local_jacobian(LocalJacobian& jacobian) const {
  for (std::size_t o = 0; o < jacobian.outputs(); ++o) {
    for (std::size_t k = 0; k < jacobian.inputs(); ++k) {
      if (feeds_through(k, o)) jacobian.output_on_all_of_input(o, k);
    }
    jacobian.output_on_all_states(o);
  }
  for (std::size_t k = 0; k < jacobian.inputs(); ++k) jacobian.derivatives_on_all(k);
  jacobian.derivatives_on_all_states();
}

void Actor::jacobian_values(const ReadContext& context, std::span<const LocalJacobian::Entry> entries,
                            std::span<double> values) const {
  (void)context;
  (void)entries;
  (void)values;
  throw std::logic_error("actor '" + name() +
                         "' declares Jacobian values at each point (LocalJacobian::kAtPoint) "
                         "but does not override Actor::jacobian_values");
}

bool Actor::feeds_through(std::size_t in) const {
  switch (feedthrough_) {
    case Feedthrough::kAll:
      return !outputs_->empty();
    case Feedthrough::kNone:
      return false;
    case Feedthrough::kListed:
      return std::any_of(feedthrough_pairs_.begin(), feedthrough_pairs_.end(),
                         [in](const auto& pair) { return pair.first == in; });
  }
  return true;
}

void Actor::set_feedthrough(bool all) { feedthrough_ = all ? Feedthrough::kAll : Feedthrough::kNone; }

void Actor::set_feedthrough(const std::vector<std::pair<InputPort, OutputPort>>& pairs) {
  feedthrough_ = Feedthrough::kListed;
  feedthrough_pairs_.clear();
  for (const auto& [in, out] : pairs) feedthrough_pairs_.emplace_back(in.index, out.index);
}

namespace {
/// The one copy of `list` with port `index` changed by `change` (the list itself when unchanged).
template <class Change>
const PortList* changed(const PortList* list, std::size_t index, Change change) {
  PortList copy(*list);
  change(copy.at(index));
  return intern_port_list(std::move(copy));
}
}  // namespace

void Actor::set_width(InputPort port, int width) {
  inputs_ = changed(inputs_, port.index, [width](PortSpec& p) { p.width = width; });
}
void Actor::set_width(OutputPort port, int width) {
  outputs_ = changed(outputs_, port.index, [width](PortSpec& p) { p.width = width; });
}
void Actor::set_kind(InputPort port, PortKind kind) {
  inputs_ = changed(inputs_, port.index, [kind](PortSpec& p) { p.kind = kind; });
}
void Actor::set_kind(OutputPort port, PortKind kind) {
  outputs_ = changed(outputs_, port.index, [kind](PortSpec& p) { p.kind = kind; });
}

void Actor::set_declared_mode(TimeMode mode) {
  assert(mode != TimeMode::kUnresolved && declared_mode_ != TimeMode::kUnresolved);
  declared_mode_ = mode;
}

int Actor::infer_output_width(std::size_t /*output*/, std::span<const int> input_widths) const {
  int width = kInferredWidth;
  for (const int w : input_widths) {
    if (w != kInferredWidth) width = std::max(width, w);
  }
  return width;
}

void Actor::check_widths(std::span<const int> input_widths, std::span<const int> /*outputs*/) const {
  std::optional<std::size_t> first;
  for (std::size_t i = 0; i < input_widths.size(); ++i) {
    if ((*inputs_)[i].width != kInferredWidth) continue;  // fixed widths are checked per connection
    if (!first) {
      first = i;
    } else if (input_widths[i] != input_widths[*first]) {
      throw ModelError("width mismatch in " + describe() + ": input '" + (*inputs_)[*first].name +
                       "' has width " + std::to_string(input_widths[*first]) + " but input '" +
                       (*inputs_)[i].name + "' has width " + std::to_string(input_widths[i]));
    }
  }
}

Matrix Actor::matrix(ParamHandle p) const {
  const ResolvedParam& r = params_.at(p.index).resolved;
  const std::span<const double> values = r.values();
  return {r.rows(), r.cols(), {values.begin(), values.end()}};
}
bool Actor::is_set(ParamHandle p) const { return params_.at(p.index).value.has_value(); }

void Actor::fail(const std::string& message) const { throw ModelError(describe() + ": " + message); }

void Actor::fail(ParamHandle p, const std::string& message) const {
  throw ModelError(describe() + ", parameter '" + params_.at(p.index).name.str() + "': " + message);
}

double Actor::max_step() const { return std::numeric_limits<double>::infinity(); }

void Actor::check_time_resolution(const TimeResolution& resolution) const {
  try {
    check_times(resolution);
  } catch (const ModelError& e) {
    throw e.location().empty() ? e.located(location_) : e;
  }
}

void Actor::check_duration(ParamHandle p, const TimeResolution& resolution, bool zero_allowed) const {
  check_duration(p, scalar(p), resolution, zero_allowed);
}

void Actor::check_duration(ParamHandle p, double seconds, const TimeResolution& resolution,
                           bool zero_allowed) const {
  if (!std::isfinite(seconds) || (zero_allowed && seconds == 0)) return;
  const double tick = resolution.seconds_per_tick();
  const double ticks = seconds / tick;
  if (ticks < 1 - 1e-6) {
    fail(p, format_double(seconds) + " s is shorter than one tick of the time resolution (" +
                format_double(tick) +
                " s): time could not advance; raise it or refine the director's time_resolution");
  }
  if (std::abs(ticks - std::nearbyint(ticks)) > 1e-6 * ticks) {
    fail(p, format_double(seconds) + " s is " + format_double(ticks) + " ticks of " + format_double(tick) +
                " s: not a whole number, it would be rounded to " + format_double(std::nearbyint(ticks)) +
                " ticks; make it a multiple of the director's time_resolution");
  }
}

}  // namespace ctde
