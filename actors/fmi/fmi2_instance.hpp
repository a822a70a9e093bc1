#pragma once
/// One instance of an FMI 2.0 FMU (an fmi2Component) with its callbacks:
/// the FMU's logger goes to ctde's log and is kept for error messages, and
/// every call's status is checked in one place.

#include <memory>
#include <string>

#include "fmi2_library.hpp"

namespace ctde {

/// Not copyable, not movable (the FMU holds a pointer to it as its environment).
class Fmi2Instance {
 public:
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

  /// Checks a call's status: OK and Warning pass (true), Discard returns
  /// false, Error, Fatal and Pending throw a RunError naming the owner, the
  /// call and the last message the FMU logged.
  bool check(fmi2::Status status, const char* call);
  /// As check(), Discard being an error too.
  void require(fmi2::Status status, const char* call) {
    if (status == fmi2::Status::kOK) return;  // the hot path: no call
    if (!check(status, call)) fail(status, call);
  }
  /// Marks the instance initialized (fmi2Terminate becomes due at the end).
  void set_initialized() { initialized_ = true; }

  /// The last message the FMU logged (empty if none).
  [[nodiscard]] const std::string& last_message() const { return last_message_; }

 private:
  static void logger(fmi2::ComponentEnvironment env, fmi2::String instance_name, fmi2::Status status,
                     fmi2::String category, fmi2::String message, ...);
  [[noreturn]] void fail(fmi2::Status status, const char* call);

  std::shared_ptr<Fmi2Library> library_;
  fmi2::CallbackFunctions callbacks_{};
  fmi2::Component component_ = nullptr;
  std::string owner_;
  std::string last_message_;
  bool initialized_ = false;
  bool broken_ = false;  ///< an Error or Fatal status: no fmi2Terminate
  bool fatal_ = false;   ///< a Fatal status: no call at all
  bool counted_ = false;
};

/// "fmi2Error" for a status (messages).
[[nodiscard]] const char* to_string(fmi2::Status status);

}  // namespace ctde
