// XCB for Vigil's X11 detectors: the core protocol (properties, events) and the MIT-SCREEN-SAVER
// extension (idle time, blanking).
//
// Why a shim: Swift cannot take the address of the extension's `xcb_extension_t` global, and the
// event structs are told apart by a C cast on `response_type`. Each helper is one such cast or
// lookup; the calls themselves are made from Swift. Nothing here can go while those two remain.
#ifndef VIGIL_CXCB_SHIM_H
#define VIGIL_CXCB_SHIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <xcb/xcb.h>
#include <xcb/screensaver.h>
#include <stddef.h>

// Vigil opens this library when a sensor first needs it, not at start-up (CSensorLibraries):
// 0 once it is open, -1 with dlerror's reason in `error`.
int vigil_load_libxcb(char *error, size_t size);
int vigil_load_libxcb_screensaver(char *error, size_t size);
/// xcb_screensaver_id, the extension's record in libxcb-screensaver (data, not a function).
void *vigil_xcb_screensaver_id(void);

/// Whether the server has MIT-SCREEN-SAVER; `first_event` is its first event code when it does.
static inline bool vigil_xcb_screensaver_present(xcb_connection_t *c, uint8_t *first_event) {
    const xcb_query_extension_reply_t *e = xcb_get_extension_data(c, (xcb_extension_t *)vigil_xcb_screensaver_id());
    if (e == NULL || !e->present) return false;
    *first_event = e->first_event;
    return true;
}

/// The root window of screen `screen` (as xcb_connect returned it), or XCB_WINDOW_NONE.
static inline xcb_window_t vigil_xcb_root(xcb_connection_t *c, int screen) {
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(c));
    for (int i = 0; it.rem > 0; xcb_screen_next(&it), i++) {
        if (i == screen) return it.data->root;
    }
    return XCB_WINDOW_NONE;
}

/// The event's code without the "sent by SendEvent" bit; 0 is an error.
static inline uint8_t vigil_xcb_event_code(const xcb_generic_event_t *e) { return e->response_type & 0x7f; }

/// A PropertyNotify's window and atom.
static inline xcb_window_t vigil_xcb_property_window(const xcb_generic_event_t *e) {
    return ((const xcb_property_notify_event_t *)e)->window;
}
static inline xcb_atom_t vigil_xcb_property_atom(const xcb_generic_event_t *e) {
    return ((const xcb_property_notify_event_t *)e)->atom;
}

/// Selects `mask` (XCB_EVENT_MASK_*) on `window` for this client; other clients' masks are their own.
static inline xcb_void_cookie_t vigil_xcb_select_events(xcb_connection_t *c, xcb_window_t window, uint32_t mask) {
    return xcb_change_window_attributes(c, window, XCB_CW_EVENT_MASK, &mask);
}

/// Sends the window manager a client message about `window` as EWMH and ICCCM ask a pager to:
/// to the root, with SubstructureRedirect|SubstructureNotify, format 32 (`_NET_ACTIVE_WINDOW`,
/// `WM_CHANGE_STATE`). The event is a C struct with a union, built here.
static inline xcb_void_cookie_t vigil_xcb_send_client_message(
    xcb_connection_t *c, xcb_window_t root, xcb_window_t window, xcb_atom_t type, uint32_t d0, uint32_t d1, uint32_t d2) {
    xcb_client_message_event_t event = {0};
    event.response_type = XCB_CLIENT_MESSAGE;
    event.format = 32;
    event.window = window;
    event.type = type;
    event.data.data32[0] = d0;
    event.data.data32[1] = d1;
    event.data.data32[2] = d2;
    return xcb_send_event(c, 0, root, XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY, (const char *)&event);
}

#endif
