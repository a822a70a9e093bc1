#pragma once
/// A model: a top-level network, its parameters, director options and the
/// signals to record.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "composite.hpp"
#include "param.hpp"

namespace ctde {

/// A model's declared input (docs/model-format.md, "The model's
/// interface"): the `Input` actor of that name, whose output drives the
/// input ports the file listed.
struct ModelInput {
  std::string name;
  SourceLocation location;
};

/// A model's declared output: the output port `from` ("actor.port") under a name of its own.
struct ModelOutput {
  std::string name;
  std::string from;
  SourceLocation location;
};

/// What a model shows of itself to a program that embeds it (an FMU's
/// importer, linearization's defaults): its inputs and outputs, and the
/// model parameters that may change between steps.
struct ModelInterface {
  std::vector<ModelInput> inputs;
  std::vector<ModelOutput> outputs;
  std::vector<std::string> tunable;  ///< model parameters' names
  /// The unit of a model parameter, input or output, by its name ("m/s");
  /// what an FMU of the model declares (docs/model-format.md).
  std::map<std::string, std::string> units;
};

/// A whole model, as written (in C++ or loaded from a file). Not copyable; movable.
class Model {
 public:
  explicit Model(std::string name = "model");
  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
  ~Model();

  [[nodiscard]] const std::string& name() const { return name_; }
  /// The model file this came from, or empty.
  [[nodiscard]] const std::string& file() const { return file_; }
  void set_file(std::string file) { file_ = std::move(file); }

  [[nodiscard]] Composite& top() { return *top_; }
  [[nodiscard]] const Composite& top() const { return *top_; }
  [[nodiscard]] ParameterScope& parameters() { return parameters_; }
  [[nodiscard]] const ParameterScope& parameters() const { return parameters_; }

  /// Director options as written (`stop_time`, `rtol`...), evaluated by the director.
  [[nodiscard]] std::map<std::string, ParamValue>& director() { return director_; }
  [[nodiscard]] const std::map<std::string, ParamValue>& director() const { return director_; }

  /// Output endpoints to record (`h.out`).
  [[nodiscard]] std::vector<std::string>& record() { return record_; }
  [[nodiscard]] const std::vector<std::string>& record() const { return record_; }

  /// The declared inputs, outputs and tunable parameters.
  [[nodiscard]] ModelInterface& interface() { return interface_; }
  [[nodiscard]] const ModelInterface& interface() const { return interface_; }

  /// Shorthands for top().add / top().connect.
  template <class T, class... Args>
  T& add(std::string name, Args&&... args) {
    return top_->add<T>(std::move(name), std::forward<Args>(args)...);
  }
  void connect(std::string from, std::string to) { top_->connect(std::move(from), std::move(to)); }

 private:
  std::string name_;
  std::string file_;
  std::unique_ptr<Composite> top_;
  ParameterScope parameters_;
  std::map<std::string, ParamValue> director_;
  std::vector<std::string> record_;
  ModelInterface interface_;
};

}  // namespace ctde
