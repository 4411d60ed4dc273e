// libdbus for Vigil's desktop notifications: org.freedesktop.Notifications.Notify on the session bus.
//
// Why the helpers are C: libdbus builds a message with an iterator API that takes pointers to the
// values (a `const char **` for a string) and nests containers (the `as` actions, the `a{sv}` hints
// with a variant byte inside). Written in C it is the dozen calls the D-Bus documentation shows;
// from Swift it would be pointer juggling for every argument. The dbus type codes are macros with
// casts, which Swift does not import either. Everything else (the connection's lifetime, the
// errors) is handled in Swift.
#ifndef VIGIL_CDBUS_SHIM_H
#define VIGIL_CDBUS_SHIM_H

#include <dbus/dbus.h>
#include <stdio.h>
#include <string.h>

/// Copies a DBusError's name and message into `buf` and frees it.
static inline void vigil_dbus_take_error(DBusError *err, char *name, size_t name_len, char *buf, size_t len) {
    if (name && name_len) snprintf(name, name_len, "%s", err->name ? err->name : "");
    if (buf && len) snprintf(buf, len, "%s", err->message ? err->message : "unknown D-Bus error");
    dbus_error_free(err);
}

/// A private connection to the bus at `address`, or to the session bus when `address` is NULL.
/// NULL on failure, with the reason in `buf`.
static inline DBusConnection *vigil_dbus_connect(const char *address, char *buf, size_t len) {
    DBusError err;
    dbus_error_init(&err);
    DBusConnection *c;
    if (address) {
        c = dbus_connection_open_private(address, &err);
        if (c && !dbus_bus_register(c, &err)) {
            dbus_connection_close(c);
            dbus_connection_unref(c);
            c = NULL;
        }
    } else {
        c = dbus_bus_get_private(DBUS_BUS_SESSION, &err);
    }
    if (!c) {
        vigil_dbus_take_error(&err, NULL, 0, buf, len);
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

/// Calls Notify(app_name, replaces_id, app_icon, summary, body, actions=[], hints={"urgency": byte,
/// "category": category}, expire_timeout) and waits up to `call_timeout_ms` for the reply.
/// Returns 0 and the notification id, or -1 with the error's name and message.
static inline int vigil_dbus_notify(DBusConnection *c, const char *app, unsigned replaces, const char *icon,
                                    const char *summary, const char *body, unsigned char urgency,
                                    const char *category, int expire_ms, int call_timeout_ms,
                                    unsigned *id_out, char *err_name, size_t name_len, char *buf, size_t len) {
    DBusMessage *m = dbus_message_new_method_call("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                                  "org.freedesktop.Notifications", "Notify");
    if (!m) { snprintf(buf, len, "out of memory"); return -1; }
    DBusMessageIter it, actions, hints, entry, variant;
    dbus_uint32_t replaces_id = replaces;
    dbus_int32_t expire = expire_ms;
    const char *urgency_key = "urgency", *category_key = "category";
    dbus_message_iter_init_append(m, &it);
    dbus_bool_t ok = dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &app)
        && dbus_message_iter_append_basic(&it, DBUS_TYPE_UINT32, &replaces_id)
        && dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &icon)
        && dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &summary)
        && dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &body)
        && dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "s", &actions)
        && dbus_message_iter_close_container(&it, &actions)
        && dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &hints)
        && dbus_message_iter_open_container(&hints, DBUS_TYPE_DICT_ENTRY, NULL, &entry)
        && dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &urgency_key)
        && dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "y", &variant)
        && dbus_message_iter_append_basic(&variant, DBUS_TYPE_BYTE, &urgency)
        && dbus_message_iter_close_container(&entry, &variant)
        && dbus_message_iter_close_container(&hints, &entry)
        && dbus_message_iter_open_container(&hints, DBUS_TYPE_DICT_ENTRY, NULL, &entry)
        && dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &category_key)
        && dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "s", &variant)
        && dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &category)
        && dbus_message_iter_close_container(&entry, &variant)
        && dbus_message_iter_close_container(&hints, &entry)
        && dbus_message_iter_close_container(&it, &hints)
        && dbus_message_iter_append_basic(&it, DBUS_TYPE_INT32, &expire);
    if (!ok) {
        dbus_message_unref(m);
        snprintf(buf, len, "out of memory building the message");
        return -1;
    }
    DBusError err;
    dbus_error_init(&err);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(c, m, call_timeout_ms, &err);
    dbus_message_unref(m);
    if (!reply) {
        vigil_dbus_take_error(&err, err_name, name_len, buf, len);
        return -1;
    }
    dbus_uint32_t id = 0;
    DBusMessageIter r;
    if (dbus_message_iter_init(reply, &r) && dbus_message_iter_get_arg_type(&r) == DBUS_TYPE_UINT32) {
        dbus_message_iter_get_basic(&r, &id);
    }
    dbus_message_unref(reply);
    *id_out = id;
    return 0;
}

#endif
