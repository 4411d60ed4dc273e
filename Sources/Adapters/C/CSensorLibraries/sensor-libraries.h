// The loader behind the generated stubs (sensor-stubs.c): each sensor library is opened with dlopen
// the first time one of its functions is called, or when a detector asks for it first.
#ifndef VIGIL_SENSOR_LIBRARIES_H
#define VIGIL_SENSOR_LIBRARIES_H

#include <stdatomic.h>
#include <stddef.h>

#ifndef VIGIL_LIBGPS_SONAME
#define VIGIL_LIBGPS_SONAME "libgps.so"
#endif

/// The libraries' sonames, by index (generated).
extern const char *const vigil_library_sonames[];
extern const int vigil_library_count;

/// Opens library `index` (once; later calls return at once): 0, or -1 with dlerror's words in `error`.
int vigil_library_load(int index, char *error, size_t size);

/// The address of `name` in library `index`, opening it if needed. A library that cannot be opened
/// or lacks the function ends the process with a message naming both: the detectors open their
/// library first (`vigil_load_...`) and report a missing one as an unavailable sensor, so this
/// happens only to a call no detector guarded.
void *vigil_library_symbol(int index, const char *name);

/// The real function behind a stub, found once and kept.
#define VIGIL_STUB_FUNCTION(index, name)                                                                                \
    (__extension__({                                                                                                    \
        static void *_Atomic vigil_slot;                                                                                \
        void *vigil_found = atomic_load_explicit(&vigil_slot, memory_order_acquire);                                    \
        if (vigil_found == NULL) {                                                                                      \
            vigil_found = vigil_library_symbol(index, #name);                                                           \
            atomic_store_explicit(&vigil_slot, vigil_found, memory_order_release);                                      \
        }                                                                                                               \
        (__typeof__(&name))vigil_found;                                                                                 \
    }))

#endif
