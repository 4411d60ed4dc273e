/// The input events Vigil cares about, as both the live libinput path and the recording reader
/// produce them. Internal on purpose: a key code lives only inside this module, and the only thing
/// that leaves it is an `InputActivity` of counts (see `InputAggregator`).
public enum InputEvent: Equatable {
    /// A key on a keyboard (not a mouse button). Key codes are Linux evdev codes
    /// (`linux/input-event-codes.h`), which is also what libinput reports.
    case key(code: UInt16, state: KeyState)
    /// Relative pointer motion in libinput's normalised units (1/1000 inch, about a pixel).
    case motion(dx: Double, dy: Double)
    /// A mouse or touchpad button was pressed (releases are not events of their own).
    case click
    /// Scrolling. `wheel` counts detents in 1/120 units (libinput's v120, the kernel's hi-res
    /// wheel); `distance` is finger or continuous scrolling in normalised units.
    case scroll(v120: Double, distance: Double)
    /// A completed multi-finger touchpad swipe.
    case swipe(fingers: Int)
    /// Something happened on an input device that is none of the above (a touch without motion,
    /// a pinch, a tablet pen): it counts as presence, not as anything else.
    case other
}

public enum KeyState: Equatable {
    case pressed
    case released
    /// Kernel autorepeat (evdev value 2). libinput never reports repeats; recordings contain them.
    case repeated
}

/// An event with its time in seconds on the source's clock (CLOCK_MONOTONIC for the live path, the
/// offset from the recording's start for a recording).
public struct TimedInputEvent: Equatable {
    public var time: Double
    public var event: InputEvent

    public init(time: Double, event: InputEvent) {
        self.time = time
        self.event = event
    }
}

/// The evdev codes the detector looks at, from `linux/input-event-codes.h`.
public enum EvdevCode {
    // Event types.
    public static let EV_SYN: UInt16 = 0x00
    public static let EV_KEY: UInt16 = 0x01
    public static let EV_REL: UInt16 = 0x02
    public static let EV_ABS: UInt16 = 0x03
    public static let SYN_REPORT: UInt16 = 0

    // Keys the app-switch classifier knows.
    public static let KEY_1: UInt16 = 2
    public static let KEY_0: UInt16 = 11
    public static let KEY_TAB: UInt16 = 15
    public static let KEY_LEFTCTRL: UInt16 = 29
    public static let KEY_A: UInt16 = 30
    public static let KEY_LEFTSHIFT: UInt16 = 42
    public static let KEY_RIGHTSHIFT: UInt16 = 54
    public static let KEY_LEFTALT: UInt16 = 56
    public static let KEY_CAPSLOCK: UInt16 = 58
    public static let KEY_RIGHTCTRL: UInt16 = 97
    public static let KEY_RIGHTALT: UInt16 = 100
    public static let KEY_UP: UInt16 = 103
    public static let KEY_PAGEUP: UInt16 = 104
    public static let KEY_LEFT: UInt16 = 105
    public static let KEY_RIGHT: UInt16 = 106
    public static let KEY_DOWN: UInt16 = 108
    public static let KEY_PAGEDOWN: UInt16 = 109
    public static let KEY_LEFTMETA: UInt16 = 125
    public static let KEY_RIGHTMETA: UInt16 = 126

    // Buttons: 0x100...0x15f are BTN_* (mouse, joystick, digitiser), 0x2c0... BTN_TRIGGER_HAPPY.
    public static let BTN_MISC: UInt16 = 0x100
    public static let BTN_LEFT: UInt16 = 0x110
    public static let BTN_TASK: UInt16 = 0x117
    public static let BTN_TOOL_FINGER: UInt16 = 0x145
    public static let BTN_TOUCH: UInt16 = 0x14a
    public static let BTN_TOOL_DOUBLETAP: UInt16 = 0x14d
    public static let BTN_TOOL_TRIPLETAP: UInt16 = 0x14e
    public static let BTN_TOOL_QUADTAP: UInt16 = 0x14f
    public static let BTN_TOOL_QUINTTAP: UInt16 = 0x148
    public static let KEY_OK: UInt16 = 0x160
    public static let BTN_TRIGGER_HAPPY: UInt16 = 0x2c0
    public static let BTN_TRIGGER_HAPPY40: UInt16 = 0x2e7

    // Relative axes.
    public static let REL_X: UInt16 = 0x00
    public static let REL_Y: UInt16 = 0x01
    public static let REL_HWHEEL: UInt16 = 0x06
    public static let REL_WHEEL: UInt16 = 0x08
    public static let REL_WHEEL_HI_RES: UInt16 = 0x0b
    public static let REL_HWHEEL_HI_RES: UInt16 = 0x0c

    // Absolute axes (touchpads report the first finger on ABS_X/ABS_Y as well as per slot).
    public static let ABS_X: UInt16 = 0x00
    public static let ABS_Y: UInt16 = 0x01

    /// A keyboard key rather than a button: what counts as a key press.
    public static func isKeyboardKey(_ code: UInt16) -> Bool {
        (code > 0 && code < BTN_MISC) || (code >= KEY_OK && !(BTN_TRIGGER_HAPPY...BTN_TRIGGER_HAPPY40).contains(code))
    }

    /// A mouse button (left, right, middle, side, extra, forward, back, task): what counts as a click.
    public static func isMouseButton(_ code: UInt16) -> Bool { (BTN_LEFT...BTN_TASK).contains(code) }
}
