// The sensor libraries (libpulse, libpulse-simple, libinput, libudev, libxcb, libxcb-screensaver,
// libdbus, libgps) are opened when a sensor first needs them, not when Vigil starts: a command that
// opens no sensor starts without them. Each C module's shim declares the loader it needs
// (`vigil_load_libpulse` ...): 0 once the library is open, -1 with the reason in `error`.
#ifndef VIGIL_CSENSORLIBRARIES_H
#define VIGIL_CSENSORLIBRARIES_H
#endif
