/* A write that never finishes, for OutputFileCLITests: the instant a signal must arrive at.
 *
 * Loaded with LD_PRELOAD into a vigil process, it lets the first write(2) into an output's
 * temporary file (a descriptor whose file's name starts with a dot and ends in .tmp, as Vigil's
 * temporaries are named, and were before they had a random part) through, then creates the file
 * named by $VIGIL_TEST_STALLED and waits for ever, as a write to a slow disk would. A test that
 * waits for that file signals the process while it is writing, every time: the temporary exists
 * and holds part of the output. Without it there is no such instant to count on (an export of
 * megabytes takes milliseconds), and no hook in Vigil itself is needed. Every other write is
 * untouched. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int is_temporary(int fd) {
    char link[64], target[PATH_MAX + 1];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, PATH_MAX);
    if (n <= 4) return 0;
    target[n] = 0;
    const char *name = strrchr(target, '/');
    return name && name[1] == '.' && strcmp(target + n - 4, ".tmp") == 0;
}

ssize_t write(int fd, const void *buffer, size_t count) {
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    ssize_t result = real(fd, buffer, count);
    if (result > 0 && is_temporary(fd)) {
        const char *stalled = getenv("VIGIL_TEST_STALLED");
        if (stalled) close(open(stalled, O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
        for (;;) pause();
    }
    return result;
}
