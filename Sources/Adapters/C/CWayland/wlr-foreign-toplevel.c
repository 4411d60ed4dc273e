// The interface tables of wlr-foreign-toplevel-management-unstable-v1 at version 1, written from
// the protocol's documentation (see include/wlr-foreign-toplevel-client.h for why by hand). Each
// message: its name, its signature (s string, o object, n new_id, a array, i int) and the
// interfaces of its object arguments.
#include <stddef.h>
#include <wayland-client.h>

extern const struct wl_interface zwlr_foreign_toplevel_handle_v1_interface;

static const struct wl_interface *vigil_ftl_new_handle[] = {&zwlr_foreign_toplevel_handle_v1_interface};
static const struct wl_interface *vigil_ftl_output[] = {&wl_output_interface};
static const struct wl_interface *vigil_ftl_seat[] = {&wl_seat_interface};
static const struct wl_interface *vigil_ftl_rectangle[] = {&wl_surface_interface, NULL, NULL, NULL, NULL};
static const struct wl_interface *vigil_ftl_none[] = {NULL};

static const struct wl_message vigil_ftl_manager_requests[] = {
    {"stop", "", vigil_ftl_none},
};
static const struct wl_message vigil_ftl_manager_events[] = {
    {"toplevel", "n", vigil_ftl_new_handle},
    {"finished", "", vigil_ftl_none},
};

__attribute__((visibility("hidden"))) const struct wl_interface zwlr_foreign_toplevel_manager_v1_interface = {
    "zwlr_foreign_toplevel_manager_v1", 1, 1, vigil_ftl_manager_requests, 2, vigil_ftl_manager_events,
};

static const struct wl_message vigil_ftl_handle_requests[] = {
    {"set_maximized", "", vigil_ftl_none},
    {"unset_maximized", "", vigil_ftl_none},
    {"set_minimized", "", vigil_ftl_none},
    {"unset_minimized", "", vigil_ftl_none},
    {"activate", "o", vigil_ftl_seat},
    {"close", "", vigil_ftl_none},
    {"set_rectangle", "oiiii", vigil_ftl_rectangle},
    {"destroy", "", vigil_ftl_none},
};
static const struct wl_message vigil_ftl_handle_events[] = {
    {"title", "s", vigil_ftl_none},
    {"app_id", "s", vigil_ftl_none},
    {"output_enter", "o", vigil_ftl_output},
    {"output_leave", "o", vigil_ftl_output},
    {"state", "a", vigil_ftl_none},
    {"done", "", vigil_ftl_none},
    {"closed", "", vigil_ftl_none},
};

__attribute__((visibility("hidden"))) const struct wl_interface zwlr_foreign_toplevel_handle_v1_interface = {
    "zwlr_foreign_toplevel_handle_v1", 1, 8, vigil_ftl_handle_requests, 7, vigil_ftl_handle_events,
};
