/* The FMU state of the test FMUs (fmu_state.h): copies of an instance's
 * values and their serialized bytes, with the checks the standard asks. */
#include "fmu_state.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fmu_rules.h"

/* A copy's mark while it is alive (cleared when freed). */
#define STATE_ALIVE 0x6374646573746174ULL
#define LAYOUT 1u
#define GUID_BYTES 64
static const char kMark[8] = {'C', 'T', 'D', 'E', 'F', 'M', 'U', 'S'};

typedef struct {
  uint64_t alive;        /* STATE_ALIVE */
  const Instance* owner; /* the instance it was made for */
  Instance saved;        /* its values; the importer's pointers and the description cleared */
} Copy;

/* The serialized header: the mark, layout, FMI version, interface, the payload's size, the GUID. */
typedef struct {
  char mark[8];
  uint32_t layout;
  uint32_t fmi;
  uint32_t interface;
  uint32_t payload;
  char guid[GUID_BYTES];
} Header;

static size_t serialized_size(void) { return sizeof(Header) + sizeof(Instance) + sizeof(uint64_t); }

static uint64_t fnv1a(const unsigned char* p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t k = 0; k < n; ++k) {
    h ^= p[k];
    h *= 0x100000001b3ULL;
  }
  return h;
}

/* The capability flags for the instance's interface, and a state that allows the calls. */
static int allow(Instance* m, const char* fn, int serialization) {
  if (m == NULL) return 0;
  const int fmi3 = m->desc != NULL && m->desc->fmi3;
  const int cs = m->type == 1;
  if (!fmu_allow(m, fn, FMU_ANY, ~FMU_IN(FMU_STEP_IN_PROGRESS))) return 0;
  if (!m->desc->can_get_and_set_state[cs]) {
    return fmu_fail(m, fn, "the model description's <%s> does not declare %s",
                    cs ? "CoSimulation" : "ModelExchange",
                    fmi3 ? "canGetAndSetFMUState" : "canGetAndSetFMUstate");
  }
  if (serialization && !m->desc->can_serialize_state[cs]) {
    return fmu_fail(m, fn, "the model description's <%s> does not declare %s",
                    cs ? "CoSimulation" : "ModelExchange",
                    fmi3 ? "canSerializeFMUState" : "canSerializeFMUstate");
  }
  return 1;
}

/* `state` is a live copy this instance made. */
static int own(Instance* m, const char* fn, const void* state) {
  const Copy* copy = (const Copy*)state;
  if (copy == NULL) return fmu_fail(m, fn, "no FMU state (NULL)");
  if (copy->alive != STATE_ALIVE)
    return fmu_fail(m, fn, "not an FMU state of this FMU, or one already freed");
  if (copy->owner != m) return fmu_fail(m, fn, "an FMU state of another instance");
  return 1;
}

/* The instance's values into `saved`, without what is not the FMU's state. */
static void take(const Instance* m, Instance* saved) {
  memcpy(saved, m, sizeof *saved);
  memset(&saved->cb, 0, sizeof saved->cb);
  saved->env3 = NULL;
  saved->log3 = NULL;
  memset(saved->name, 0, sizeof saved->name);
  saved->desc = NULL;
}

int fmu_get_state(Instance* m, const char* fn, void** state) {
  if (!allow(m, fn, 0)) return 0;
  if (state == NULL) return fmu_fail(m, fn, "no place for the FMU state (NULL)");
  Copy* copy = (Copy*)*state;
  if (copy != NULL && !own(m, fn, copy)) return 0; /* a copy to reuse */
  if (copy == NULL) copy = (Copy*)calloc(1, sizeof(Copy));
  if (copy == NULL) return fmu_fail(m, fn, "out of memory");
  copy->alive = STATE_ALIVE;
  copy->owner = m;
  take(m, &copy->saved);
  *state = copy;
  return 1;
}

int fmu_set_state(Instance* m, const char* fn, void* state) {
  if (!allow(m, fn, 0) || !own(m, fn, state)) return 0;
  const Copy* copy = (const Copy*)state;
  Instance kept; /* the importer's and the description */
  memcpy(&kept, m, sizeof kept);
  memcpy(m, &copy->saved, sizeof *m);
  m->cb = kept.cb;
  m->env3 = kept.env3;
  m->log3 = kept.log3;
  memcpy(m->name, kept.name, sizeof m->name);
  m->desc = kept.desc;
  return 1;
}

