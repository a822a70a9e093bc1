#include "core/trace.hpp"

#include <spdlog/logger.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/ostream_sink.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "core/format.hpp"
#include "ctde/version.hpp"

namespace ctde {

namespace {

std::shared_ptr<spdlog::logger> make_logger(std::shared_ptr<spdlog::sinks::sink> sink) {
  auto logger = std::make_shared<spdlog::logger>("ctde.trace", std::move(sink));
  logger->set_pattern("%v");
  logger->set_level(spdlog::level::info);
  return logger;
}

/// `{"kind":"K","t":..,"tick":..,"n":..` — the common head of tagged lines.
std::string head(std::string_view kind, Tag tag, double t) {
  std::string line = "{\"kind\":";
  append_json_string(line, kind);
  line += ",\"t\":";
  append_json_number(line, t);
  line += ",\"tick\":";
  line += std::to_string(tag.time);
  line += ",\"n\":";
  line += std::to_string(tag.microstep);
  return line;
}

void append_array(std::string& out, std::span<const double> values) {
  out += '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    append_json_number(out, values[i]);
  }
  out += ']';
}

}  // namespace

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
  std::string line = "{\"kind\":\"run_start\",\"model\":";
  append_json_string(line, header.model);
  line += ",\"solver\":";
  append_json_string(line, header.solver);
  line += ",\"rtol\":";
  append_json_number(line, header.rtol);
  line += ",\"atol\":";
  append_json_number(line, header.atol);
  line += ",\"stop_time\":";
  append_json_number(line, header.stop_time);
  line += ",\"time_resolution\":";
  append_json_number(line, header.time_resolution);
  line += ",\"ctde_version\":";
  append_json_string(line, CTDE_VERSION);
  line += '}';
  write(line);
}

void TraceWriter::event(Tag tag, double t, std::string_view actor, std::string_view port,
                        std::span<const double> value) {
  std::string line = head("event", tag, t);
  line += ",\"actor\":";
  append_json_string(line, actor);
  line += ",\"port\":";
  append_json_string(line, port);
  line += ",\"value\":";
  append_array(line, value);
  line += '}';
  write(line);
}

void TraceWriter::time_event(Tag tag, double t, std::string_view actor) {
  std::string line = head("time_event", tag, t);
  line += ",\"actor\":";
  append_json_string(line, actor);
  line += '}';
  write(line);
}

void TraceWriter::state_event(Tag tag, double t, const StateEventInfo& info) {
  std::string line = head("state_event", tag, t);
  line += ",\"actor\":";
  append_json_string(line, info.actor);
  line += ",\"guard\":";
  if (info.guard.empty()) {
    line += std::to_string(info.guard_index);
  } else {
    append_json_string(line, info.guard);
  }
  line += ",\"direction\":";
  append_json_string(line, info.direction);
  line += ",\"bracket\":";
  append_json_number(line, info.bracket);
  line += ",\"residual\":";
  append_json_number(line, info.residual);
  line += ",\"iterations\":";
  line += std::to_string(info.iterations);
  line += ",\"rejected_t1\":";
  append_json_number(line, info.rejected_t1);
  line += '}';
  write(line);
}

void TraceWriter::mode(Tag tag, double t, std::string_view actor, std::string_view from, std::string_view via,
                       std::string_view to) {
  std::string line = head("mode", tag, t);
  line += ",\"actor\":";
  append_json_string(line, actor);
  line += ",\"from\":";
  append_json_string(line, from);
  line += ",\"via\":";
  if (via.empty()) {
    line += "null";
  } else {
    append_json_string(line, via);
  }
  line += ",\"to\":";
  append_json_string(line, to);
  line += '}';
  write(line);
}

void TraceWriter::step_reject(double t0, double t1, std::string_view by) {
  std::string line = "{\"kind\":\"step_reject\",\"t0\":";
  append_json_number(line, t0);
  line += ",\"t1\":";
  append_json_number(line, t1);
  line += ",\"by\":";
  append_json_string(line, by);
  line += '}';
  write(line);
}

void TraceWriter::reset(Tag tag, double t, std::string_view actor, std::span<const double> before,
                        std::span<const double> after) {
  std::string line = head("reset", tag, t);
  line += ",\"actor\":";
  append_json_string(line, actor);
  line += ",\"before\":";
  append_array(line, before);
  line += ",\"after\":";
  append_array(line, after);
  line += '}';
  write(line);
}

void TraceWriter::error(Tag tag, double t, std::string_view status, std::string_view message,
                        std::string_view actor) {
  std::string line = head("error", tag, t);
  line += ",\"status\":";
  append_json_string(line, status);
  line += ",\"message\":";
  append_json_string(line, message);
  if (!actor.empty()) {
    line += ",\"actor\":";
    append_json_string(line, actor);
  }
  line += '}';
  write(line);
  flush();
}

void TraceWriter::run_end(std::string_view status, const RunStatistics& stats) {
  std::string line = "{\"kind\":\"run_end\",\"status\":";
  append_json_string(line, status);
  line += ",\"steps\":" + std::to_string(stats.steps);
  line += ",\"rejected_steps\":" + std::to_string(stats.rejected_steps);
  line += ",\"rhs_evals\":" + std::to_string(stats.rhs_evals);
  line += ",\"events\":" + std::to_string(stats.events);
  line += ",\"time_events\":" + std::to_string(stats.time_events);
  line += ",\"state_events\":" + std::to_string(stats.state_events);
  line += '}';
  write(line);
  flush();
}

}  // namespace ctde
