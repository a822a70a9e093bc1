/* The generic FMU of fmu_runtime.c for FMI 3.0 Model Exchange: the same
 * models (ball.c, stair.c...) behind the FMI 3.0 functions, declared here
 * from the FMI 3.0 specification (our own declarations). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmu_runtime.h"

#define EXPORT __attribute__((visibility("default")))

typedef unsigned int fmi3ValueReference;
typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;
typedef void (*fmi3LogMessageCallback)(void* env, fmi3Status status, const char* category, const char* message);

static void report3(Instance* m, fmi3Status status, const char* category, const char* text) {
  if (m->log3 != NULL) m->log3(m->env3, (int)status, category, text);
}

void model_log(Instance* m, int status, const char* category, const char* text) {
  report3(m, (fmi3Status)status, category, text);
}

EXPORT const char* fmi3GetVersion(void) { return "3.0"; }

EXPORT void* fmi3InstantiateModelExchange(const char* name, const char* token, const char* resources, bool visible,
                                          bool logging, void* env, fmi3LogMessageCallback log) {
  (void)visible;
  (void)logging;
  if (strcmp(token, FMU_GUID) != 0) {
    char text[256];
    snprintf(text, sizeof text, "wrong instantiation token %s, expected %s", token, FMU_GUID);
    if (log != NULL) log(env, fmi3Error, "error", text);
    return NULL;
  }
  if (resources == NULL || strncmp(resources, "file://", 7) == 0) {
    if (log != NULL) log(env, fmi3Error, "error", "the resource location must be a path, not a URI");
    return NULL;
  }
  Instance* m = (Instance*)calloc(1, sizeof(Instance));
  m->env3 = env;
  m->log3 = (void (*)(void*, int, const char*, const char*))log;
  m->type = 0;
  snprintf(m->name, sizeof m->name, "%s", name);
  model_defaults(m);
  return m;
}
EXPORT void fmi3FreeInstance(void* c) { free(c); }
EXPORT fmi3Status fmi3EnterInitializationMode(void* c, bool tol_defined, double tol, double start, bool stop_defined,
                                              double stop) {
  (void)tol_defined; (void)tol; (void)stop_defined; (void)stop;
  ((Instance*)c)->time = start;
  return fmi3OK;
}
EXPORT fmi3Status fmi3ExitInitializationMode(void* c) {
  model_initialize((Instance*)c);
  return fmi3OK;
}
EXPORT fmi3Status fmi3EnterEventMode(void* c) { (void)c; return fmi3OK; }
EXPORT fmi3Status fmi3Terminate(void* c) { (void)c; return fmi3OK; }

static int bad_vr(Instance* m, const fmi3ValueReference vr[], size_t n, size_t n_values) {
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] >= FMU_MAX_VARS) {
      report3(m, fmi3Error, "error", "value reference out of range");
      return 1;
    }
  }
  if (n_values != n) {
    report3(m, fmi3Error, "error", "nValues differs from nValueReferences (no arrays here)");
    return 1;
  }
  return 0;
}

/* Value references: Float64 variables are the model's r[vr]; Int32 and
 * Boolean variables are its i[vr - 100] (FMI 3 references are unique across types). */
