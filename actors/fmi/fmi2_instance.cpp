#include "actors/fmi/fmi2_instance.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "actors/fmi/fmi3_adapter.hpp"
#include "core/error.hpp"
#include "core/log.hpp"

namespace ctde {

const char* to_string(fmi2::Status status, bool fmi3_names) {
  switch (status) {
    case fmi2::Status::kOK:
      return fmi3_names ? "fmi3OK" : "fmi2OK";
    case fmi2::Status::kWarning:
      return fmi3_names ? "fmi3Warning" : "fmi2Warning";
    case fmi2::Status::kDiscard:
      return fmi3_names ? "fmi3Discard" : "fmi2Discard";
    case fmi2::Status::kError:
      return fmi3_names ? "fmi3Error" : "fmi2Error";
    case fmi2::Status::kFatal:
      return fmi3_names ? "fmi3Fatal" : "fmi2Fatal";
    case fmi2::Status::kPending:
      return fmi3_names ? "an unknown status (5)" : "fmi2Pending";  // FMI 3.0 has no pending status
  }
  return "an unknown status";
}

const char* Fmi2Instance::call_name(const char* fmi2_call) const {
  return library_->fmi3() ? fmi3_call_name(fmi2_call, type_) : fmi2_call;
}

const char* Fmi2Instance::status_name(fmi2::Status status) const {
  return to_string(status, library_->fmi3());
}

void Fmi2Instance::logger(fmi2::ComponentEnvironment env, fmi2::String instance_name, fmi2::Status status,
                          fmi2::String category, fmi2::String message, ...) {
  auto* self = static_cast<Fmi2Instance*>(env);
  std::vector<char> text(1, '\0');
  if (message != nullptr) {
    std::va_list args;
    va_start(args, message);
    std::va_list copy;
    va_copy(copy, args);
    const int size = std::vsnprintf(nullptr, 0, message, copy);
    va_end(copy);
    text.assign(static_cast<std::size_t>(size < 0 ? 0 : size) + 1, '\0');
    if (size > 0) std::vsnprintf(text.data(), text.size(), message, args);
    va_end(args);
  }
  const std::string line = std::string(instance_name == nullptr ? "" : instance_name) + " [" +
                           (category == nullptr ? "" : category) + "] " + text.data();
  if (self != nullptr) {
    self->last_message_ = text.data();
    if (self->log_.size() < kMaxKept) {
      self->log_.push_back({status, category == nullptr ? "" : category, text.data()});
    } else {
      ++self->dropped_;
    }
  }
  const std::string prefix = self != nullptr ? self->owner_ + ": FMU log: " : std::string("FMU log: ");
  // A discard is usually recovered from (the solver steps shorter): info, not a warning.
  if (status == fmi2::Status::kOK || status == fmi2::Status::kDiscard) {
    log::info(prefix + line);
  } else if (status == fmi2::Status::kWarning) {
    log::warn(prefix + line);
  } else {
    log::error(prefix + line);
  }
}

Fmi2Instance::Fmi2Instance(std::shared_ptr<Fmi2Library> library, const std::string& instance_name,
                           fmi2::Type type, const std::string& guid, const std::string& resource_uri,
                           bool once_per_process, std::string owner)
    : library_(std::move(library)),
      owner_(std::move(owner)),
      kind_{library_->fmi3(), type == fmi2::Type::kModelExchange},
      type_(type) {
  if (once_per_process && library_->live_instances().load() > 0) {
    throw RunError(owner_ + ": the FMU can be instantiated only once per process and already is");
  }
  for (std::size_t mode = 0; mode < allowed_.size(); ++mode) {
    for (unsigned call = 0; call < kFmiCalls; ++call) {
      if (allowed(static_cast<FmiCall>(call), static_cast<FmiMode>(mode), kind_))
        allowed_[mode] |= 1U << call;
      if (next_mode(static_cast<FmiCall>(call), static_cast<FmiMode>(mode), kind_) !=
          static_cast<FmiMode>(mode))
        moving_ |= 1U << call;
    }
  }
  callbacks_.logger = &Fmi2Instance::logger;
  callbacks_.allocate_memory = [](std::size_t count, std::size_t size) -> void* {
    return std::calloc(count, size);
  };
  callbacks_.free_memory = [](void* object) { std::free(object); };
  callbacks_.step_finished = nullptr;
  callbacks_.component_environment = this;
  component_ = library_->instantiate(instance_name, type, guid, resource_uri, &callbacks_);
  if (component_ == nullptr) {
    throw RunError(owner_ + ": " + call_name("fmi2Instantiate") + " failed" +
                   (last_message_.empty() ? std::string() : ": " + last_message_));
  }
  ++library_->live_instances();
  counted_ = true;
}

Fmi2Instance::~Fmi2Instance() {
  if (component_ != nullptr && !fatal_) {
    // Terminate where the mode allows it: not after an error, not before initialization.
    if (allowed(FmiCall::kTerminate, mode_, kind_) && mode_ != FmiMode::kInstantiated)
      (void)f().terminate(component_);
    f().free_instance(component_);
  }
  if (counted_) --library_->live_instances();
}

std::vector<Fmi2Instance::LogEntry> Fmi2Instance::take_log(std::size_t& dropped) {
  dropped = dropped_;
  dropped_ = 0;
  std::vector<LogEntry> taken;
  taken.swap(log_);
  return taken;
}

bool Fmi2Instance::check(fmi2::Status status, const char* call) {
  switch (status) {
    case fmi2::Status::kOK:
    case fmi2::Status::kWarning:
      return true;
    case fmi2::Status::kDiscard:
      return false;
    default:
      fail(status, call);
  }
}

void Fmi2Instance::fail(fmi2::Status status, const char* call) {
  if (status == fmi2::Status::kError || status == fmi2::Status::kFatal) mode_ = FmiMode::kError;
  if (status == fmi2::Status::kFatal || status == fmi2::Status::kPending) fatal_ = true;
  throw RunError(owner_ + ": " + call_name(call) + " returned " + status_name(status) +
                 (last_message_.empty() ? std::string() : ": " + last_message_));
}

void Fmi2Instance::refuse(FmiCall call) const {
  throw std::logic_error(owner_ + ": ctde called " + call_name(fmi2_name(call)) + " in " + to_string(mode_) +
                         ", which FMI " + (kind_.fmi3 ? "3.0" : "2.0") +
                         " does not allow (a bug in ctde: docs/fmi.md, \"Call sequence\")");
}

}  // namespace ctde
