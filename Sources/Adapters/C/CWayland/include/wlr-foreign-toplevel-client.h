// The client side of wlr-foreign-toplevel-management-unstable-v1 (wlroots' protocol for taskbars:
// every toplevel's app_id, title and state, `activated` among them), at version 1: the messages
// Vigil uses, written from the protocol's documentation
// (https://wayland.app/protocols/wlr-foreign-toplevel-management-unstable-v1) in the form
// wayland-scanner gives its output. The interface tables are in ../wlr-foreign-toplevel.c.
//
// Why by hand: no Debian package ships this protocol's XML (wlroots builds it in), so there is
// nothing to run wayland-scanner on here. The messages' order and signatures are the protocol's
// (requests and events are numbered in the order the protocol lists them); the tests run the
// glue against real sway and wayfire, whose wlroots speak the protocol.
#ifndef VIGIL_WLR_FOREIGN_TOPLEVEL_CLIENT_H
#define VIGIL_WLR_FOREIGN_TOPLEVEL_CLIENT_H

#include <stdint.h>
#include <wayland-client.h>

struct zwlr_foreign_toplevel_manager_v1;
struct zwlr_foreign_toplevel_handle_v1;

extern const struct wl_interface zwlr_foreign_toplevel_manager_v1_interface;
extern const struct wl_interface zwlr_foreign_toplevel_handle_v1_interface;

/// The handle's `state` array holds these (uint32 each).
enum zwlr_foreign_toplevel_handle_v1_state {
    ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MAXIMIZED = 0,
    ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MINIMIZED = 1,
    ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED = 2,
    ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_FULLSCREEN = 3,
};

/// Manager events: 0 toplevel(new_id handle), 1 finished().
struct zwlr_foreign_toplevel_manager_v1_listener {
    void (*toplevel)(void *data, struct zwlr_foreign_toplevel_manager_v1 *manager, struct zwlr_foreign_toplevel_handle_v1 *toplevel);
    void (*finished)(void *data, struct zwlr_foreign_toplevel_manager_v1 *manager);
};

/// Handle events (version 1): 0 title(s), 1 app_id(s), 2 output_enter(o), 3 output_leave(o),
/// 4 state(a), 5 done(), 6 closed().
struct zwlr_foreign_toplevel_handle_v1_listener {
    void (*title)(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, const char *title);
    void (*app_id)(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, const char *app_id);
    void (*output_enter)(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, struct wl_output *output);
    void (*output_leave)(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, struct wl_output *output);
    void (*state)(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, struct wl_array *state);
    void (*done)(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle);
    void (*closed)(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle);
};

static inline int zwlr_foreign_toplevel_manager_v1_add_listener(
    struct zwlr_foreign_toplevel_manager_v1 *manager, const struct zwlr_foreign_toplevel_manager_v1_listener *listener, void *data) {
    return wl_proxy_add_listener((struct wl_proxy *)manager, (void (**)(void))listener, data);
}

/// Request 0, stop(): no more toplevel events; the compositor answers with `finished`.
static inline void zwlr_foreign_toplevel_manager_v1_stop(struct zwlr_foreign_toplevel_manager_v1 *manager) {
    wl_proxy_marshal_flags((struct wl_proxy *)manager, 0, NULL, wl_proxy_get_version((struct wl_proxy *)manager), 0);
}

/// Frees the manager's proxy (after `finished`, or at disconnection).
static inline void zwlr_foreign_toplevel_manager_v1_destroy(struct zwlr_foreign_toplevel_manager_v1 *manager) {
    wl_proxy_destroy((struct wl_proxy *)manager);
}

static inline int zwlr_foreign_toplevel_handle_v1_add_listener(
    struct zwlr_foreign_toplevel_handle_v1 *handle, const struct zwlr_foreign_toplevel_handle_v1_listener *listener, void *data) {
    return wl_proxy_add_listener((struct wl_proxy *)handle, (void (**)(void))listener, data);
}

/// Request 2, set_minimized(): asks the compositor to minimise this toplevel.
static inline void zwlr_foreign_toplevel_handle_v1_set_minimized(struct zwlr_foreign_toplevel_handle_v1 *handle) {
    wl_proxy_marshal_flags((struct wl_proxy *)handle, 2, NULL, wl_proxy_get_version((struct wl_proxy *)handle), 0);
}

/// Request 3, unset_minimized(): asks the compositor to show this toplevel again.
static inline void zwlr_foreign_toplevel_handle_v1_unset_minimized(struct zwlr_foreign_toplevel_handle_v1 *handle) {
    wl_proxy_marshal_flags((struct wl_proxy *)handle, 3, NULL, wl_proxy_get_version((struct wl_proxy *)handle), 0);
}

/// Request 4, activate(seat): asks the compositor to bring this toplevel to the front.
static inline void zwlr_foreign_toplevel_handle_v1_activate(struct zwlr_foreign_toplevel_handle_v1 *handle, struct wl_seat *seat) {
    wl_proxy_marshal_flags((struct wl_proxy *)handle, 4, NULL, wl_proxy_get_version((struct wl_proxy *)handle), 0, seat);
}

/// Request 7, destroy(): the destructor.
static inline void zwlr_foreign_toplevel_handle_v1_destroy(struct zwlr_foreign_toplevel_handle_v1 *handle) {
    wl_proxy_marshal_flags(
        (struct wl_proxy *)handle, 7, NULL, wl_proxy_get_version((struct wl_proxy *)handle), WL_MARSHAL_FLAG_DESTROY);
}

#endif
