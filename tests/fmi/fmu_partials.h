/* Directional derivatives for the test FMUs' runtimes: the checks and the
 * product of fmi2GetDirectionalDerivative and fmi3GetDirectionalDerivative,
 * written from the standards (FMI 2.0 section 2.1.9, FMI 3.0 section
 * 2.2.11). The runtimes check the state first (from Initialization Mode to
 * Terminated). Refused, each with an error that puts the instance in its
 * error state:
 *   - a call when the description does not declare providesDirectionalDerivative
 *     (FMI 3: providesDirectionalDerivatives) for the instance's interface;
 *   - NULL arrays where values are expected;
 *   - an unknown that is no Real (Float64) variable, or is neither a state
 *     derivative nor an output; a known that is neither a state nor an input
 *     (the Model Exchange use: a Jacobian's columns);
 *   - a model without model_partial (fmu_runtime.h).
 * sensitivity[i] = sum over k of model_partial(unknowns[i], knowns[k]) * seed[k]. */
#ifndef CTDE_TEST_FMU_PARTIALS_H
#define CTDE_TEST_FMU_PARTIALS_H

#include <stddef.h>

#include "fmu_runtime.h"

/* 1 with the sensitivities written; 0 after fmu_fail (the call returns fmi2Error / fmi3Error). */
int fmu_directional(Instance* m, const char* fn, const unsigned int unknowns[], size_t n_unknowns,
                    const unsigned int knowns[], size_t n_knowns, const double seed[], double sensitivity[]);

#endif
