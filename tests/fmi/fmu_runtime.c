/* A generic FMI 2.0 FMU (Model Exchange and Co-Simulation) around one model
 * of fmu_runtime.h. Co-Simulation integrates with explicit Euler substeps
 * and handles the model's time events inside doStep. Defining
 * FMU_OMIT_GET_DERIVATIVES leaves fmi2GetDerivatives out (a broken FMU). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmu_runtime.h"

#define EXPORT __attribute__((visibility("default")))
#ifndef FMU_VERSION_STRING
#define FMU_VERSION_STRING "2.0"
#endif

static void report(Instance* m, fmi2Status status, const char* category, const char* text) {
  if (m->cb.logger != NULL) m->cb.logger(m->cb.componentEnvironment, m->name, status, category, "%s", text);
}

void model_log(Instance* m, int status, const char* category, const char* text) {
  report(m, (fmi2Status)status, category, text);
}

EXPORT const char* fmi2GetTypesPlatform(void) { return "default"; }
EXPORT const char* fmi2GetVersion(void) { return FMU_VERSION_STRING; }

EXPORT fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid, fmi2String resources,
                                     const fmi2CallbackFunctions* cb, fmi2Boolean visible, fmi2Boolean logging) {
  (void)visible;
  (void)logging;
  if (strcmp(guid, FMU_GUID) != 0) {
    if (cb != NULL && cb->logger != NULL) {
      cb->logger(cb->componentEnvironment, name, fmi2Error, "error", "wrong GUID %s, expected %s", guid, FMU_GUID);
    }
    return NULL;
  }
  if (resources == NULL || strncmp(resources, "file://", 7) != 0) {
    if (cb != NULL && cb->logger != NULL) {
      cb->logger(cb->componentEnvironment, name, fmi2Error, "error", "resource location is not a file:// URI");
    }
    return NULL;
  }
  Instance* m = (Instance*)calloc(1, sizeof(Instance));
  m->cb = *cb;
  m->type = (int)type;
  snprintf(m->name, sizeof m->name, "%s", name);
  model_defaults(m);
  return m;
}

EXPORT void fmi2FreeInstance(fmi2Component c) { free(c); }
EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean on, size_t n, const fmi2String cats[]) {
  (void)c; (void)on; (void)n; (void)cats;
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tol_defined, fmi2Real tol, fmi2Real start,
                                      fmi2Boolean stop_defined, fmi2Real stop) {
  (void)tol_defined; (void)tol; (void)stop_defined; (void)stop;
  ((Instance*)c)->time = start;
  return fmi2OK;
}
EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c) { (void)c; return fmi2OK; }
EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  Instance* m = (Instance*)c;
  model_initialize(m);
  return fmi2OK;
}
EXPORT fmi2Status fmi2Terminate(fmi2Component c) { (void)c; return fmi2OK; }
EXPORT fmi2Status fmi2Reset(fmi2Component c) {
  model_defaults((Instance*)c);
  return fmi2OK;
}

static fmi2Status check_vr(Instance* m, const fmi2ValueReference vr[], size_t n) {
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] >= FMU_MAX_VARS) {
      report(m, fmi2Error, "error", "value reference out of range");
      return fmi2Error;
    }
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Real v[]) {
  Instance* m = (Instance*)c;
  if (check_vr(m, vr, n) != fmi2OK) return fmi2Error;
  fmi2Status s = model_compute(m);
  if (s != fmi2OK) {
    report(m, s, "discard", m->message);
    return s;
  }
  for (size_t k = 0; k < n; ++k) v[k] = m->r[vr[k]];
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Integer v[]) {
  Instance* m = (Instance*)c;
  if (check_vr(m, vr, n) != fmi2OK) return fmi2Error;
  (void)model_compute(m);
  for (size_t k = 0; k < n; ++k) v[k] = m->i[vr[k]];
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Boolean v[]) {
  return fmi2GetInteger(c, vr, n, v);
}
EXPORT fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2String v[]) {
  (void)c; (void)vr; (void)n; (void)v;
  return fmi2Error;
}
EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Real v[]) {
  Instance* m = (Instance*)c;
  if (check_vr(m, vr, n) != fmi2OK) return fmi2Error;
  for (size_t k = 0; k < n; ++k) m->r[vr[k]] = v[k];
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Integer v[]) {
  Instance* m = (Instance*)c;
  if (check_vr(m, vr, n) != fmi2OK) return fmi2Error;
  for (size_t k = 0; k < n; ++k) m->i[vr[k]] = v[k];
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Boolean v[]) {
  return fmi2SetInteger(c, vr, n, v);
}
EXPORT fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2String v[]) {
  (void)c; (void)vr; (void)n; (void)v;
  return fmi2Error;
}

/* ---- Model Exchange */
EXPORT fmi2Status fmi2EnterEventMode(fmi2Component c) { (void)c; return fmi2OK; }
EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo* info) {
  Instance* m = (Instance*)c;
  int changed = model_event(m);
  info->newDiscreteStatesNeeded = 0;
  info->terminateSimulation = m->terminate;
  info->nominalsOfContinuousStatesChanged = 0;
  info->valuesOfContinuousStatesChanged = changed;
  info->nextEventTimeDefined = m->next_defined;
  info->nextEventTime = m->next_time;
  return fmi2OK;
}
EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) { (void)c; return fmi2OK; }
EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean no_prior, fmi2Boolean* enter,
                                              fmi2Boolean* terminate) {
  Instance* m = (Instance*)c;
  (void)no_prior;
  *enter = model_step_done(m);
  *terminate = m->terminate;
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetTime(fmi2Component c, fmi2Real t) {
  ((Instance*)c)->time = t;
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t n) {
  Instance* m = (Instance*)c;
  for (size_t k = 0; k < n && (int)k < model_nx; ++k) m->r[state_vr(k)] = x[k];
  return fmi2OK;
}
#ifndef FMU_OMIT_GET_DERIVATIVES
EXPORT fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real dx[], size_t n) {
  Instance* m = (Instance*)c;
  fmi2Status s = model_compute(m);
  if (s != fmi2OK) {
    report(m, s, "discard", m->message);
    return s;
  }
  for (size_t k = 0; k < n && (int)k < model_nx; ++k) dx[k] = m->r[der_vr(k)];
  return fmi2OK;
}
#endif
EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real z[], size_t n) {
  Instance* m = (Instance*)c;
  if ((int)n != model_nz) return fmi2Error;
  if (n > 0) model_indicators(m, z);
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t n) {
  Instance* m = (Instance*)c;
  for (size_t k = 0; k < n && (int)k < model_nx; ++k) x[k] = m->r[state_vr(k)];
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x[], size_t n) {
  (void)c;
  for (size_t k = 0; k < n; ++k) x[k] = 1.0;
  return fmi2OK;
}

