/* A wall clock that jumps, for FaultInjectionTests.wallClockJumpsDoNotBendTheSession.
 *
 * Loaded with LD_PRELOAD into a vigil process, it adds the number of seconds written in the file
 * named by $VIGIL_TEST_CLOCK_SHIFT (read again at every call, so the test can change it while
 * the process runs) to the wall clock: CLOCK_REALTIME and its coarse variant, gettimeofday and
 * time. Every other clock, the monotonic ones a session measures durations with, is untouched.
 * The machine's real clock cannot be set in a test (it needs CAP_SYS_TIME and would disturb
 * everything else on the machine); libfaketime, which does this in general, breaks Swift
 * programs' arguments and sleeps when its offset comes from a file (libfaketime 0.9.10). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static long long shift(void) {
    const char *path = getenv("VIGIL_TEST_CLOCK_SHIFT");
    if (!path) return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[32] = {0};
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    return n > 0 ? atoll(text) : 0;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    static int (*real)(clockid_t, struct timespec *);
    if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int result = real(id, ts);
    if (result == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) ts->tv_sec += shift();
    return result;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
    static int (*real)(struct timeval *restrict, void *restrict);
    if (!real) real = (int (*)(struct timeval *restrict, void *restrict))dlsym(RTLD_NEXT, "gettimeofday");
    int result = real(tv, tz);
    if (result == 0) tv->tv_sec += shift();
    return result;
}

time_t time(time_t *out) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (out) *out = ts.tv_sec;
    return ts.tv_sec;
}
