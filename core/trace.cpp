#include "core/trace.hpp"

#include <spdlog/logger.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/ostream_sink.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "core/error.hpp"
#include "core/format.hpp"
#include "ctde/version.hpp"

namespace ctde {

namespace {

/// The documented kinds, indexed by TraceKind.
constexpr std::array<std::string_view, 13> kKinds = {
    "run_start", "time_event", "event",    "step",    "step_reject", "state_event", "reset",
    "mode",      "solver",     "snapshot", "fmu_log", "error",       "run_end"};
static_assert(kKinds.size() == static_cast<std::size_t>(TraceKind::kRunEnd) + 1, "a name per TraceKind");
/// The kinds every trace keeps, filtered or not.
constexpr std::array<TraceKind, 4> kAlwaysKept = {TraceKind::kRunStart, TraceKind::kSnapshot,
                                                  TraceKind::kError, TraceKind::kRunEnd};

/// Kind `kind`'s index in kKinds, or kKinds.size().
std::size_t kind_index(std::string_view kind) {
  return static_cast<std::size_t>(std::find(kKinds.begin(), kKinds.end(), kind) - kKinds.begin());
}

std::string known_kinds() {
  std::string out;
  for (const std::string_view kind : kKinds) {
    if (!out.empty()) out += ", ";
    out += kind;
  }
  return out;
}

std::shared_ptr<spdlog::logger> make_logger(std::shared_ptr<spdlog::sinks::sink> sink) {
  auto logger = std::make_shared<spdlog::logger>("ctde.trace", std::move(sink));
  logger->set_pattern("%v");
  logger->set_level(spdlog::level::info);
  return logger;
}

void append_array(std::string& out, std::span<const double> values) {
  out += '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    append_json_number(out, values[i]);
  }
  out += ']';
}

/// One trace line, a JSON object built member by member in order.
class Line {
 public:
  /// `{"kind":"K"`.
  explicit Line(std::string_view kind) { text("kind", kind); }
  /// `{"kind":"K","t":..,"tick":..,"n":..`: the common head of tagged lines
  /// (`t` from the tick: exact at a resolution of 10^-n s).
  Line(std::string_view kind, Tag tag, const TimeResolution& resolution) : Line(kind) {
    if (tag.time == kNever) {
      name("t") += "null";
    } else {
      resolution.append_seconds(name("t"), tag.time);
    }
    integer("tick", tag.time);
    integer("n", tag.microstep);
  }

  Line& text(std::string_view key, std::string_view value) {
    append_json_string(name(key), value);
    return *this;
  }
  /// A string, or null when empty.
  Line& text_or_null(std::string_view key, std::string_view value) {
    if (value.empty()) {
      name(key) += "null";
      return *this;
    }
    return text(key, value);
  }
  Line& number(std::string_view key, double value) {
    append_json_number(name(key), value);
    return *this;
  }
  template <class Int>
  Line& integer(std::string_view key, Int value) {
    name(key) += std::to_string(value);
    return *this;
  }
  Line& array(std::string_view key, std::span<const double> values) {
    append_array(name(key), values);
    return *this;
  }
  Line& texts(std::string_view key, const std::vector<std::string_view>& values) {
    std::string& out = name(key);
    out += '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) out += ',';
      append_json_string(out, values[i]);
    }
    out += ']';
    return *this;
  }
  /// The line, closed.
  [[nodiscard]] std::string done() { return std::move(line_ += '}'); }

 private:
  std::string& name(std::string_view key) {
    line_ += line_.empty() ? '{' : ',';
    append_json_string(line_, key);
    line_ += ':';
    return line_;
  }
  std::string line_;
};

}  // namespace

TraceFilter TraceFilter::parse(std::string_view text, std::string_view option) {
  TraceFilter filter;
  filter.all_ = false;
  for (const TraceKind kind : kAlwaysKept) filter.mask_ |= 1U << static_cast<unsigned>(kind);
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view kind = text.substr(start, comma == std::string_view::npos ? comma : comma - start);
    if (kind.empty()) {
      throw ModelError(concat(
          {option, " ", text, ": expects kinds of trace line separated by commas (", known_kinds(), ")"}));
    }
    const std::size_t index = kind_index(kind);
    if (index == kKinds.size()) {
      throw ModelError(concat({option, " ", text, ": unknown kind of trace line '", kind,
                               "' (known: ", known_kinds(), "; docs/trace-format.md)"}));
    }
    filter.mask_ |= 1U << index;
    if (comma == std::string_view::npos) return filter;
    start = comma + 1;
  }
}

bool TraceFilter::keeps(std::string_view kind) const {
  if (all_) return true;
  const std::size_t index = kind_index(kind);
  return index < kKinds.size() && keeps(static_cast<TraceKind>(index));
}

std::vector<std::string_view> TraceFilter::kinds() const {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < kKinds.size(); ++i) {
    if (keeps(static_cast<TraceKind>(i))) out.push_back(kKinds[i]);
  }
  return out;
}

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void append_json_number(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  out += format_double(value);
}

TraceWriter::TraceWriter(const std::string& path) {
  // spdlog's file sink would create missing folders: a mistyped path would
  // then write somewhere unexpected instead of failing.
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::error_code error;
  if (!folder.empty() && !std::filesystem::is_directory(folder, error)) {
    throw std::runtime_error("cannot write the trace file '" + path + "': the folder '" + folder.string() +
                             "' does not exist");
  }
  try {
    logger_ = make_logger(std::make_shared<spdlog::sinks::basic_file_sink_st>(path, /*truncate=*/true));
  } catch (const spdlog::spdlog_ex& e) {
    throw std::runtime_error("cannot write the trace file '" + path + "': " + e.what());
  }
  logger_->set_error_handler([failed = file_failed_](const std::string&) { *failed = true; });
}

