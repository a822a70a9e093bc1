#include "fmu_partials.h"

#include "fmu_rules.h"

#define REAL_TYPES (FMU_TYPE(FMU_REAL) | FMU_TYPE(FMU_FLOAT64))

int fmu_directional(Instance* m, const char* fn, const unsigned int unknowns[], size_t n_unknowns,
                    const unsigned int knowns[], size_t n_knowns, const double seed[], double sensitivity[]) {
  const int cs = m->type == 1; /* fmi2CoSimulation */
  if (!m->desc->provides_directional[cs]) {
    return fmu_fail(m, fn, "modelDescription.xml does not declare %s for this interface",
                    m->desc->fmi3 ? "providesDirectionalDerivatives" : "providesDirectionalDerivative");
  }
  if ((n_unknowns > 0 && (unknowns == NULL || sensitivity == NULL)) ||
      (n_knowns > 0 && (knowns == NULL || seed == NULL))) {
    return fmu_fail(m, fn, "a NULL array");
  }
  if (model_partial == NULL) return fmu_fail(m, fn, "this model has no partial derivatives");
  for (size_t i = 0; i < n_unknowns; ++i) {
    const FmuVar* v = fmu_variable(m, unknowns[i], REAL_TYPES);
    if (v == NULL) return fmu_fail(m, fn, "unknown %u is no Real variable", unknowns[i]);
    if (v->derivative < 0 && v->causality != FMU_OUTPUT) {
      return fmu_fail(m, fn, "unknown %u ('%s') is neither a state derivative nor an output", unknowns[i],
                      v->name);
    }
  }
  for (size_t k = 0; k < n_knowns; ++k) {
    const FmuVar* v = fmu_variable(m, knowns[k], REAL_TYPES);
    if (v == NULL) return fmu_fail(m, fn, "known %u is no Real variable", knowns[k]);
    if (!v->is_state && v->causality != FMU_INPUT) {
      return fmu_fail(m, fn, "known %u ('%s') is neither a state nor an input", knowns[k], v->name);
    }
  }
  for (size_t i = 0; i < n_unknowns; ++i) {
    double sum = 0;
    for (size_t k = 0; k < n_knowns; ++k) sum += model_partial(m, unknowns[i], knowns[k]) * seed[k];
    sensitivity[i] = sum;
  }
  return 1;
}
