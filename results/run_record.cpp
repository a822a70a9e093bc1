#include "results/run_record.hpp"

#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace ctde::results {

void fill_record(RunRecord& record, const RunResult& result, const ColumnarResults& rows) {
  record.status = to_string(result.status);
  record.message = result.message;
  record.stats = result.stats;
  record.end_time = result.time;
  record.time = rows.time();
  record.microstep = rows.microstep();
  record.signals.clear();
  std::size_t column = 0;
  for (const RecordedSignal& signal : rows.signals()) {
    SignalData data{signal.name, signal.width, {}, signal.discrete};
    data.values.reserve(rows.rows() * signal.width);
    for (std::uint32_t element = 0; element < signal.width; ++element, ++column) {
      const std::vector<double>& values = rows.column(column);
      data.values.insert(data.values.end(), values.begin(), values.end());
    }
    record.signals.push_back(std::move(data));
  }
}

namespace {

/// Appends trivially copyable values and sized arrays to a byte buffer.
class Writer {
 public:
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* bytes =
        reinterpret_cast<const char*>(&value);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
    out_.insert(out_.end(), bytes, bytes + sizeof(T));
  }
  void put(const std::string& text) {
    put(static_cast<std::uint64_t>(text.size()));
    out_.insert(out_.end(), text.begin(), text.end());
  }
  template <class T>
  void put(const std::vector<T>& values) {
    put(static_cast<std::uint64_t>(values.size()));
    const auto* bytes =
        reinterpret_cast<const char*>(values.data());  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
    out_.insert(out_.end(), bytes, bytes + values.size() * sizeof(T));
  }
  /// put() of each value, in order.
  template <class... T>
  void fields(const T&... values) {
    (put(values), ...);
  }
  std::vector<char> take() { return std::move(out_); }

 private:
  std::vector<char> out_;
};

/// Reads what Writer wrote, checking every length against what is left.
class Reader {
 public:
  explicit Reader(const std::vector<char>& in) : in_(in) {}
  template <class T>
  void get(T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    need(sizeof(T));
    std::memcpy(&value, in_.data() + at_, sizeof(T));
    at_ += sizeof(T);
  }
  void get(std::string& text) {
    const std::size_t size = count(1);
    text.assign(in_.data() + at_, size);
    at_ += size;
  }
  template <class T>
  void get(std::vector<T>& values) {
    const std::size_t size = count(sizeof(T));
    values.resize(size);
    if (size > 0) std::memcpy(values.data(), in_.data() + at_, size * sizeof(T));
    at_ += size * sizeof(T);
  }
  /// get() of each value, in order.
  template <class... T>
  void fields(T&... values) {
    (get(values), ...);
  }
  [[nodiscard]] bool done() const { return at_ == in_.size(); }

 private:
  std::size_t count(std::size_t element) {
    std::uint64_t size = 0;
    get(size);
    if (size > (in_.size() - at_) / element) throw std::runtime_error("a run record is cut short");
    return static_cast<std::size_t>(size);
  }
  void need(std::size_t bytes) const {
    if (in_.size() - at_ < bytes) throw std::runtime_error("a run record is cut short");
  }
  const std::vector<char>& in_;
  std::size_t at_ = 0;
};

/// The fields between the parameters and the signals, in their order in the
/// bytes: one list for Writer (a const record) and Reader alike.
template <class Stream, class Record>
void outcome_fields(Stream& stream, Record& record) {
  stream.fields(record.status, record.message, record.stats, record.end_time, record.wall_time, record.time,
                record.microstep);
}

template <class Stream, class Signal>
void signal_fields(Stream& stream, Signal& signal) {
  stream.fields(signal.name, signal.width, signal.values, signal.discrete);
}

}  // namespace

std::vector<char> serialize(const RunRecord& record) {
  Writer out;
  out.put(record.index);
  out.put(static_cast<std::uint64_t>(record.parameters.size()));
  for (const auto& [name, value] : record.parameters) {
    out.put(name);
    out.put(value);
  }
  out.put(record.warm_start_until.has_value());
  out.put(record.warm_start_until.value_or(0.0));
  outcome_fields(out, record);
  out.put(static_cast<std::uint64_t>(record.signals.size()));
  for (const SignalData& signal : record.signals) signal_fields(out, signal);
  return out.take();
}

RunRecord deserialize(const std::vector<char>& bytes) {
  Reader in(bytes);
  RunRecord record;
  in.get(record.index);
  std::uint64_t count = 0;
  in.get(count);
  if (count > bytes.size()) throw std::runtime_error("a run record is cut short");
  record.parameters.resize(count);
  for (auto& [name, value] : record.parameters) {
    in.get(name);
    in.get(value);
  }
  bool warm = false;
  double until = 0;
  in.fields(warm, until);
  if (warm) record.warm_start_until = until;
  outcome_fields(in, record);
  in.get(count);
  if (count > bytes.size()) throw std::runtime_error("a run record is cut short");
  record.signals.resize(count);
  for (SignalData& signal : record.signals) signal_fields(in, signal);
  if (!in.done()) throw std::runtime_error("a run record has trailing bytes");
  return record;
}

}  // namespace ctde::results