TraceWriter::TraceWriter(std::ostream& out)
    : logger_(make_logger(std::make_shared<spdlog::sinks::ostream_sink_st>(out))), out_(&out) {}

bool TraceWriter::failed() const {
  return (file_failed_ && *file_failed_) || (out_ != nullptr && out_->fail());
}

TraceWriter::~TraceWriter() {
  if (logger_) logger_->flush();
}
TraceWriter::TraceWriter(TraceWriter&&) noexcept = default;
TraceWriter& TraceWriter::operator=(TraceWriter&&) noexcept = default;

void TraceWriter::write(const std::string& line) { logger_->info(line); }
void TraceWriter::flush() { logger_->flush(); }

void TraceWriter::run_start(const TraceHeader& header) {
  resolution_ = TimeResolution(header.time_resolution);
  if (continuing_) return;
  Line line("run_start");
  line.text("model", header.model)
      .text("solver", header.solver)
      .number("rtol", header.rtol)
      .number("atol", header.atol)
      .number("stop_time", header.stop_time)
      .number("time_resolution", header.time_resolution)
      .text("ctde_version", CTDE_VERSION);
  if (!filter_.keeps_all()) line.texts("trace_events", filter_.kinds());
  write(line.done());
}

void TraceWriter::event(Tag tag, std::string_view actor, std::string_view port,
                        std::span<const double> value) {
  if (!filter_.keeps(TraceKind::kEvent)) return;
  write(Line("event", tag, resolution_).text("actor", actor).text("port", port).array("value", value).done());
}

void TraceWriter::time_event(Tag tag, std::string_view actor) {
  if (!filter_.keeps(TraceKind::kTimeEvent)) return;
  write(Line("time_event", tag, resolution_).text("actor", actor).done());
}

void TraceWriter::snapshot(Tag tag, bool resumed) {
  if (!filter_.keeps(TraceKind::kSnapshot)) return;
  write(Line("snapshot", tag, resolution_).text("action", resumed ? "resumed" : "saved").done());
}

void TraceWriter::state_event(Tag tag, const StateEventInfo& info) {
  if (!filter_.keeps(TraceKind::kStateEvent)) return;
  Line line("state_event", tag, resolution_);
  line.text("actor", info.actor);
  if (info.guard.empty()) {
    line.integer("guard", info.guard_index);
  } else {
    line.text("guard", info.guard);
  }
  write(line.text("direction", info.direction)
            .number("bracket", info.bracket)
            .number("residual", info.residual)
            .integer("iterations", info.iterations)
            .number("rejected_t1", info.rejected_t1)
            .done());
}

void TraceWriter::mode(Tag tag, std::string_view actor, std::string_view from, std::string_view via,
                       std::string_view to) {
  if (!filter_.keeps(TraceKind::kMode)) return;
  write(Line("mode", tag, resolution_)
            .text("actor", actor)
            .text("from", from)
            .text_or_null("via", via)
            .text("to", to)
            .done());
}

void TraceWriter::step(const StepInfo& info) {
  if (!filter_.keeps(TraceKind::kStep)) return;
  write(Line("step")
            .number("t0", info.t0)
            .number("t1", info.t1)
            .integer("part", info.part)
            .integer("rhs_evals", info.rhs_evals)
            .integer("rejected", info.rejected)
            .integer("newton_iterations", info.newton_iterations)
            .integer("loop_solves", info.loop_solves)
            .integer("loop_iterations", info.loop_iterations)
            .done());
}

void TraceWriter::step_reject(double t0, double t1, std::string_view by) {
  if (!filter_.keeps(TraceKind::kStepReject)) return;
  write(Line("step_reject").number("t0", t0).number("t1", t1).text("by", by).done());
}

void TraceWriter::solver(Tag tag, std::uint32_t part, std::string_view method, std::string_view linear_solver,
                         std::string_view reason) {
  if (!filter_.keeps(TraceKind::kSolver)) return;
  write(Line("solver", tag, resolution_)
            .integer("part", part)
            .text("method", method)
            .text_or_null("linear_solver", linear_solver)
            .text("reason", reason)
            .done());
}

void TraceWriter::reset(Tag tag, std::string_view actor, std::span<const double> before,
                        std::span<const double> after) {
  if (!filter_.keeps(TraceKind::kReset)) return;
  write(Line("reset", tag, resolution_)
            .text("actor", actor)
            .array("before", before)
            .array("after", after)
            .done());
}

bool is_director_trace_kind(std::string_view kind) {
  const std::size_t index = kind_index(kind);
  return index < kKinds.size() && static_cast<TraceKind>(index) != TraceKind::kFmuLog;
}

void TraceWriter::actor_line(Tag tag, std::string_view kind, std::string_view actor,
                             std::span<const TraceField> fields) {
  if (!filter_.keeps(kind)) return;
  Line line(kind, tag, resolution_);
  line.text("actor", actor);
  for (const TraceField& field : fields) line.text(field.key, field.value);
  write(line.done());
}

void TraceWriter::error(Tag tag, std::string_view status, std::string_view message, std::string_view actor) {
  Line line("error", tag, resolution_);
  line.text("status", status).text("message", message);
  if (!actor.empty()) line.text("actor", actor);
  write(line.done());
  flush();
}

void TraceWriter::run_end(std::string_view status, const RunStatistics& stats) {
  Line line("run_end");
  line.text("status", status);
  for (const RunCounter& counter : kRunCounters) line.integer(counter.name, stats.*counter.member);
  write(line.done());
  flush();
}

}  // namespace ctde
