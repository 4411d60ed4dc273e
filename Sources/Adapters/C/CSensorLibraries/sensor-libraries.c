// Opens the sensor libraries when they are first needed (scripts/generate-sensor-stubs.py says why).
#include "sensor-libraries.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t vigil_libraries_lock = PTHREAD_MUTEX_INITIALIZER;
static void *vigil_handles[16];

static void *vigil_library_open(int index, char *error, size_t size) {
    pthread_mutex_lock(&vigil_libraries_lock);
    void *handle = vigil_handles[index];
    if (handle == NULL) {
        // RTLD_LOCAL: its symbols serve only the stubs, never another library's lookups.
        handle = dlopen(vigil_library_sonames[index], RTLD_NOW | RTLD_LOCAL);
        if (handle != NULL) {
            vigil_handles[index] = handle;
        } else if (error != NULL && size > 0) {
            const char *why = dlerror();
            snprintf(error, size, "%s", why != NULL ? why : vigil_library_sonames[index]);
        }
    }
    pthread_mutex_unlock(&vigil_libraries_lock);
    return handle;
}

int vigil_library_load(int index, char *error, size_t size) {
    if (index < 0 || index >= vigil_library_count) return -1;
    return vigil_library_open(index, error, size) != NULL ? 0 : -1;
}

void *vigil_library_symbol(int index, const char *name) {
    char why[512] = "";
    void *handle = vigil_library_open(index, why, sizeof why);
    if (handle == NULL) {
        fprintf(stderr, "vigil: %s is needed here and could not be loaded (%s); install it, or turn off the sensor that uses it\n",
                vigil_library_sonames[index], why);
        abort();
    }
    void *found = dlsym(handle, name);
    if (found == NULL) {
        fprintf(stderr, "vigil: %s has no %s (an older version than Vigil was built with?)\n", vigil_library_sonames[index], name);
        abort();
    }
    return found;
}
