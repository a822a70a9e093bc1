/* The FMU state of the test FMUs (FMI 2.0 section 2.1.8, FMI 3.0 section
 * 2.2.6.4, "Getting and Setting the Complete FMU State"), shared by both
 * runtimes: fmu_runtime.c exports fmi2GetFMUstate ... fmi2DeSerializeFMUstate
 * and fmu_runtime3.c fmi3GetFMUState ... fmi3DeserializeFMUState over these
 * functions, written from the specifications' text.
 *
 * A copy of the state is everything the instance holds but the importer's
 * (its callbacks, its name) and the description: the variables, the time,
 * the time event, and the state of the state machine (m->state), which the
 * standards count as "FMU internal status information", so that setting a
 * copy also sets the state it was taken in (as the Reference FMUs do).
 *
 * As strict as the standard, each function refuses (an error, an "error"
 * log line "<function>: <why>", the Error state):
 *   - any call when the description does not declare canGetAndSetFMUstate
 *     (FMI 3: canGetAndSetFMUState) for the instance's interface, and the
 *     three serialization functions without canSerializeFMUstate too;
 *   - a call in a state the standard forbids (FMI 2.0 Co-Simulation: while
 *     a step is in progress; every other state of a live instance allows
 *     them, FMI 2.0's error state and FMI 3.0's Terminated, which an error
 *     leads to, included);
 *   - a copy that is not one this instance made (fmi2GetFMUstate,
 *     fmi2DeSerializeFMUstate) or that was freed;
 *   - fmi2SerializeFMUstate with a size other than fmi2SerializedFMUstateSize's;
 *   - fmi2DeSerializeFMUstate of bytes that are not a serialized state of
 *     this FMU: too short or too long (truncated), without the runtime's
 *     mark or of another layout (foreign), of another FMU (its GUID or
 *     instantiation token differs), of another FMI version or interface,
 *     or whose checksum does not match (corrupt).
 * fmi2FreeFMUstate of a NULL copy is ignored. The serialized bytes: the mark
 * "CTDEFMUS", the layout (1), the FMI version (2 or 3), the interface (0 ME,
 * 1 CS), the payload's size, the GUID (64 bytes, NUL-padded), the payload
 * (the instance's values), a 64-bit FNV-1a checksum of every byte before it. */
#ifndef CTDE_TEST_FMU_STATE_H
#define CTDE_TEST_FMU_STATE_H

#include <stddef.h>

#include "fmu_runtime.h"

/* Each returns 1, or 0 after fmu_fail (the runtime then returns its error
 * status). `fn` names the calling function in messages. */
int fmu_get_state(Instance* m, const char* fn, void** state);
int fmu_set_state(Instance* m, const char* fn, void* state);
int fmu_free_state(Instance* m, const char* fn, void** state);
int fmu_serialized_state_size(Instance* m, const char* fn, void* state, size_t* size);
int fmu_serialize_state(Instance* m, const char* fn, void* state, unsigned char* bytes, size_t size);
int fmu_deserialize_state(Instance* m, const char* fn, const unsigned char* bytes, size_t size, void** state);

#endif
