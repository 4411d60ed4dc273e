// Why this shim exists: Swift's Glibc module does not declare wcwidth(3), which glibc's <wchar.h>
// declares only under _XOPEN_SOURCE (or _GNU_SOURCE), and wcwidth reads the calling thread's
// LC_CTYPE, which is "C" in a Swift program (ASCII only: -1 for every other scalar). Here the
// macro is defined before the header, and the width is read in a C.UTF-8 locale object made once
// and used by this thread only while it asks (uselocale), so the process's locale never changes.
#define _GNU_SOURCE
#include <locale.h>
#include <pthread.h>
#include <wchar.h>

#include "CDisplayWidth.h"

static locale_t utf8_locale;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void make_utf8_locale(void) {
    // C.UTF-8 is built into glibc since 2.35 (Debian 12 has 2.36); a distribution's own UTF-8
    // locale is the fallback for older ones.
    const char *names[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0] && utf8_locale == (locale_t)0; i++) {
        utf8_locale = newlocale(LC_CTYPE_MASK, names[i], (locale_t)0);
    }
}

int vigil_scalar_width(uint32_t scalar) {
    pthread_once(&utf8_once, make_utf8_locale);
    if (utf8_locale == (locale_t)0) return -2;
    locale_t previous = uselocale(utf8_locale);
    int width = wcwidth((wchar_t)scalar);
    uselocale(previous);
    return width;
}
