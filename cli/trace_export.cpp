#include "cli/trace_export.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "run/command_error.hpp"
#include "run/interrupt.hpp"
#include "run/output_file.hpp"

namespace ctde::cli {

namespace {

using nlohmann::json;

constexpr int kProcessId = 1;
/// The largest |t| (s) that fits in int64 nanoseconds with room to spare.
constexpr double kMaxSeconds = 9.0e9;
constexpr std::size_t kNoDuration = static_cast<std::size_t>(-1);

/// One trace-event to be written, before its track gets a tid.
struct Item {
  std::size_t track = 0;  ///< index into Converter::tracks_
  json event;             ///< everything but "tid"
  std::int64_t ts_ns = 0;
  std::int64_t dur_ns = -1;  ///< -1: an instant
  std::size_t lane = 0;      ///< 0: the track itself, k: its (k+1)-th overflow track
};

/// Microseconds for a count of nanoseconds, nudged a quarter nanosecond away
/// from zero (see the header).
double microseconds(std::int64_t ns) {
  const double nudge = ns > 0 ? 0.25 : (ns < 0 ? -0.25 : 0.0);
  return (static_cast<double>(ns) + nudge) / 1000.0;
}

/// Turns trace lines into trace events, one line at a time.
class Converter {
 public:
  explicit Converter(std::string source) : source_(std::move(source)) {
    tracks_.push_back({"", "(director)"});
    track_index_.emplace("", 0);
  }

  void add_line(const std::string& raw, std::size_t number) {
    json line;
    try {
      line = json::parse(raw);
    } catch (const json::exception& e) {  // a syntax error, or a number beyond a double (out_of_range)
      fail(number, strip_prefix(e.what()));
    }
    if (!line.is_object()) fail(number, "not a JSON object");
    const auto kind_it = line.find("kind");
    if (kind_it == line.end() || !kind_it->is_string()) fail(number, "no \"kind\" string");
    const std::string kind = kind_it->get<std::string>();
    json args = line;
    args.erase("kind");

    if (kind == "run_start") {
      run_start_ = args;
      if (const auto model = optional_text(line, "model", number)) model_ = *model;
    } else if (kind == "run_end") {
      run_end_ = args;
      has_run_end_ = true;
    } else if (kind == "step_reject") {
      const std::int64_t t0 = time_ns(line, "t0", number);
      const std::int64_t t1 = time_ns(line, "t1", number);
      const std::string by = optional_text(line, "by", number).value_or("");
      slice(by, "step_reject", "step_reject", t0, t1, std::move(args));
    } else if (kind == "state_event") {
      const std::int64_t t = time_ns(line, "t", number);
      const std::string actor = text(line, "actor", number);
      const std::int64_t end = time_ns(line, "rejected_t1", number);
      slice(actor, "state_event", "state_event", t, end, std::move(args));
    } else if (kind == "event") {
      const std::int64_t t = time_ns(line, "t", number);
      const std::string actor = text(line, "actor", number);
      std::string name = "event";
      if (const auto port = optional_text(line, "port", number)) {
        name += ' ';
        name += *port;
      }
      instant(actor, name, kind, t, "t", std::move(args));
    } else if (kind == "time_event" || kind == "reset") {
      const std::int64_t t = time_ns(line, "t", number);
      instant(text(line, "actor", number), kind, kind, t, "t", std::move(args));
    } else if (kind == "mode") {
      const std::int64_t t = time_ns(line, "t", number);
      std::string name = "mode ";
      name += mode_name(line, "from");
      name += " -> ";
      name += mode_name(line, "to");
      instant(text(line, "actor", number), name, kind, t, "t", std::move(args));
    } else if (kind == "error") {
      const std::int64_t t = time_ns(line, "t", number);
      const std::string actor = optional_text(line, "actor", number).value_or("");
      instant(actor, "error", kind, t, "g", std::move(args));
    } else {  // a kind this version does not know: kept as an instant
      const std::int64_t t = line.contains("t") ? time_ns(line, "t", number) : last_ns_;
      const std::string actor = optional_text(line, "actor", number).value_or("");
      instant(actor, kind, kind, t, "t", std::move(args));
    }
  }

