#include "core/recorded_signal.hpp"

#include <optional>
#include <string_view>
#include <unordered_map>

#include "core/error.hpp"

namespace ctde {

std::vector<RecordedSignal> resolve_record(const FlatModel& model, const std::vector<std::string>& record) {
  std::vector<RecordedSignal> out;
  std::unordered_map<std::string_view, FlatIndex> by_path;  // one pass, not a scan per endpoint
  for (std::size_t i = 0; i < model.actors.size(); ++i) {
    by_path.emplace(model.actors[i].path, FlatIndex::at(i));
  }
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
    if (found == by_path.end()) {
      throw ModelError("record: there is no actor '" + endpoint.substr(0, dot) + "' (in '" + endpoint + "')");
    }
    const FlatIndex actor = found->second;
    const FlatActor& a = model[actor];
    const auto port = a.actor->find_output(endpoint.substr(dot + 1));
    if (!port) {
      throw ModelError("record: " + a.actor->describe() + " has no output '" + endpoint.substr(dot + 1) +
                       "'");
    }
    out.push_back({endpoint, actor, static_cast<std::uint32_t>(*port),
                   static_cast<std::uint32_t>(a.output_widths[*port]),
                   a.output_kinds[*port] == PortKind::kDiscrete});
  }
  return out;
}

std::string column_name(const RecordedSignal& signal, std::uint32_t element) {
  if (signal.width == 1) return signal.name;
  return signal.name + "[" + std::to_string(element) + "]";
}

std::vector<std::string> column_names(const std::vector<RecordedSignal>& signals) {
  std::vector<std::string> names;
  for (const RecordedSignal& s : signals) {
    for (std::uint32_t i = 0; i < s.width; ++i) names.push_back(column_name(s, i));
  }
  return names;
}

}  // namespace ctde