EXPORT fmi3Status fmi3GetFloat64(void* c, const fmi3ValueReference vr[], size_t n, double v[], size_t nv) {
  Instance* m = (Instance*)c;
  if (bad_vr(m, vr, n, nv)) return fmi3Error;
  if (model_compute(m) != fmi2OK) {
    report3(m, fmi3Discard, "discard", m->message);
    return fmi3Discard;
  }
  for (size_t k = 0; k < n; ++k) v[k] = m->r[vr[k]];
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetInt32(void* c, const fmi3ValueReference vr[], size_t n, int v[], size_t nv) {
  Instance* m = (Instance*)c;
  (void)model_compute(m);
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] < 100 || vr[k] >= 100 + FMU_MAX_VARS || nv != n) return fmi3Error;
    v[k] = m->i[vr[k] - 100];
  }
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetBoolean(void* c, const fmi3ValueReference vr[], size_t n, bool v[], size_t nv) {
  Instance* m = (Instance*)c;
  (void)model_compute(m);
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] < 100 || vr[k] >= 100 + FMU_MAX_VARS || nv != n) return fmi3Error;
    v[k] = m->i[vr[k] - 100] != 0;
  }
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetFloat64(void* c, const fmi3ValueReference vr[], size_t n, const double v[], size_t nv) {
  Instance* m = (Instance*)c;
  if (bad_vr(m, vr, n, nv)) return fmi3Error;
  for (size_t k = 0; k < n; ++k) m->r[vr[k]] = v[k];
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetInt32(void* c, const fmi3ValueReference vr[], size_t n, const int v[], size_t nv) {
  Instance* m = (Instance*)c;
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] < 100 || vr[k] >= 100 + FMU_MAX_VARS || nv != n) return fmi3Error;
    m->i[vr[k] - 100] = v[k];
  }
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetBoolean(void* c, const fmi3ValueReference vr[], size_t n, const bool v[], size_t nv) {
  Instance* m = (Instance*)c;
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] < 100 || vr[k] >= 100 + FMU_MAX_VARS || nv != n) return fmi3Error;
    m->i[vr[k] - 100] = v[k] ? 1 : 0;
  }
  return fmi3OK;
}
EXPORT fmi3Status fmi3UpdateDiscreteStates(void* c, bool* need_update, bool* terminate, bool* nominals_changed,
                                           bool* values_changed, bool* next_defined, double* next) {
  Instance* m = (Instance*)c;
  const int changed = model_event(m);
  *need_update = false;
  *terminate = m->terminate != 0;
  *nominals_changed = false;
  *values_changed = changed != 0;
  *next_defined = m->next_defined != 0;
  *next = m->next_time;
  return fmi3OK;
}
EXPORT fmi3Status fmi3EnterContinuousTimeMode(void* c) { (void)c; return fmi3OK; }
EXPORT fmi3Status fmi3CompletedIntegratorStep(void* c, bool no_prior, bool* enter, bool* terminate) {
  Instance* m = (Instance*)c;
  (void)no_prior;
  *enter = model_step_done(m) != 0;
  *terminate = m->terminate != 0;
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetTime(void* c, double t) {
  ((Instance*)c)->time = t;
  return fmi3OK;
}
EXPORT fmi3Status fmi3SetContinuousStates(void* c, const double x[], size_t n) {
  Instance* m = (Instance*)c;
  for (size_t k = 0; k < n && (int)k < model_nx; ++k) m->r[state_vr(k)] = x[k];
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetContinuousStateDerivatives(void* c, double dx[], size_t n) {
  Instance* m = (Instance*)c;
  if (model_compute(m) != fmi2OK) {
    report3(m, fmi3Discard, "discard", m->message);
    return fmi3Discard;
  }
  for (size_t k = 0; k < n && (int)k < model_nx; ++k) dx[k] = m->r[der_vr(k)];
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetEventIndicators(void* c, double z[], size_t n) {
  Instance* m = (Instance*)c;
  if ((int)n != model_nz) return fmi3Error;
  if (n > 0) model_indicators(m, z);
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetContinuousStates(void* c, double x[], size_t n) {
  Instance* m = (Instance*)c;
  for (size_t k = 0; k < n && (int)k < model_nx; ++k) x[k] = m->r[state_vr(k)];
  return fmi3OK;
}
EXPORT fmi3Status fmi3GetNominalsOfContinuousStates(void* c, double x[], size_t n) {
  (void)c;
  for (size_t k = 0; k < n; ++k) x[k] = 1.0;
  return fmi3OK;
}

/* ---- Co-Simulation (without event mode): Euler substeps, time events at their times. */
EXPORT void* fmi3InstantiateCoSimulation(const char* name, const char* token, const char* resources, bool visible,
                                         bool logging, bool event_mode_used, bool early_return_allowed,
                                         const fmi3ValueReference required[], size_t n_required, void* env,
                                         fmi3LogMessageCallback log, void* intermediate_update) {
  (void)event_mode_used; (void)early_return_allowed; (void)required; (void)n_required; (void)intermediate_update;
  Instance* m = (Instance*)fmi3InstantiateModelExchange(name, token, resources, visible, logging, env, log);
  if (m != NULL) m->type = 1;
  return m;
}
EXPORT fmi3Status fmi3DoStep(void* c, double t, double h, bool no_prior, bool* event_needed, bool* terminate,
                             bool* early_return, double* last_time) {
  Instance* m = (Instance*)c;
  (void)no_prior;
  const double end = t + h;
  const int substeps = 100;
  m->time = t;
  for (int s = 0; s < substeps && !m->terminate; ++s) {
    double t1 = s + 1 == substeps ? end : t + h * (s + 1) / substeps;
    while (m->next_defined && m->next_time <= t1 + 1e-9 * (1 + (t1 < 0 ? -t1 : t1)) && !m->terminate) {
      m->time = m->next_time;
      (void)model_event(m);
    }
    if (model_nx > 0) {
      if (model_compute(m) != fmi2OK) {
        report3(m, fmi3Discard, "discard", m->message);
        return fmi3Discard;
      }
      for (int k = 0; k < model_nx; ++k) m->r[state_vr((size_t)k)] += (t1 - m->time) * m->r[der_vr((size_t)k)];
    }
    m->time = t1;
  }
  *event_needed = false;
  *terminate = m->terminate != 0;
  *early_return = false;
  *last_time = m->time;
  return fmi3OK;
}
