/// Turns one device's kernel (evdev) events, frame by frame, into `InputEvent`s: what libinput would
/// make of them, simplified to what Vigil counts. Used for `libinput record` files, which hold
/// kernel events, not libinput's.
///
/// - Keys: EV_KEY keyboard codes with value 1 (press), 0 (release), 2 (autorepeat).
/// - Mouse: REL_X/REL_Y counts are taken as 1000 dpi (libinput's default when udev gives no
///   MOUSE_DPI), i.e. already in normalised units. BTN_LEFT…BTN_TASK presses are clicks.
/// - Wheel: REL_WHEEL/REL_HWHEEL detents; a device that also sends the hi-res axes
///   (REL_WHEEL_HI_RES, 120 per detent) is counted from the detents only, so nothing counts twice.
///   A device with only hi-res axes is counted from those.
/// - Touchpad: the finger count comes from BTN_TOOL_FINGER/DOUBLETAP/TRIPLETAP/QUADTAP/QUINTTAP,
///   motion from ABS_X/ABS_Y converted to normalised units with the axis resolution (units/mm).
///   One finger moving is pointer motion; two fingers moving is scrolling; three or more fingers
///   held down and moved at least `swipeThreshold` mm in total, then lifted (or changed to another
///   finger count), is one swipe. Physical clickpad buttons (BTN_LEFT) are clicks; tap-to-click is
///   a libinput feature that compositors switch on and is not reconstructed here.
public struct EvdevTranslator {
    /// Minimum finger travel of a three/four-finger touch to count as a swipe, in mm. libinput
    /// itself needs a few mm before it commits to a gesture; 10 mm keeps resting fingers out.
    public static let swipeThreshold = 10.0

    /// Units per mm on the touchpad axes (from `absinfo`); nil when the device has no ABS_X.
    public var resolution: (x: Double, y: Double)?
    /// The device sends REL_WHEEL/REL_HWHEEL, so hi-res values are redundant.
    public var hasLowResWheel: Bool?

    private var tools: UInt8 = 0  // bit n set: BTN_TOOL for n+1 fingers is down
    private var fingers = 0
    private var absX: Int32?, absY: Int32?
    private var lastX: Int32?, lastY: Int32?
    private var swipeTravelMM = 0.0

    // The frame being collected.
    private var pending: [InputEvent] = []
    private var relX = 0, relY = 0
    private var wheel = 0, hiResWheel = 0
    private var sawLowResWheel = false
    private var touchActivity = false

    public init(resolution: (x: Double, y: Double)? = nil, hasLowResWheel: Bool? = nil) {
        self.resolution = resolution
        self.hasLowResWheel = hasLowResWheel
    }

    /// Feeds one evdev event; at SYN_REPORT the frame's events are appended to `out`.
    public mutating func feed(time: Double, type: UInt16, code: UInt16, value: Int32, into out: inout [TimedInputEvent]) {
        typealias C = EvdevCode
        switch type {
        case C.EV_SYN where code == C.SYN_REPORT:
            endFrame(time: time, into: &out)
        case C.EV_KEY:
            if C.isMouseButton(code) {
                if value == 1 { pending.append(.click) }
            } else if let n = Self.toolFingers(code) {
                if value != 0 { tools |= 1 << (n - 1) } else { tools &= ~(1 << (n - 1)) }
                touchActivity = true
            } else if C.isKeyboardKey(code) {
                let state: KeyState = value == 0 ? .released : value == 2 ? .repeated : .pressed
                pending.append(.key(code: code, state: state))
            } else if value != 0 {
                touchActivity = true  // BTN_TOUCH, pen tools, joystick buttons: presence only
            }
        case C.EV_REL:
            switch code {
            case C.REL_X: relX += Int(value)
            case C.REL_Y: relY += Int(value)
            case C.REL_WHEEL, C.REL_HWHEEL:
                wheel += abs(Int(value))
                sawLowResWheel = true
            case C.REL_WHEEL_HI_RES, C.REL_HWHEEL_HI_RES:
                hiResWheel += abs(Int(value))
            default:
                touchActivity = true
            }
        case C.EV_ABS:
            if code == C.ABS_X { absX = value } else if code == C.ABS_Y { absY = value }
            touchActivity = true
        default:
            break  // EV_MSC scancodes, LEDs, switches: not activity Vigil counts
        }
    }

    private static func toolFingers(_ code: UInt16) -> Int? {
        switch code {
        case EvdevCode.BTN_TOOL_FINGER: 1
        case EvdevCode.BTN_TOOL_DOUBLETAP: 2
        case EvdevCode.BTN_TOOL_TRIPLETAP: 3
        case EvdevCode.BTN_TOOL_QUADTAP: 4
        case EvdevCode.BTN_TOOL_QUINTTAP: 5
        default: nil
        }
    }

    private mutating func endFrame(time: Double, into out: inout [TimedInputEvent]) {
        if relX != 0 || relY != 0 {
            pending.append(.motion(dx: Double(relX), dy: Double(relY)))
        }
        let useLowRes = hasLowResWheel ?? sawLowResWheel
        let v120 = useLowRes ? wheel * 120 : hiResWheel
        if v120 != 0 { pending.append(.scroll(v120: Double(v120), distance: 0)) }

        var touchpadEvent = false
        if touchActivity || tools != 0 || fingers != 0 {
            var touch: [InputEvent] = []
            touchpadEvent = touchpadFrame(into: &touch)
            pending.append(contentsOf: touch)
        }
        if pending.isEmpty, touchActivity, !touchpadEvent { pending.append(.other) }
        for e in pending { out.append(TimedInputEvent(time: time, event: e)) }
        pending.removeAll(keepingCapacity: true)
        relX = 0
        relY = 0
        wheel = 0
        hiResWheel = 0
        sawLowResWheel = false
        touchActivity = false
    }

    /// Finger count and motion at the end of a frame. Returns whether it appended anything.
    private mutating func touchpadFrame(into events: inout [InputEvent]) -> Bool {
        let now = tools == 0 ? 0 : (Int(UInt8.bitWidth) - tools.leadingZeroBitCount)
        if now != fingers {
            if fingers >= 3, swipeTravelMM >= Self.swipeThreshold {
                events.append(.swipe(fingers: fingers))
            } else {
                events.append(.other)
            }
            fingers = now
            swipeTravelMM = 0
            lastX = absX
            lastY = absY  // a new finger count starts a new baseline
            return true
        }
        guard fingers > 0, let x = absX, let y = absY, let lx = lastX, let ly = lastY else {
            lastX = absX
            lastY = absY
            return false
        }
        lastX = x
        lastY = y
        guard x != lx || y != ly else { return false }
        let (rx, ry) = resolution ?? (10, 10)
        let dxMM = Double(x - lx) / rx
        let dyMM = Double(y - ly) / ry
        let unitsPerMM = 1000 / 25.4
        switch fingers {
        case 1:
            events.append(.motion(dx: dxMM * unitsPerMM, dy: dyMM * unitsPerMM))
        case 2:
            events.append(.scroll(v120: 0, distance: (dxMM * dxMM + dyMM * dyMM).squareRoot() * unitsPerMM))
        default:
            swipeTravelMM += (dxMM * dxMM + dyMM * dyMM).squareRoot()
            events.append(.other)
        }
        return true
    }
}
