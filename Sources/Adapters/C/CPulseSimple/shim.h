// libpulse-simple for Vigil's audible alarm: open a playback stream, write the tone, drain, close.
// The simple API fits a short, blocking, one-shot sound on the alarm thread; the microphone
// detector uses the asynchronous API (CPulse) because it records for hours and must notice losses.
//
// Why a helper: pa_sample_spec and pa_simple_new's many pointer arguments are fine from Swift, but
// the error codes come back through an int pointer and pa_strerror; one call here keeps that
// in one place.
#ifndef VIGIL_CPULSESIMPLE_SHIM_H
#define VIGIL_CPULSESIMPLE_SHIM_H

#include <pulse/error.h>
#include <pulse/simple.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

// Vigil opens this library when a sensor first needs it, not at start-up (CSensorLibraries):
// 0 once it is open, -1 with dlerror's reason in `error`.
int vigil_load_libpulse_simple(char *error, size_t size);

/// Plays `frames` mono float samples at `rate` on `server` (NULL: the default server) and waits
/// until they have been played. Returns 0, or -1 with the reason in `buf`.
static inline int vigil_pulse_play(const char *server, const char *app, const float *samples, size_t frames, unsigned rate,
                                   char *buf, size_t len) {
    pa_sample_spec spec = { .format = PA_SAMPLE_FLOAT32LE, .rate = rate, .channels = 1 };
    int error = 0;
    pa_simple *s = pa_simple_new(server, app, PA_STREAM_PLAYBACK, NULL, "Vigil alarm", &spec, NULL, NULL, &error);
    if (!s) {
        snprintf(buf, len, "%s", pa_strerror(error));
        return -1;
    }
    int rc = 0;
    if (pa_simple_write(s, samples, frames * sizeof(float), &error) < 0 || pa_simple_drain(s, &error) < 0) {
        snprintf(buf, len, "%s", pa_strerror(error));
        rc = -1;
    }
    pa_simple_free(s);
    return rc;
}

#endif
