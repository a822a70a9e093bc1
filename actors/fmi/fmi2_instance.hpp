#pragma once
/// One instance of an FMI 2.0 FMU (an fmi2Component) with its callbacks:
/// the FMU's logger goes to ctde's log and is kept for error messages and
/// for the trace (take_log), and every call's status is checked in one place.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fmi2_library.hpp"
#include "fmi_rules.hpp"

namespace ctde {

/// Not copyable, not movable (the FMU holds a pointer to it as its environment).
class Fmi2Instance {
 public:
  /// One message the FMU logged.
  struct LogEntry {
    fmi2::Status status = fmi2::Status::kOK;
    std::string category;
    std::string message;
  };
  /// The most messages kept between two take_log() calls; more are counted.
  static constexpr std::size_t kMaxKept = 100;

  /// Calls fmi2Instantiate.
  /// @param owner "actor 'ball' (FMU)" — the prefix of messages.
  /// @throws RunError when the FMU refuses (a GUID it does not know, a
  ///         second instance of an FMU that allows one per process), with
  ///         what it logged.
  Fmi2Instance(std::shared_ptr<Fmi2Library> library, const std::string& instance_name, fmi2::Type type,
               const std::string& guid, const std::string& resource_uri, bool once_per_process,
               std::string owner);
  /// fmi2Terminate when initialized and no error occurred, then fmi2FreeInstance.
  ~Fmi2Instance();
  Fmi2Instance(const Fmi2Instance&) = delete;
  Fmi2Instance& operator=(const Fmi2Instance&) = delete;
  Fmi2Instance(Fmi2Instance&&) = delete;
  Fmi2Instance& operator=(Fmi2Instance&&) = delete;

  [[nodiscard]] fmi2::Component component() const { return component_; }
  [[nodiscard]] const Fmi2Functions& f() const { return library_->functions(); }
  [[nodiscard]] const Fmi2Library& library() const { return *library_; }

  /// Makes the FMI call `make` (a callable returning its status) as
  /// function `call`: checks first that the instance's mode allows it
  /// (fmi_rules.hpp; std::logic_error, a bug in ctde, when not), then the
  /// status as require(); after it the instance is in the call's next mode.
  /// `name`: the FMI 2.0 name for messages when it is not the call's own
  /// ("fmi2SetInteger" for kSetVariables).
  template <class Make>
  void call(FmiCall call, Make make, const char* name = nullptr) {
    expect(call);
    const fmi2::Status status = make();
    if (status != fmi2::Status::kOK) require(status, name != nullptr ? name : fmi2_name(call));
    if (((moving_ >> static_cast<unsigned>(call)) & 1U) != 0) mode_ = next_mode(call, mode_, kind_);
  }
  /// Throws std::logic_error when the instance's mode does not allow `call`.
  void expect(FmiCall call) const {
    if (((allowed_[static_cast<std::size_t>(mode_)] >> static_cast<unsigned>(call)) & 1U) == 0) refuse(call);
  }
  /// The mode the instance is in (fmi_rules.hpp).
  [[nodiscard]] FmiMode mode() const { return mode_; }
  /// True after a Fatal (or Pending) status: no further call may be made.
  [[nodiscard]] bool fatal() const { return fatal_; }
  [[nodiscard]] FmiKind kind() const { return kind_; }

  /// Checks a call's status: OK and Warning pass (true), Discard returns
  /// false, Error, Fatal and Pending throw a RunError naming the owner, the
  /// call and the last message the FMU logged. `call` is the FMI 2.0 name;
  /// the message names the FMI 3.0 function and status for an FMI 3.0 FMU.
  bool check(fmi2::Status status, const char* call);
  /// As check(), Discard being an error too.
  void require(fmi2::Status status, const char* call) {
    if (status == fmi2::Status::kOK) return;  // the hot path: no call
    if (!check(status, call)) fail(status, call);
  }

  /// The name of FMI 2.0 function `fmi2_call` in this FMU's version (messages).
  [[nodiscard]] const char* call_name(const char* fmi2_call) const;
  /// The name of `status` in this FMU's version ("fmi3Discard").
  [[nodiscard]] const char* status_name(fmi2::Status status) const;

  /// The last message the FMU logged (empty if none).
  [[nodiscard]] const std::string& last_message() const { return last_message_; }
  /// True when messages were logged since the last take_log().
  [[nodiscard]] bool has_log() const { return !log_.empty() || dropped_ > 0; }
  /// The messages logged since the last call (at most kMaxKept), and how
  /// many more were logged and not kept; then forgets them.
  [[nodiscard]] std::vector<LogEntry> take_log(std::size_t& dropped);

  /// What the instance keeps of the log between two take_log() calls, as a
  /// snapshot saves it (docs/fmi.md, "Snapshots"). Copyable value type.
  struct KeptLog {
    std::vector<LogEntry> entries;
    std::size_t dropped = 0;
    std::string last_message;
  };
  /// The messages not yet taken, the count dropped, the last message.
  [[nodiscard]] KeptLog kept_log() const { return {log_, dropped_, last_message_}; }
  /// Replaces them (a restored run: what the saved instance had kept, in
  /// place of what the restoring calls logged).
  void set_kept_log(KeptLog kept) {
    log_ = std::move(kept.entries);
    dropped_ = kept.dropped;
    last_message_ = std::move(kept.last_message);
  }

 private:
  static void logger(fmi2::ComponentEnvironment env, fmi2::String instance_name, fmi2::Status status,
                     fmi2::String category, fmi2::String message, ...);
  [[noreturn]] void fail(fmi2::Status status, const char* call);
  [[noreturn]] void refuse(FmiCall call) const;

  std::shared_ptr<Fmi2Library> library_;
  fmi2::CallbackFunctions callbacks_{};
  fmi2::Component component_ = nullptr;
  std::string owner_;
  std::string last_message_;
  std::vector<LogEntry> log_;  ///< messages not yet taken
  std::size_t dropped_ = 0;    ///< messages not kept since the last take_log()
  FmiKind kind_;
  FmiMode mode_ = FmiMode::kInstantiated;
  /// Per mode, the calls allowed() allows for kind_: one bit per FmiCall (checked on every call).
  std::array<std::uint32_t, kFmiModes> allowed_{};
  /// The calls that lead to another mode (next_mode()), one bit each, from the same table.
  std::uint32_t moving_ = 0;
  bool fatal_ = false;  ///< a Fatal status: no call at all
  bool counted_ = false;
  fmi2::Type type_ = fmi2::Type::kModelExchange;
};

/// "fmi2Error" for a status (messages); "fmi3Error" when `fmi3_names`.
[[nodiscard]] const char* to_string(fmi2::Status status, bool fmi3_names = false);

}  // namespace ctde
