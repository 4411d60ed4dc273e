// libinput and libudev for Vigil's input detector, and the few helpers Swift cannot write itself.
//
// Vigil needs libinput 1.19 or newer (Debian 12 ships 1.22, Ubuntu 22.04 1.20): 1.19 added the
// POINTER_SCROLL_WHEEL/FINGER/CONTINUOUS events with hi-res wheel values, and Vigil reads only those,
// never the deprecated POINTER_AXIS event that libinput still sends alongside them (reading both
// would count every wheel click twice).
//
// Why the helpers exist:
//  - libinput's log handler takes a va_list, which Swift cannot receive. Without our handler libinput
//    prints its errors (for example "failed to open /dev/input/event3") to stderr in the middle of the
//    terminal UI; the detector reports the same facts as status samples instead. They can go if
//    libinput ever grows a non-variadic log callback.
//  - errno is a macro; Swift's Glibc overlay exposes it, but reading it next to the open() call in C
//    keeps the value from being clobbered by anything the Swift runtime does in between.
#ifndef VIGIL_CLIBINPUT_SHIM_H
#define VIGIL_CLIBINPUT_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <libinput.h>
#include <libudev.h>
#include <stdarg.h>
#include <unistd.h>
#include <stddef.h>

// Vigil opens this library when a sensor first needs it, not at start-up (CSensorLibraries):
// 0 once it is open, -1 with dlerror's reason in `error`.
int vigil_load_libinput(char *error, size_t size);
int vigil_load_libudev(char *error, size_t size);

static void vigil_libinput_discard_log(struct libinput *li, enum libinput_log_priority priority,
                                       const char *format, va_list args) {
    (void)li; (void)priority; (void)format; (void)args;
}

/// Silences libinput's own logging for this context (see the note above).
static inline void vigil_libinput_quiet(struct libinput *li) {
    libinput_log_set_handler(li, vigil_libinput_discard_log);
}

/// open(2) for libinput's open_restricted: a file descriptor, or minus errno as libinput expects.
static inline int vigil_open_device(const char *path, int flags) {
    int fd = open(path, flags | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

#endif
