// FMU::jacobian_values: the Jacobian's values of a Model Exchange FMU from
// its directional derivatives (docs/fmi.md, "Jacobians").
#include <map>
#include <utility>

#include "actors/fmi/fmi2_instance.hpp"
#include "actors/fmi/fmu.hpp"
#include "actors/fmi/fmu_run_state.hpp"
#include "core/actor_context.hpp"
#include "core/local_jacobian.hpp"

namespace ctde {

void FMU::plan_partials(std::span<const LocalJacobian::Entry> entries, RunState& run) const {
  // The value reference of each output and input port (scalar variables: one element each).
  std::map<std::size_t, unsigned int> output_ref;
  for (const FmuOutput& out : md_.outputs) {
    if (const auto o = find_output(fmu_port_name(md_.variables[out.variable].name)))
      output_ref[*o] = md_.variables[out.variable].value_reference;
  }
  std::map<std::size_t, unsigned int> input_ref;
  for (const FmuVariable& v : md_.variables) {
    if (v.causality != Causality::kInput) continue;
    if (const auto k = find_input(fmu_port_name(v.name))) input_ref[*k] = v.value_reference;
  }
  const auto row_ref = [&](const LocalJacobian::Element& row) {
    return row.kind == LocalJacobian::Kind::kDerivative
               ? md_.variables[md_.derivatives[row.index]].value_reference
               : output_ref.at(row.port);
  };
  const auto column_ref = [&](const LocalJacobian::Element& column) {
    return column.kind == LocalJacobian::Kind::kState
               ? md_.variables[md_.states[column.index]].value_reference
               : input_ref.at(column.port);
  };
  std::map<unsigned int, std::vector<std::pair<unsigned int, std::size_t>>> by_known;
  for (std::size_t e = 0; e < entries.size(); ++e)
    by_known[column_ref(entries[e].column)].emplace_back(row_ref(entries[e].row), e);
  RunState::Partials& p = run.partials;
  p = {};
  std::size_t widest = 0;
  for (const auto& [known, unknowns] : by_known) {
    p.columns.push_back({known, p.unknowns.size(), unknowns.size()});
    for (const auto& [unknown, place] : unknowns) {
      p.unknowns.push_back(unknown);
      p.places.push_back(place);
    }
    widest = std::max(widest, unknowns.size());
  }
  p.sensitivity.assign(widest, 0.0);
  p.made = true;
}

void FMU::jacobian_values(const ReadContext& context, std::span<const LocalJacobian::Entry> entries,
                          std::span<double> values) const {
  auto& run = context.state<RunState>();
  if (!run.partials.made) plan_partials(entries, run);
  set_continuous(context, run, context.time());
  Fmi2Instance& fmu = *run.fmu;
  RunState::Partials& p = run.partials;
  const double seed = 1.0;
  for (const RunState::Partials::Column& c : p.columns) {
    fmu.call(FmiCall::kGetDirectionalDerivative, [&] {
      return fmu.f().get_directional_derivative(fmu.component(), p.unknowns.data() + c.first, c.count,
                                                &c.known, 1, &seed, p.sensitivity.data());
    });
    for (std::size_t m = 0; m < c.count; ++m) values[p.places[c.first + m]] = p.sensitivity[m];
  }
}

}  // namespace ctde
