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
  RunSetup setup{validate(model), {}, {}};
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
  try {
    // The director's own checks, without running: what the run would refuse.
    const Director probe(setup.flat, setup.options, model.name());
  } catch (const OptionError& e) {
    throw located(e);
  }
  return setup;
}

}  // namespace ctde
