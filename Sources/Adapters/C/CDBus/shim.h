// libdbus for Vigil (module DBusSupport, the only importer): a private connection to a bus and the
// error record. Messages are built and read in Swift through libdbus's iterator API.
//
// Why a few helpers are C: opening a bus connection is three calls with a DBusError threaded
// through, and libdbus's default for a bus connection that drops is to call exit(), which must be
// switched off before anything else happens on it. Everything else (the message iterators, the
// type codes, the connection's lifetime) is handled in Swift.
#ifndef VIGIL_CDBUS_SHIM_H
#define VIGIL_CDBUS_SHIM_H

#include <dbus/dbus.h>
#include <stdio.h>
#include <string.h>
#include <stddef.h>

// Vigil opens this library when a sensor first needs it, not at start-up (CSensorLibraries):
// 0 once it is open, -1 with dlerror's reason in `error`.
int vigil_load_libdbus(char *error, size_t size);

/// Copies a DBusError's name and message into the buffers and frees it.
static inline void vigil_dbus_take_error(DBusError *err, char *name, size_t name_len, char *buf, size_t len) {
    if (name && name_len) snprintf(name, name_len, "%s", err->name ? err->name : "");
    if (buf && len) snprintf(buf, len, "%s", err->message ? err->message : "unknown D-Bus error");
    dbus_error_free(err);
}

/// A private connection to the message bus at `address`, registered with the bus (Hello).
/// NULL on failure, with the error's name and message in the buffers.
static inline DBusConnection *vigil_dbus_connect(const char *address, char *name, size_t name_len, char *buf, size_t len) {
    DBusError err;
    dbus_error_init(&err);
    DBusConnection *c = dbus_connection_open_private(address, &err);
    if (c && !dbus_bus_register(c, &err)) {
        dbus_connection_close(c);
        dbus_connection_unref(c);
        c = NULL;
    }
    if (!c) {
        vigil_dbus_take_error(&err, name, name_len, buf, len);
        return NULL;
    }
    // A bus that goes away must not end Vigil (libdbus's default for bus connections is exit()).
    dbus_connection_set_exit_on_disconnect(c, FALSE);
    return c;
}

static inline void vigil_dbus_close(DBusConnection *c) {
    dbus_connection_close(c);
    dbus_connection_unref(c);
}

#endif