  json finish() {
    if (has_run_end_) instant("", "run_end", "run_end", end_ns_, "g", run_end_);
    assign_lanes();

    // Tracks in the order they first appeared, the director's first; the
    // overflow tracks of an actor right after it.
    std::vector<std::vector<int>> tids(tracks_.size());
    std::vector<std::size_t> lanes(tracks_.size(), 0);
    for (const Item& item : items_) lanes[item.track] = std::max(lanes[item.track], item.lane + 1);
    json events = json::array();
    std::string process = "ctde";
    if (!model_.empty()) {
      process += ": ";
      process += model_;
    }
    events.push_back(
        {{"name", "process_name"}, {"ph", "M"}, {"pid", kProcessId}, {"args", {{"name", process}}}});
    int next_tid = 1;
    for (std::size_t k = 0; k < tracks_.size(); ++k) {
      for (std::size_t lane = 0; lane < lanes[k]; ++lane) {
        const int tid = next_tid++;
        tids[k].push_back(tid);
        std::string name = tracks_[k].display;
        if (lane > 0) {
          name += " (";
          name += std::to_string(lane + 1);
          name += ')';
        }
        events.push_back({{"name", "thread_name"},
                          {"ph", "M"},
                          {"pid", kProcessId},
                          {"tid", tid},
                          {"args", {{"name", name}}}});
        events.push_back({{"name", "thread_sort_index"},
                          {"ph", "M"},
                          {"pid", kProcessId},
                          {"tid", tid},
                          {"args", {{"sort_index", tid}}}});
      }
    }

    // Sorted by time, longer slices first at equal times (so that viewers
    // see parents before children); stable, so equal events keep the trace's order.
    std::stable_sort(items_.begin(), items_.end(), [](const Item& a, const Item& b) {
      if (a.ts_ns != b.ts_ns) return a.ts_ns < b.ts_ns;
      return a.dur_ns > b.dur_ns;
    });
    for (Item& item : items_) {
      item.event["tid"] = tids[item.track][item.lane];
      events.push_back(std::move(item.event));
    }

    json other = json::object();
    other["source"] = source_;
    if (!run_start_.is_null()) other["run_start"] = run_start_;
    if (has_run_end_) other["run_end"] = run_end_;
    return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}, {"otherData", std::move(other)}};
  }

 private:
  struct Track {
    std::string key;      ///< the actor path, or "" for the director
    std::string display;  ///< the track's name
  };

  [[noreturn]] void fail(std::size_t number, const std::string& what) const {
    std::string message = source_;
    message += ':';
    message += std::to_string(number);
    message += ": ";
    message += what;
    throw CommandError(kExitUsage, message);
  }

  /// nlohmann's "[json.exception.parse_error.101] parse error at ..." without the tag.
  static std::string strip_prefix(const std::string& what) {
    const auto end = what.find("] ");
    return end == std::string::npos ? what : what.substr(end + 2);
  }

  static std::string mode_name(const json& line, const char* key) {
    const auto it = line.find(key);
    if (it == line.end() || it->is_null()) return "?";
    return it->is_string() ? it->get<std::string>() : it->dump();
  }

  /// Key `key` as integer nanoseconds. @throws CommandError when missing,
  /// not a number or out of range.
  std::int64_t time_ns(const json& line, const char* key, std::size_t number) {
    const auto it = line.find(key);
    if (it == line.end()) fail(number, std::string("no \"") + key + "\" (a time in seconds)");
    if (!it->is_number()) fail(number, std::string("\"") + key + "\" is not a number");
    const double seconds = it->get<double>();
    if (!(std::fabs(seconds) <= kMaxSeconds)) {
      fail(number,
           std::string("\"") + key + "\" is out of the range the timeline format can hold (|t| <= 9e9 s)");
    }
    const std::int64_t ns = std::llround(seconds * 1e9);
    if (std::string_view(key) == "t" || std::string_view(key) == "t0") last_ns_ = ns;
    end_ns_ = std::max(end_ns_, ns);
    return ns;
  }

  /// Key `key` as a string. @throws CommandError when missing or not a string.
  std::string text(const json& line, const char* key, std::size_t number) const {
    const auto value = optional_text(line, key, number);
    if (!value) fail(number, std::string("no \"") + key + "\" string");
    return *value;
  }

  /// Key `key` as a string, or nothing when it is missing or null.
  /// @throws CommandError when it is something else.
  std::optional<std::string> optional_text(const json& line, const char* key, std::size_t number) const {
    const auto it = line.find(key);
    if (it == line.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) fail(number, std::string("\"") + key + "\" is not a string");
    return it->get<std::string>();
  }

  std::size_t track(const std::string& actor) {
    const auto [it, added] = track_index_.emplace(actor, tracks_.size());
    if (added) tracks_.push_back({actor, actor});
    return it->second;
  }

  void instant(const std::string& actor, const std::string& name, const std::string& category,
               std::int64_t ts_ns, const char* scope, json args) {
    Item item;
    item.track = track(actor);
    item.ts_ns = ts_ns;
    item.event = {{"name", name},
                  {"cat", category},
                  {"ph", "i"},
                  {"s", scope},
                  {"pid", kProcessId},
                  {"ts", microseconds(ts_ns)},
                  {"args", std::move(args)}};
    items_.push_back(std::move(item));
  }

