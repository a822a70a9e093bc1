#include "core/recorder.hpp"

#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "core/error.hpp"
#include "core/format.hpp"

namespace ctde {

std::vector<RecordedSignal> resolve_record(const FlatModel& model, const std::vector<std::string>& record) {
  std::vector<RecordedSignal> out;
  std::unordered_map<std::string_view, std::uint32_t> by_path;  // one pass, not a scan per endpoint
  for (std::uint32_t i = 0; i < model.actors.size(); ++i) by_path.emplace(model.actors[i].path, i);
  std::unordered_map<std::string_view, std::size_t> listed;  // entry -> its index
  for (std::size_t index = 0; index < record.size(); ++index) {
    const std::string& endpoint = record[index];
    if (const auto [at, fresh] = listed.emplace(endpoint, index); !fresh) {
      throw ModelError("record: '" + endpoint + "' is listed twice (entries " + std::to_string(at->second) +
                       " and " + std::to_string(index) + "); each signal is one column");
    }
    const auto dot = endpoint.rfind('.');
    if (dot == std::string::npos) {
      throw ModelError("record: '" + endpoint + "' is not of the form actor.port");
    }
    const auto found = by_path.find(std::string_view(endpoint).substr(0, dot));
    const std::optional<std::uint32_t> actor =
        found == by_path.end() ? std::nullopt : std::optional<std::uint32_t>(found->second);
    if (!actor) {
      throw ModelError("record: there is no actor '" + endpoint.substr(0, dot) + "' (in '" + endpoint + "')");
    }
    const FlatActor& a = model.actors[*actor];
    const auto port = a.actor->find_output(endpoint.substr(dot + 1));
    if (!port) {
      throw ModelError("record: " + a.actor->describe() + " has no output '" + endpoint.substr(dot + 1) +
                       "'");
    }
    out.push_back({endpoint, *actor, static_cast<std::uint32_t>(*port),
                   static_cast<std::uint32_t>(a.output_widths[*port]),
                   a.output_kinds[*port] == PortKind::kDiscrete});
  }
  return out;
}

Recorder::Recorder(std::ostream& out, std::vector<RecordedSignal> signals)
    : out_(&out), signals_(std::move(signals)) {
  header();
}

Recorder::Recorder(const std::string& path, std::vector<RecordedSignal> signals)
    : file_(std::make_unique<std::ofstream>(path)), out_(file_.get()), signals_(std::move(signals)) {
  if (!*file_) throw std::runtime_error("cannot write the results file '" + path + "'");
  header();
}

void Recorder::header() {
  line_ = "time,microstep";
  for (const auto& s : signals_) {
    if (s.width == 1) {
      line_ += "," + s.name;
      continue;
    }
    for (std::uint32_t i = 0; i < s.width; ++i) line_ += "," + s.name + "[" + std::to_string(i) + "]";
  }
  line_ += '\n';
  *out_ << line_;
}

void Recorder::row(double t, std::uint32_t microstep) {
  line_ = format_double(t);
  line_ += ',';
  line_ += std::to_string(microstep);
}

void Recorder::value(std::span<const double> values) {
  for (const double v : values) {
    line_ += ',';
    line_ += format_double(v);
  }
}

void Recorder::absent(std::uint32_t width) { line_.append(width, ','); }

void Recorder::end_row() {
  line_ += '\n';
  *out_ << line_;
}

void Recorder::flush() { out_->flush(); }

}  // namespace ctde
