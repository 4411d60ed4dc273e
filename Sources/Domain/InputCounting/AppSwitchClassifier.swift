import VigilCore

/// Recognises app-switching gestures from key events and touchpad swipes, keeping the modifier state
/// it needs. A plain value type with no clock, stepped one event at a time.
///
/// The rules (the common defaults of GNOME, KDE Plasma, Sway/i3-like setups and Windows-style
/// desktops; what a desktop is configured to do is not visible to Vigil):
///
/// - **Alt+Tab** (`altTab`): each *press* of Tab while an Alt key is held and Ctrl is not — so
///   holding Alt and tapping Tab three times to reach the third window counts 3, and Alt+Shift+Tab
///   (going backwards) counts the same way.
/// - **Super** (`superKey`): a Super (logo) key pressed and released with no other key pressed in
///   between, which opens the overview or launcher. Super used as a modifier does not count here.
/// - **Workspace keys** (`workspace`): Super+1…0, Super+PageUp/PageDown, and Ctrl+Alt+Left/Right/Up/Down.
/// - **Tab switching** (`ctrlTab`): Ctrl+Tab, Ctrl+Shift+Tab, Ctrl+PageUp/PageDown (without Alt or Super).
/// - **Swipes** (`swipes`): completed touchpad swipes with three or four (or more) fingers.
///
/// Autorepeat is never a new press: holding Alt+Tab until the key repeats counts one switch.
/// Modifier state is per seat, not per keyboard, as the desktop sees it: Alt on one keyboard and Tab
/// on another still make Alt+Tab.
///
/// `libinput record` obscures most keys by default (Alt, Shift and the digits are written as
/// KEY_A). For such recordings, `obfuscated` makes a held KEY_A followed by Tab count as Alt+Tab;
/// the recording cannot tell it from Shift+Tab. Record with `--show-keycodes` for exact counts.
public struct AppSwitchClassifier {
    public var obfuscated = false

    private var heldAlt = 0
    private var heldCtrl = 0
    private var heldShift = 0
    private var heldMeta = 0
    /// Obscured keys (KEY_A in an obfuscated recording) held down.
    private var heldObscured = 0
    /// A Super key is down and nothing else was pressed since.
    private var superAlone = false

    public init(obfuscated: Bool = false) { self.obfuscated = obfuscated }

    /// Feeds one key event; adds what it completes to `switches`.
    public mutating func key(_ code: UInt16, _ state: KeyState, into switches: inout AppSwitches) {
        typealias C = EvdevCode
        guard state != .repeated else { return }
        let down = state == .pressed
        let delta = down ? 1 : -1
        switch code {
        case C.KEY_LEFTALT, C.KEY_RIGHTALT:
            heldAlt = max(0, heldAlt + delta)
            if down { superAlone = false }
            return
        case C.KEY_LEFTCTRL, C.KEY_RIGHTCTRL:
            heldCtrl = max(0, heldCtrl + delta)
            if down { superAlone = false }
            return
        case C.KEY_LEFTSHIFT, C.KEY_RIGHTSHIFT:
            heldShift = max(0, heldShift + delta)
            if down { superAlone = false }
            return
        case C.KEY_LEFTMETA, C.KEY_RIGHTMETA:
            if down {
                superAlone = heldMeta == 0 && heldAlt == 0 && heldCtrl == 0 && heldShift == 0
                heldMeta += 1
            } else {
                heldMeta = max(0, heldMeta - 1)
                if heldMeta == 0 {
                    if superAlone { switches.superKey += 1 }
                    superAlone = false
                }
            }
            return
        default:
            break
        }
        if obfuscated, code == C.KEY_A {
            heldObscured = max(0, heldObscured + delta)
        }
        guard down else { return }
        superAlone = false

        let alt = heldAlt > 0
        let ctrl = heldCtrl > 0
        let meta = heldMeta > 0
        switch code {
        case C.KEY_TAB:
            if (alt || heldObscured > 0) && !ctrl && !meta {
                switches.altTab += 1
            } else if ctrl && !alt && !meta {
                switches.ctrlTab += 1
            }
        case C.KEY_PAGEUP, C.KEY_PAGEDOWN:
            if meta {
                switches.workspace += 1
            } else if ctrl && !alt {
                switches.ctrlTab += 1
            }
        case C.KEY_1...C.KEY_0:
            if meta && !obfuscated { switches.workspace += 1 }
        case C.KEY_LEFT, C.KEY_RIGHT, C.KEY_UP, C.KEY_DOWN:
            if ctrl && alt && !meta { switches.workspace += 1 }
        default:
            break
        }
    }

    /// Feeds a completed touchpad swipe.
    public func swipe(fingers: Int, into switches: inout AppSwitches) {
        if fingers >= 3 { switches.swipes += 1 }
    }
}
