// libpulse's asynchronous API for the microphone detector.
//
// Only the header is needed: everything Vigil calls (threaded main loop, context, record stream) is
// plain C with stable signatures since PulseAudio 0.9.x, and PipeWire's pipewire-pulse serves the
// same protocol, so one binding covers both sound servers.
#ifndef VIGIL_CPULSE_SHIM_H
#define VIGIL_CPULSE_SHIM_H

#include <pulse/pulseaudio.h>
#include <pulse/thread-mainloop.h>
#include <stddef.h>

// Vigil opens this library when a sensor first needs it, not at start-up (CSensorLibraries):
// 0 once it is open, -1 with dlerror's reason in `error`.
int vigil_load_libpulse(char *error, size_t size);

#endif