/* ---- Co-Simulation: Euler substeps; time events at their exact times. */
EXPORT fmi2Status fmi2DoStep(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean no_prior) {
  Instance* m = (Instance*)c;
  (void)no_prior;
  const double end = t + h;
  const int substeps = 100;
  m->time = t;
  for (int s = 0; s < substeps; ++s) {
    double t1 = t + h * (s + 1) / substeps;
    if (s + 1 == substeps) t1 = end;
    while (m->next_defined && m->next_time <= t1 + 1e-9 * (1 + fabs(t1))) { /* rounding of k * 0.1 */
      m->time = m->next_time;
      (void)model_event(m);
    }
    if (model_nx > 0) {
      if (model_compute(m) != fmi2OK) {
        report(m, fmi2Discard, "discard", m->message);
        return fmi2Discard;
      }
      for (int k = 0; k < model_nx; ++k) m->r[state_vr((size_t)k)] += (t1 - m->time) * m->r[der_vr((size_t)k)];
    }
    m->time = t1;
  }
  if (m->terminate) return fmi2Discard; /* fmi2GetBooleanStatus(fmi2Terminated) says why */
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetBooleanStatus(fmi2Component c, int kind, fmi2Boolean* value) {
  if (kind != 3) return fmi2Discard; /* only fmi2Terminated */
  *value = ((Instance*)c)->terminate;
  return fmi2OK;
}
EXPORT fmi2Status fmi2CancelStep(fmi2Component c) { (void)c; return fmi2Error; }
EXPORT fmi2Status fmi2GetStatus(fmi2Component c, int kind, fmi2Status* s) { (void)c; (void)kind; *s = fmi2OK; return fmi2OK; }
