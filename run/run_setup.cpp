#include "run/run_setup.hpp"

#include "core/model_graph.hpp"

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"

namespace ctde {

namespace {

/// Every output of every actor, in the flat model's order.
std::vector<std::string> all_outputs(const FlatModel& flat) {
  std::vector<std::string> out;
  for (const auto& actor : flat.actors) {
    for (const auto& port : actor.actor->outputs()) out.push_back(actor.path + "." + port.name);
  }
  return out;
}

/// The model's declared inputs and outputs resolved against its flat model.
/// @throws ModelError located where an output was declared, for a port that is not there.
void resolve_interface(const Model& model, RunSetup& setup) {
  for (const ModelInput& input : model.interface().inputs) {
    setup.inputs.push_back({input.name, resolve_record(setup.flat, {input.name + ".out"}).front()});
  }
  for (const ModelOutput& output : model.interface().outputs) {
    try {
      setup.outputs.push_back({output.name, resolve_record(setup.flat, {output.from}).front()});
    } catch (const ModelError& e) {
      throw ModelError("output '" + output.name + "': " + e.message()).located(output.location);
    }
  }
}

}  // namespace

ParameterOverrides parse_overrides(const std::vector<std::string>& texts) {
  ParameterOverrides overrides;
  for (const auto& text : texts) {
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw ModelError("--set expects NAME=VALUE, got '" + text + "'");
    }
    overrides.emplace_back(text.substr(0, equals), text.substr(equals + 1));
  }
  return overrides;
}

RowSelection parse_rows(const std::string& text) {
  const std::optional<RowSelection> rows = parse_row_selection(text);
  if (!rows) throw ModelError(concat({"--rows ", text, ": expects all, output, events or final"}));
  return *rows;
}

void check_rows(RowSelection rows, const RunOptions& options, const std::string& file) {
  if (rows == RowSelection::kOutput && !options.output_interval) {
    throw ModelError(
        "--rows output: the model sets no output_interval (set it in \"director\", or choose all, "
        "events or final)")
        .located(file);
  }
}

std::vector<std::string> parse_record(const std::string& text, const std::string& option) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (name.empty())
      throw ModelError(option + " " + text + ": expects actor.port names separated by commas");
    names.push_back(std::move(name));
    if (comma == std::string::npos) return names;
    start = comma + 1;
  }
}

RunSetup set_up_run(Model& model, std::optional<double> stop_time,
                    const std::optional<std::vector<std::string>>& record) {
  if (stop_time) model.director().insert_or_assign("stop_time", ParamValue(*stop_time));
  RunSetup setup{validate(model), {}, {}, {}, {}};
  // An option's error names where it was written: the file, or --stop-time.
  const auto located = [&](const OptionError& e) {
    if (stop_time && e.key() == "stop_time") {
      return ModelError(e.message()).located("--stop-time " + format_double(*stop_time));
    }
    return e.in_file(model.file());
  };
  try {
    setup.options = make_run_options(model.director(), model.parameters());
  } catch (const OptionError& e) {
    throw located(e);
  }
  if (setup.options.algebraic_loops == AlgebraicLoops::kError && !setup.flat.algebraic_loops.empty())
    throw_algebraic_loop(setup.flat, setup.flat.algebraic_loops.front());
  try {
    if (record) {
      setup.signals = resolve_record(setup.flat, *record);
    } else {
      setup.signals =
          resolve_record(setup.flat, model.record().empty() ? all_outputs(setup.flat) : model.record());
    }
  } catch (const ModelError& e) {
    if (!record) throw e.located(model.file() + " at /record");
    std::string given;
    for (const std::string& name : *record) {
      if (!given.empty()) given += ',';
      given += name;
    }
    throw e.located("--record " + given);
  }
  resolve_interface(model, setup);
  try {
    // The director's own checks, without running: what the run would refuse.
    const Director probe(setup.flat, setup.options, model.name());
  } catch (const OptionError& e) {
    throw located(e);
  }
  return setup;
}

namespace {

/// The default outputs of a linearization: the model's recorded continuous outputs.
std::vector<std::string> recorded_outputs(const RunSetup& setup) {
  std::vector<std::string> names;
  for (const RecordedSignal& s : setup.signals) {
    const FlatActor& actor = setup.flat[s.actor];
    if (actor.output_kinds[s.port] == PortKind::kDiscrete) continue;
    names.push_back(actor.path + "." + actor.actor->outputs()[s.port].name);
  }
  return names;
}

/// The ports a linearization perturbs for the model's declared inputs: for
/// each, one input port its Input actor drives (the perturbation moves the
/// actor's output, which every port it drives reads).
std::vector<std::string> declared_input_ports(const RunSetup& setup) {
  std::vector<std::string> ports;
  for (const InterfacePort& input : setup.inputs) {
    const std::span<const PortRef> driven = setup.flat[input.port.actor].receivers[input.port.port];
    if (driven.empty()) continue;
    const FlatActor& reader = setup.flat[driven.front().actor];
    ports.push_back(reader.path + "." + reader.actor->inputs()[driven.front().port].name);
  }
  return ports;
}

/// `names` ("sum.in0", "sum.in0[2]") renamed to the declared names of
/// `declared` ("u", "u[2]"), port by port, element by element.
void rename(std::vector<std::string>& names, const std::vector<std::string>& ports,
            const std::vector<InterfacePort>& declared) {
  std::size_t at = 0;
  for (std::size_t k = 0; k < ports.size() && k < declared.size(); ++k) {
    for (std::uint32_t i = 0; i < declared[k].port.width && at < names.size(); ++i, ++at) {
      names[at] = declared[k].port.width == 1 ? declared[k].name
                                              : concat({declared[k].name, "[", std::to_string(i), "]"});
    }
  }
}

}  // namespace

Director::Linearization linearize_model(Model& model, std::optional<double> at,
                                        std::optional<RunSnapshot> resume, bool parameters_may_differ,
                                        const std::optional<std::vector<std::string>>& inputs,
                                        const std::optional<std::vector<std::string>>& outputs) {
  RunSetup start = set_up_run(model, std::nullopt);
  const double from = resume ? resume->time : start.options.start_time;
  const bool runs = at && *at != from;
  const RunSetup setup = runs ? set_up_run(model, at) : std::move(start);
  Director director(setup.flat, setup.options, model.name());
  if (resume) director.resume_from(std::move(*resume), parameters_may_differ);
  if (runs) {
    const RunResult result = director.run();
    if (result.status != RunStatus::kOk) {
      throw std::runtime_error(
          "the run to t = " + format_double(*at) + " s did not get there: " +
          (result.message.empty() ? std::string(to_string(result.status)) : result.message));
    }
  }
  // Without a choice, the model's declared inputs and outputs, by their names;
  // without declared outputs, its recorded continuous ones.
  const std::vector<std::string> input_ports = inputs ? *inputs : declared_input_ports(setup);
  std::vector<std::string> output_ports;
  if (outputs) {
    output_ports = *outputs;
  } else if (!setup.outputs.empty()) {
    for (const InterfacePort& output : setup.outputs) output_ports.push_back(output.port.name);
  } else {
    output_ports = recorded_outputs(setup);
  }
  Director::Linearization lin = director.linearize(input_ports, output_ports);
  if (!inputs) rename(lin.inputs, input_ports, setup.inputs);
  if (!outputs && !setup.outputs.empty()) rename(lin.outputs, output_ports, setup.outputs);
  return lin;
}

}  // namespace ctde