int fmu_free_state(Instance* m, const char* fn, void** state) {
  if (!allow(m, fn, 0)) return 0;
  if (state == NULL || *state == NULL) return 1; /* ignored */
  if (!own(m, fn, *state)) return 0;
  Copy* copy = (Copy*)*state;
  copy->alive = 0;
  free(copy);
  *state = NULL;
  return 1;
}

int fmu_serialized_state_size(Instance* m, const char* fn, void* state, size_t* size) {
  if (!allow(m, fn, 1) || !own(m, fn, state)) return 0;
  if (size == NULL) return fmu_fail(m, fn, "no place for the size (NULL)");
  *size = serialized_size();
  return 1;
}

int fmu_serialize_state(Instance* m, const char* fn, void* state, unsigned char* bytes, size_t size) {
  if (!allow(m, fn, 1) || !own(m, fn, state)) return 0;
  if (size != serialized_size()) {
    return fmu_fail(m, fn,
                    "a byte vector of %zu bytes; the serialized state has %zu (its SerializedFMUStateSize)",
                    size, serialized_size());
  }
  if (bytes == NULL) return fmu_fail(m, fn, "no byte vector (NULL)");
  Header h;
  memset(&h, 0, sizeof h);
  memcpy(h.mark, kMark, sizeof h.mark);
  h.layout = LAYOUT;
  h.fmi = m->desc->fmi3 ? 3 : 2;
  h.interface = (uint32_t)m->type;
  h.payload = (uint32_t)sizeof(Instance);
  strncpy(h.guid, FMU_GUID, sizeof h.guid - 1);
  memcpy(bytes, &h, sizeof h);
  memcpy(bytes + sizeof h, &((const Copy*)state)->saved, sizeof(Instance));
  const uint64_t sum = fnv1a(bytes, sizeof h + sizeof(Instance));
  memcpy(bytes + sizeof h + sizeof(Instance), &sum, sizeof sum);
  return 1;
}

int fmu_deserialize_state(Instance* m, const char* fn, const unsigned char* bytes, size_t size,
                          void** state) {
  if (!allow(m, fn, 1)) return 0;
  if (state == NULL) return fmu_fail(m, fn, "no place for the FMU state (NULL)");
  if (bytes == NULL && size > 0) return fmu_fail(m, fn, "no byte vector (NULL) for %zu bytes", size);
  Header h;
  if (size < sizeof h || memcmp(bytes, kMark, sizeof kMark) != 0) {
    return fmu_fail(m, fn, "%zu bytes that are not a serialized state of this runtime (no \"CTDEFMUS\" mark)",
                    size);
  }
  memcpy(&h, bytes, sizeof h);
  if (h.layout != LAYOUT || h.payload != sizeof(Instance)) {
    return fmu_fail(m, fn,
                    "a serialized state of layout %u with %u bytes of values; this runtime's is %u with %zu",
                    h.layout, h.payload, LAYOUT, sizeof(Instance));
  }
  if (strncmp(h.guid, FMU_GUID, sizeof h.guid) != 0) {
    return fmu_fail(m, fn, "a serialized state of another FMU (%.*s), not of %s", GUID_BYTES, h.guid,
                    FMU_GUID);
  }
  const uint32_t fmi = m->desc->fmi3 ? 3 : 2;
  if (h.fmi != fmi || h.interface != (uint32_t)m->type) {
    return fmu_fail(m, fn, "a serialized state of an FMI %u %s instance; this one is FMI %u %s", h.fmi,
                    h.interface == 1 ? "Co-Simulation" : "Model Exchange", fmi,
                    m->type == 1 ? "Co-Simulation" : "Model Exchange");
  }
  if (size != serialized_size()) {
    return fmu_fail(m, fn, "%zu bytes; a serialized state of this FMU has %zu (truncated or too long)", size,
                    serialized_size());
  }
  uint64_t sum = 0;
  memcpy(&sum, bytes + sizeof h + sizeof(Instance), sizeof sum);
  if (sum != fnv1a(bytes, sizeof h + sizeof(Instance))) {
    return fmu_fail(m, fn, "a serialized state whose checksum does not match (corrupt)");
  }
  Copy* copy = (Copy*)*state;
  if (copy != NULL && !own(m, fn, copy)) return 0; /* a copy to reuse (as fmi2GetFMUstate) */
  if (copy == NULL) copy = (Copy*)calloc(1, sizeof(Copy));
  if (copy == NULL) return fmu_fail(m, fn, "out of memory");
  copy->alive = STATE_ALIVE;
  copy->owner = m;
  memcpy(&copy->saved, bytes + sizeof h, sizeof(Instance));
  *state = copy;
  return 1;
}
