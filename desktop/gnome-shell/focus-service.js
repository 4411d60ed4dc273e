// The body of Vigil's GNOME Shell extension (uuid vigil@vigil.dev), shared by its two flavours:
// GNOME Shell 43 and 44 load extensions as legacy `imports` scripts, 45 and later as ES modules
// (scripts/embed-gnome-extension.py puts this body between each flavour's head and tail). It
// imports nothing: Gio, GLib and the shell's `main` are handed to it.
//
// It tells Vigil which window is in front, which GNOME on Wayland tells no other program: on the
// session bus, under GNOME Shell's own name (org.gnome.Shell), the object /org/vigil/Focus with
// the interface org.vigil.Focus1 (docs/desktop.md):
//   Current() -> (app_id, wm_class, title)  the window in front now ("", "", "" for none)
//   Changed(app_id, wm_class, title)        a signal at each change of the window in front or of
//                                           its title
//   Activate(id) -> found                   brings the window of that app id or WM class to the
//                                           front (the tests' focus changes)
//   Windows() -> a(tsssbb)                  the normal windows, the most recently used first: id,
//                                           app id, WM class, title, focused, minimised (Version 2)
//   ActivateWindow(id) -> found             brings window `id` to the front (Vigil's refocus)
//   Minimize(id) -> done                    minimises window `id` (Vigil's hide; never closes it)
//   Unminimize(id) -> done                  shows minimised window `id` again behind the window in
//                                           front, which keeps the focus; false when it is gone or
//                                           no longer minimised (the person brought it back)
//   Dim(id, on) -> found                    dims window `id` (opacity 40 %) or brightens it again
//   Version (property, u)                   this interface's revision: 2
// The title is for Vigil's matching rules; Vigil drops it after matching unless the person opts
// in. Nothing is polled: the shell's own focus and title notifications drive it.

const VIGIL_FOCUS_INTERFACE = `<node>
  <interface name="org.vigil.Focus1">
    <method name="Current">
      <arg type="s" direction="out" name="app_id"/>
      <arg type="s" direction="out" name="wm_class"/>
      <arg type="s" direction="out" name="title"/>
    </method>
    <method name="Activate">
      <arg type="s" direction="in" name="id"/>
      <arg type="b" direction="out" name="found"/>
    </method>
    <method name="Windows">
      <arg type="a(tsssbb)" direction="out" name="windows"/>
    </method>
    <method name="ActivateWindow">
      <arg type="t" direction="in" name="id"/>
      <arg type="b" direction="out" name="found"/>
    </method>
    <method name="Minimize">
      <arg type="t" direction="in" name="id"/>
      <arg type="b" direction="out" name="done"/>
    </method>
    <method name="Unminimize">
      <arg type="t" direction="in" name="id"/>
      <arg type="b" direction="out" name="done"/>
    </method>
    <method name="Dim">
      <arg type="t" direction="in" name="id"/>
      <arg type="b" direction="in" name="on"/>
      <arg type="b" direction="out" name="found"/>
    </method>
    <signal name="Changed">
      <arg type="s" name="app_id"/>
      <arg type="s" name="wm_class"/>
      <arg type="s" name="title"/>
    </signal>
    <property name="Version" type="u" access="read"/>
  </interface>
</node>`;

class VigilFocusService {
    constructor(Gio, GLib, Main) {
        this._Gio = Gio;
        this._GLib = GLib;
        this._Main = Main;
        this._window = null;
        this._titleHandler = 0;
    }

    get Version() {
        return 2;
    }

    enable() {
        this._dbus = this._Gio.DBusExportedObject.wrapJSObject(VIGIL_FOCUS_INTERFACE, this);
        this._dbus.export(this._Gio.DBus.session, '/org/vigil/Focus');
        this._focusHandler = global.display.connect('notify::focus-window', () => this._focusChanged());
        this._focusChanged();
    }

    disable() {
        global.display.disconnect(this._focusHandler);
        this._follow(null);
        this._dbus.unexport();
        this._dbus = null;
    }

    // The three strings Vigil reads for a window: its application id (GTK's, else the sandbox's),
    // its WM class (on Wayland the xdg-shell app_id) and its title.
    _describe(w) {
        if (!w)
            return ['', '', ''];
        return [w.get_gtk_application_id() || w.get_sandboxed_app_id() || '', w.get_wm_class() || '', w.get_title() || ''];
    }

    // Watches the title of the window in front only: a browser's tab changes its title, not the focus.
    _follow(w) {
        if (this._window && this._titleHandler)
            this._window.disconnect(this._titleHandler);
        this._window = w;
        this._titleHandler = w ? w.connect('notify::title', () => this._emit()) : 0;
    }

    _focusChanged() {
        this._follow(global.display.focus_window);
        this._emit();
    }

    _emit() {
        if (this._dbus)
            this._dbus.emit_signal('Changed', new this._GLib.Variant('(sss)', this._describe(this._window)));
    }

    Current() {
        return this._describe(global.display.focus_window);
    }

    // Only a window already shown: mutter shows a new window (and decides whether it takes the
    // focus) a moment after its actor exists, and a window activated before that would lose the
    // focus to it again.
    Activate(id) {
        const actor = global.get_window_actors().find(a => {
            const [appId, wmClass] = this._describe(a.meta_window);
            return id !== '' && a.visible && (appId === id || wmClass === id);
        });
        if (!actor)
            return false;
        this._Main.activateWindow(actor.meta_window);
        return true;
    }

    // The tab list of every workspace (Meta.TabList.NORMAL is 0): mutter's own most-recently-used
    // order, the one Alt+Tab shows.
    _windows() {
        return global.display.get_tab_list(0, null);
    }

    _windowById(id) {
        return this._windows().find(w => w.get_id() === id) || null;
    }

    Windows() {
        const focus = global.display.focus_window;
        return this._windows().map(w => {
            const [appId, wmClass, title] = this._describe(w);
            return [w.get_id(), appId, wmClass, title, w === focus, w.minimized];
        });
    }

    ActivateWindow(id) {
        const w = this._windowById(id);
        if (!w)
            return false;
        this._Main.activateWindow(w);
        return true;
    }

    Minimize(id) {
        const w = this._windowById(id);
        if (!w || !w.can_minimize())
            return false;
        w.minimize();
        return true;
    }

    Unminimize(id) {
        const w = this._windowById(id);
        if (!w || !w.minimized)
            return false;
        const focus = global.display.focus_window;
        w.unminimize();
        // Behind the window the person is on, which keeps the focus.
        if (focus && focus !== w)
            focus.raise();
        return true;
    }

    Dim(id, on) {
        const w = this._windowById(id);
        const actor = w ? w.get_compositor_private() : null;
        if (!actor)
            return false;
        actor.opacity = on ? 102 : 255;
        return true;
    }
}
