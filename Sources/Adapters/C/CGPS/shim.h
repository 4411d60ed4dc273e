// The one place where libgps's API versions differ for Vigil.
//
// Debian 12 ships gpsd 3.22 (API 11); newer systems ship API 12-16. What Vigil reads (the fix mode,
// position, error estimates, speed and which fields a report set) is the same from API 9 (gpsd 3.20,
// 2020) on, where gps_read takes a message buffer and fix.time is a timespec. API 12 moved `status`
// into `fix`, which Vigil does not read. If a future API renames a field Vigil uses, the #if goes
// here and nowhere else.
#ifndef VIGIL_CGPS_SHIM_H
#define VIGIL_CGPS_SHIM_H

#include <gps.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

// Vigil opens this library when a sensor first needs it, not at start-up (CSensorLibraries):
// 0 once it is open, -1 with dlerror's reason in `error`.
int vigil_load_libgps(char *error, size_t size);

#if GPSD_API_MAJOR_VERSION < 9
#error "Vigil needs libgps API 9 or newer (gpsd 3.20+)"
#endif

/// A TPV report as Vigil sees it. NaN marks an unknown value.
typedef struct {
    bool is_tpv;       // the report just read was a TPV (position/velocity/time)
    int mode;          // 0 not seen, 1 no fix, 2 2D, 3 3D
    double latitude;
    double longitude;
    double eph;        // horizontal error estimate, metres (max of epx/epy when gpsd gives no eph)
    double speed;      // metres per second
} vigil_gps_report;

static inline struct gps_data_t *vigil_gps_new(void) {
    return (struct gps_data_t *)calloc(1, sizeof(struct gps_data_t));
}

static inline void vigil_gps_free(struct gps_data_t *d) { free(d); }

static inline int vigil_gps_open(const char *host, const char *port, struct gps_data_t *d) {
    memset(d, 0, sizeof(*d));
    return gps_open(host, port, d);
}

static inline int vigil_gps_watch(struct gps_data_t *d) {
    return gps_stream(d, WATCH_ENABLE | WATCH_JSON, NULL);
}

static inline bool vigil_gps_waiting(const struct gps_data_t *d, int timeout_us) {
    return gps_waiting(d, timeout_us);
}

/// gpsd's socket, to sleep in `poll` on it next to the session's stop pipe.
static inline int vigil_gps_descriptor(const struct gps_data_t *d) { return d->gps_fd; }

/// Reads one report. Returns < 0 when the connection is gone (gpsd died or closed it).
/// `set` is cleared first: libgps only ORs bits into it, so a SKY after a TPV would otherwise still
/// look like a TPV.
static inline int vigil_gps_read(struct gps_data_t *d, vigil_gps_report *out) {
    d->set = 0;
    int r = gps_read(d, NULL, 0);
    if (r < 0) return r;
    out->is_tpv = (d->set & MODE_SET) != 0;
    out->mode = d->fix.mode;
    bool has_position = (d->set & LATLON_SET) != 0 && d->fix.mode >= MODE_2D;
    out->latitude = has_position ? d->fix.latitude : NAN;
    out->longitude = has_position ? d->fix.longitude : NAN;
    double eph = d->fix.eph;
    if (!isfinite(eph)) {
        double x = d->fix.epx, y = d->fix.epy;
        eph = isfinite(x) && isfinite(y) ? (x > y ? x : y) : NAN;
    }
    out->eph = eph;
    out->speed = (d->set & SPEED_SET) ? d->fix.speed : NAN;
    return r;
}

static inline int vigil_gps_close(struct gps_data_t *d) { return gps_close(d); }

static inline const char *vigil_gps_errstr(int err) { return gps_errstr(err); }

static inline int vigil_gps_api_major(void) { return GPSD_API_MAJOR_VERSION; }

#endif
