// libical for Vigil (module VigilCalendar, the only importer): iCalendar (RFC 5545) read and written
// by the library made for it, never by hand. Debian 12 ships libical 3.0.16; what Vigil calls is in
// libical 3.0 and later.
//
// libical is opened when the calendar is first used (CSensorLibraries, though it is no sensor): it
// brings ICU, which `vigil report` and a session without calendars never need.
#ifndef VIGIL_CICAL_SHIM_H
#define VIGIL_CICAL_SHIM_H

#include <libical/ical.h>
#include <stddef.h>

// 0 once libical is open, -1 with dlerror's reason in `error`.
int vigil_load_libical(char *error, size_t size);

#endif
