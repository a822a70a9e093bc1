#include "results/hdf5_file.hpp"

#include <hdf5.h>

#include <array>
#include <cstring>
#include <type_traits>

#include "results/write_error.hpp"

namespace ctde::results {

static_assert(std::is_same_v<hid_t, std::int64_t>, "Hdf5File keeps a hid_t as std::int64_t");

namespace {

/// An HDF5 identifier closed by `Close` when it goes out of scope. Movable, not copyable.
template <herr_t (*Close)(hid_t)>
class Handle {
 public:
  explicit Handle(hid_t id) : id_(id) {}
  ~Handle() {
    if (id_ >= 0) Close(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept : id_(other.id_) { other.id_ = -1; }
  Handle& operator=(Handle&&) = delete;
  [[nodiscard]] hid_t get() const { return id_; }
  [[nodiscard]] bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
};

using Group = Handle<H5Gclose>;
using Space = Handle<H5Sclose>;
using Dataset = Handle<H5Dclose>;
using Attribute = Handle<H5Aclose>;
using Type = Handle<H5Tclose>;
using Plist = Handle<H5Pclose>;

/// Variable-length UTF-8 strings.
Type text_type() {
  Type type(H5Tcopy(H5T_C_S1));
  H5Tset_size(type.get(), H5T_VARIABLE);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  return type;
}

constexpr std::array<std::string_view, 15> kReserved{
    "index",     "status",    "message",     "steps",           "rejected_steps",
    "rhs_evals", "events",    "time_events", "state_events",    "end_time",
    "wall_time", "microstep", "loop_solves", "loop_iterations", "warm_start_until"};

/// Group (or file: the root group) creation properties that keep the order
/// in which links are created: a run's datasets are read back in the order
/// of `record`, as the CSV's columns are (h5py's iteration, the plot script).
Plist creation_order(hid_t list_class) {
  Plist list(H5Pcreate(list_class));
  H5Pset_link_creation_order(list.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
  return list;
}

}  // namespace

SummaryRow summary_row(const RunRecord& record) {
  SummaryRow row;
  row.index = record.index;
  for (const auto& parameter : record.parameters) row.values.push_back(parameter.second);
  row.status = record.status;
  row.message = record.message;
  row.steps = record.stats.steps;
  row.events = record.stats.events;
  row.wall_time = record.wall_time;
  return row;
}

bool is_reserved_name(std::string_view name) {
  for (const std::string_view reserved : kReserved) {
    if (name == reserved) return true;
  }
  return name == "time";
}

Hdf5File::Hdf5File(std::string path) : path_(std::move(path)) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);         // errors are reported by what they fail, not printed
  const Plist root = creation_order(H5P_FILE_CREATE);  // the root is a single run's group
  file_ = H5Fcreate(path_.c_str(), H5F_ACC_TRUNC, root.get(), H5P_DEFAULT);
  if (file_ < 0) fail("cannot create the file");
}

Hdf5File::~Hdf5File() {
  if (file_ >= 0) H5Fclose(file_);
}

void Hdf5File::fail(const std::string& what) const {
  throw WriteError("cannot write the HDF5 file '" + path_ + "': " + what);
}

namespace {

/// Writes a scalar attribute of type `file_type` from `value` (memory type `memory_type`).
bool put_attribute(hid_t object, const std::string& name, hid_t type, const void* value) {
  const Space space(H5Screate(H5S_SCALAR));
  const Attribute attribute(H5Acreate2(object, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT));
  return attribute.ok() && H5Awrite(attribute.get(), type, value) >= 0;
}

bool put_text(hid_t object, const std::string& name, const std::string& text) {
  const Type type = text_type();
  const char* data = text.c_str();
  return put_attribute(object, name, type.get(), static_cast<const void*>(&data));
}

bool put_double(hid_t object, const std::string& name, double value) {
  return put_attribute(object, name, H5T_NATIVE_DOUBLE, &value);
}

bool put_count(hid_t object, const std::string& name, std::uint64_t value) {
  return put_attribute(object, name, H5T_NATIVE_UINT64, &value);
}

/// A dataset of `dims` elements of `type` from `data` (row-major).
bool put_dataset(hid_t group, const std::string& name, hid_t type, const std::vector<hsize_t>& dims,
                 const void* data) {
  const Space space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr));
  const Dataset dataset(
      H5Dcreate2(group, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (!dataset.ok()) return false;
  hsize_t count = 1;
  for (const hsize_t d : dims) count *= d;
  return count == 0 || H5Dwrite(dataset.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0;
}

/// Creates the run group `name`, its links kept in creation order, and the
/// groups above it that do not exist yet (HDF5's default: by name, so a
/// sweep's /runs lists its runs in no order a writer chose).
hid_t create_group(hid_t file, const std::string& name) {
  for (std::size_t slash = name.find('/', 1); slash != std::string::npos; slash = name.find('/', slash + 1)) {
    const std::string parent = name.substr(0, slash);
    if (H5Lexists(file, parent.c_str(), H5P_DEFAULT) > 0) continue;
    const Group created(H5Gcreate2(file, parent.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    if (!created.ok()) return -1;
  }
  const Plist order = creation_order(H5P_GROUP_CREATE);
  return H5Gcreate2(file, name.c_str(), H5P_DEFAULT, order.get(), H5P_DEFAULT);
}

}  // namespace

void Hdf5File::set_text(const std::string& name, const std::string& text) {
  if (!put_text(file_, name, text)) fail("the root attribute '" + name + "'");
}

void Hdf5File::write_run(const std::string& group_name, const RunRecord& record) {
  const Group group(group_name == "/" ? H5Gopen2(file_, "/", H5P_DEFAULT) : create_group(file_, group_name));
  if (!group.ok()) fail("the group '" + group_name + "'");
  const hid_t g = group.get();
  const std::string where = group_name == "/" ? "/" : group_name + "/";
  const auto rows = static_cast<hsize_t>(record.time.size());
  if (!put_dataset(g, "time", H5T_NATIVE_DOUBLE, {rows}, record.time.data()))
    fail("the dataset " + where + "time");
  if (!put_dataset(g, "microstep", H5T_NATIVE_UINT32, {rows}, record.microstep.data())) {
    fail("the dataset " + where + "microstep");
  }
  std::vector<double> row_major;
  for (const SignalData& signal : record.signals) {
    bool ok = false;
    if (signal.width == 1) {
      ok = put_dataset(g, signal.name, H5T_NATIVE_DOUBLE, {rows}, signal.values.data());
    } else {  // HDF5 is row-major: rows x width
      row_major.resize(signal.values.size());
      for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t e = 0; e < signal.width; ++e)
          row_major[r * signal.width + e] = signal.values[e * rows + r];
      }
      ok = put_dataset(g, signal.name, H5T_NATIVE_DOUBLE, {rows, signal.width}, row_major.data());
    }
    if (!ok) fail("the dataset " + where + signal.name);
  }
  bool ok = put_text(g, "status", record.status) && put_text(g, "message", record.message);
  for (const auto& [name, value] : record.parameters) ok = ok && put_double(g, name, value);
  for (const RunCounter& counter : kRunCounters)
    ok = ok && put_count(g, counter.name, record.stats.*counter.member);
  ok = ok && put_double(g, "end_time", record.end_time) && put_double(g, "wall_time", record.wall_time);
  if (record.warm_start_until) ok = ok && put_double(g, "warm_start_until", *record.warm_start_until);
  if (!ok) fail("the attributes of " + group_name);
}

void Hdf5File::write_summary(const std::vector<std::string>& parameters,
                             const std::vector<SummaryRow>& rows) {
  const Type text = text_type();
  const std::size_t doubles = parameters.size();
  // index, the parameters, status, message, steps, events, wall_time
  const std::size_t status_at = sizeof(std::uint64_t) + doubles * sizeof(double);
  const std::size_t message_at = status_at + sizeof(const char*);
  const std::size_t steps_at = message_at + sizeof(const char*);
  const std::size_t events_at = steps_at + sizeof(std::uint64_t);
  const std::size_t wall_at = events_at + sizeof(std::uint64_t);
  const std::size_t size = wall_at + sizeof(double);
  const Type type(H5Tcreate(H5T_COMPOUND, size));
  bool ok = type.ok() && H5Tinsert(type.get(), "index", 0, H5T_NATIVE_UINT64) >= 0;
  for (std::size_t i = 0; i < doubles; ++i) {
    ok = ok && H5Tinsert(type.get(), parameters[i].c_str(), sizeof(std::uint64_t) + i * sizeof(double),
                         H5T_NATIVE_DOUBLE) >= 0;
  }
  ok = ok && H5Tinsert(type.get(), "status", status_at, text.get()) >= 0 &&
       H5Tinsert(type.get(), "message", message_at, text.get()) >= 0 &&
       H5Tinsert(type.get(), "steps", steps_at, H5T_NATIVE_UINT64) >= 0 &&
       H5Tinsert(type.get(), "events", events_at, H5T_NATIVE_UINT64) >= 0 &&
       H5Tinsert(type.get(), "wall_time", wall_at, H5T_NATIVE_DOUBLE) >= 0;
  if (!ok) fail("the type of /summary");
  std::vector<char> buffer(rows.size() * size);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    char* at = buffer.data() + r * size;
    const SummaryRow& row = rows[r];
    std::memcpy(at, &row.index, sizeof row.index);
    for (std::size_t i = 0; i < doubles; ++i) {
      const double value = i < row.values.size() ? row.values[i] : 0.0;
      std::memcpy(at + sizeof(std::uint64_t) + i * sizeof(double), &value, sizeof value);
    }
    const char* status = row.status.c_str();
    const char* message = row.message.c_str();
    std::memcpy(at + status_at, static_cast<const void*>(&status), sizeof status);
    std::memcpy(at + message_at, static_cast<const void*>(&message), sizeof message);
    std::memcpy(at + steps_at, &row.steps, sizeof row.steps);
    std::memcpy(at + events_at, &row.events, sizeof row.events);
    std::memcpy(at + wall_at, &row.wall_time, sizeof row.wall_time);
  }
  if (!put_dataset(file_, "summary", type.get(), {static_cast<hsize_t>(rows.size())}, buffer.data())) {
    fail("the dataset /summary");
  }
}

void Hdf5File::close() {
  const hid_t file = file_;
  file_ = -1;
  if (file >= 0 && H5Fclose(file) < 0) fail("the file could not be closed (the final write failed)");
}

}  // namespace ctde::results