  void slice(const std::string& actor, const std::string& name, const std::string& category,
             std::int64_t begin_ns, std::int64_t end_ns, json args) {
    Item item;
    item.track = track(actor);
    item.ts_ns = begin_ns;
    item.dur_ns = std::max<std::int64_t>(end_ns - begin_ns, 0);  // a reversed interval: a zero-length slice
    item.event = {{"name", name},
                  {"cat", category},
                  {"ph", "X"},
                  {"pid", kProcessId},
                  {"ts", microseconds(begin_ns)},
                  {"dur", microseconds(item.dur_ns)},
                  {"args", std::move(args)}};
    items_.push_back(std::move(item));
  }

  /// Puts each slice on the first lane of its track where it nests with the
  /// slices already there (viewers draw one stack of nested slices per track).
  void assign_lanes() {
    std::vector<std::size_t> slices;
    for (std::size_t i = 0; i < items_.size(); ++i) {
      if (items_[i].dur_ns >= 0) slices.push_back(i);
    }
    std::stable_sort(slices.begin(), slices.end(), [this](std::size_t a, std::size_t b) {
      const Item& x = items_[a];
      const Item& y = items_[b];
      if (x.track != y.track) return x.track < y.track;
      if (x.ts_ns != y.ts_ns) return x.ts_ns < y.ts_ns;
      return x.dur_ns > y.dur_ns;
    });
    std::vector<std::vector<std::int64_t>> open_ends;  // per lane of the current track: a stack of ends
    std::size_t current = kNoDuration;
    for (const std::size_t index : slices) {
      Item& item = items_[index];
      if (item.track != current) {
        open_ends.clear();
        current = item.track;
      }
      const std::int64_t end = item.ts_ns + item.dur_ns;
      std::size_t lane = 0;
      for (;; ++lane) {
        if (lane == open_ends.size()) open_ends.emplace_back();
        auto& stack = open_ends[lane];
        while (!stack.empty() && stack.back() <= item.ts_ns) stack.pop_back();
        if (stack.empty() || end <= stack.back()) {
          stack.push_back(end);
          break;
        }
      }
      item.lane = lane;
    }
  }

  std::string source_;
  std::string model_;
  std::vector<Track> tracks_;
  std::unordered_map<std::string, std::size_t> track_index_;  // lookup only, never iterated
  std::vector<Item> items_;
  json run_start_;
  json run_end_;
  bool has_run_end_ = false;
  std::int64_t last_ns_ = 0;  ///< the last `t` (or `t0`) read, for lines without one
  std::int64_t end_ns_ = 0;   ///< the latest time read, for run_end
};

}  // namespace

json chrome_trace(std::istream& in, const std::string& source, std::ostream* warnings) {
  Converter converter(source);
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    throw_if_interrupted();
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    // A last line without its newline that is not JSON was cut: the writer
    // was killed mid-line. The lines before it are whole and worth showing.
    if (in.eof() && !json::accept(line)) {
      if (warnings != nullptr) {
        *warnings << "ctde: warning: " << source << ':' << number
                  << ": the last line is cut short (the run was killed?); converting the " << number - 1
                  << " lines before it\n";
      }
      break;
    }
    converter.add_line(line, number);
  }
  if (in.bad()) {
    std::string message = "cannot read ";
    message += source;
    throw CommandError(kExitUsage, message);
  }
  return converter.finish();
}

void write_chrome_trace(const json& trace, std::ostream& out) {
  constexpr auto kReplace = json::error_handler_t::replace;
  out << "{\"traceEvents\":[";
  const json& events = trace.at("traceEvents");
  for (std::size_t i = 0; i < events.size(); ++i) {
    throw_if_interrupted();
    out << (i == 0 ? "\n" : ",\n") << events[i].dump(-1, ' ', false, kReplace);
  }
  out << "\n]";
  for (const auto& [key, value] : trace.items()) {
    if (key == "traceEvents") continue;
    out << ",\n" << json(key).dump() << ':' << value.dump(-1, ' ', false, kReplace);
  }
  out << "}\n";
}

void trace_export_command(const std::string& input, const std::string& output) {
  // No -o: standard output, which must not be the trace either (`>> trace.jsonl`).
  const NamedPath destination{"-o", output.empty() ? std::string("-") : output};
  check_paths({{"TRACE", input}}, {destination});
  std::ifstream in(input);
  if (!in) {
    std::string message = "cannot read the trace '";
    message += input;
    message += "'";
    throw CommandError(kExitUsage, message);
  }
  const json trace = chrome_trace(in, input, &std::cerr);
  OutputFile file(destination, OutputFile::Writer::kStream);
  write_chrome_trace(trace, file.stream());
  throw_if_interrupted();  // a signal before the rename: nothing is written
  file.commit();
}

}  // namespace ctde::cli
