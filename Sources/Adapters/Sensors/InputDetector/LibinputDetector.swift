import CLibinput
import DetectorSupport
import Foundation
import InputCounting
import Synchronization
import SystemCalls
import VigilCore

/// Keyboard, mouse and touchpad activity from libinput, as one `InputActivity` sample per window.
///
/// The only module that imports `CLibinput`. It opens its own libinput context next to the
/// compositor's (libinput reads the kernel's evdev devices; any number of readers may), with the
/// udev backend on a seat (hot-plugged devices come and go with it) and/or the path backend for
/// device nodes named in the config. One thread owns the contexts: it waits on their fds with
/// poll(2), calls `libinput_dispatch`, and turns events into counts through `InputAggregator`, the
/// same code that replays `libinput record` files.
///
/// Testing: the build machine and CI have no /dev/input and no uinput, so no test can make this
/// thread see a key. Tests run it for real where a machine without devices allows (udev context and
/// seat, no device, no permission) and test counting by replaying `libinput record` files through
/// the same `InputAggregator` (`LibinputRecording`).
///
/// Tapping is left as libinput's default (off) in Vigil's own context, so a touchpad tap is neither a
/// click nor, having no motion, activity; recordings are read the same way.
///
/// Privacy: key codes exist only on that thread, inside the aggregator's modifier state; what leaves
/// is counts and the app-switch classification. Nothing here logs.
///
/// Status samples:
/// - `.available` once at least one device is open (and again after the last one went and another came);
/// - `.permissionDenied` when devices exist but none could be opened (EACCES/EPERM): the usual case
///   for a user outside the `input` group; the detail says how to fix it;
/// - `.unavailable` when there is no input device at all (or the seat or udev cannot be used);
/// - `.lost` when the last device is unplugged; windows stop until one comes back, so an unplugged
///   keyboard does not read as a person who left.
public final class LibinputDetector: Detector, Sendable {
    public let sensor = SensorKind.input
    /// The udev seat to follow, or nil for none.
    public let seat: String?
    /// Device nodes for the path backend, e.g. `/dev/input/by-id/usb-…-event-kbd`.
    public let devicePaths: [String]
    /// Window length in seconds.
    public let window: Double

    /// - Parameters:
    ///   - seat: the udev seat (default `seat0`); nil to use only `devicePaths`.
    ///   - devicePaths: device nodes to open with the path backend, in addition to the seat's devices.
    ///   - window: seconds per `InputActivity` reading, timed on CLOCK_MONOTONIC (libinput's event
    ///     clock); the session stamps each as it takes it, a moment after the window's end.
    public init(
        seat: String? = "seat0", devicePaths: [String] = [], window: Double = 5
    ) {
        precondition(window > 0, "window must be positive")
        self.seat = seat
        self.devicePaths = devicePaths
        self.window = window
    }

    public func readings() -> AsyncStream<SamplePayload> {
        DetectorContext.readings(sensor: .input, threadName: "vigil-libinput") { [self] context in
            self.run(context)
        }
    }

    /// The detector loop, on its own thread: libinput contexts are not thread-safe.
    func run(_ context: DetectorContext) {
        func emitWindow(_ end: Double, _ activity: InputActivity) { context.emit(.input(activity)) }
        func report(_ state: SensorState, _ detail: String) { context.report(state, detail) }
        var reported: SensorState? { context.lastReported }

        // libinput is opened now, not at Vigil's start (CSensorLibraries); without it there is no
        // input to read for the whole session.
        if let problem = SensorLibrary.open([(.libinput, vigil_load_libinput), (.udev, vigil_load_libudev)]) {
            report(.unavailable, problem)
            while !context.isStopped { context.sleep(seconds: 3600) }
            return
        }
        var contexts: [LibinputContext] = []
        var setupProblems: [String] = []
        let access = DeviceAccess()
        if let seat {
            switch LibinputContext.udev(seat: seat, access: access) {
            case .success(let c): contexts.append(c)
            case .failure(let problem): setupProblems.append(problem.detail)
            }
        }
        if !devicePaths.isEmpty {
            switch LibinputContext.path(devicePaths, access: access) {
            case .success(let c): contexts.append(c)
            case .failure(let problem): setupProblems.append(problem.detail)
            }
        }

        var aggregator: InputAggregator?
        var devices = 0
        var names: [String] = []
        var events: [TimedInputEvent] = []

        func drain() {
            for c in contexts {
                c.drain { change in
                    switch change {
                    case .added(let name):
                        devices += 1
                        names.append(name)
                    case .removed(let name):
                        devices = max(0, devices - 1)
                        if let i = names.firstIndex(of: name) { names.remove(at: i) }
                    case .event(let e): events.append(e)
                    }
                }
            }
        }

        func updateStatus() {
            if devices > 0 {
                if aggregator == nil { aggregator = InputAggregator(window: window, origin: monotonicSeconds()) }
                report(.available, "reading \(devices) input device\(devices == 1 ? "" : "s"): \(names.sorted().joined(separator: ", "))")
            } else {
                if let a = aggregator {
                    // Close what was counted so far; no windows while there is nothing to read.
                    var a = a
                    a.close(upTo: monotonicSeconds(), emit: emitWindow)
                    aggregator = nil
                }
                if reported == .available {
                    report(.lost, "the last input device went away; waiting for one to be plugged in")
                } else if let denied = access.deniedDetail {
                    report(.permissionDenied, denied)
                } else {
                    report(.unavailable, Self.noDeviceDetail(seat: seat, paths: devicePaths, access: access, problems: setupProblems))
                }
            }
        }

        drain()
        updateStatus()
        events.removeAll()

        var fds = contexts.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        // The session's stop pipe is polled with the devices, so nothing wakes this on a timer: a
        // device's events, the end of an input window, or the end of the session.
        let stop = context.stopDescriptor
        if stop >= 0, !fds.isEmpty { fds.append(pollfd(fd: stop, events: Int16(POLLIN), revents: 0)) }
        while !context.isStopped {
            var timeout = stop >= 0 ? Int.max : 250
            if let a = aggregator {
                timeout = max(0, min(timeout, Int(((a.currentWindowEnd - monotonicSeconds()) * 1000).rounded(.up))))
            }
            if fds.isEmpty {
                // No libinput context at all: nothing will ever come; wait for the session's end.
                context.sleep(seconds: 3600)
                continue
            }
            for i in fds.indices { fds[i].revents = 0 }
            _ = poll(&fds, nfds_t(fds.count), timeout == Int.max ? -1 : Int32(clamping: timeout))
            let before = devices
            drain()
            if var a = aggregator {
                for e in events { a.add(e, emit: emitWindow) }
                a.close(upTo: monotonicSeconds(), emit: emitWindow)
                aggregator = a
            }
            events.removeAll(keepingCapacity: true)
            if devices != before || (devices > 0) != (reported == .available) { updateStatus() }
        }
    }

    static func noDeviceDetail(seat: String?, paths: [String], access: DeviceAccess, problems: [String]) -> String {
        var parts: [String] = problems
        if let seat, problems.isEmpty {
            parts.append(
                "libinput found no keyboard, mouse or touchpad on seat \"\(seat)\" (no devices under /dev/input: a headless machine, or a container without them)"
            )
        }
        parts.append(contentsOf: access.failures.map(\.description))
        if parts.isEmpty { parts.append("no seat and no device paths are configured") }
        return "no input devices: " + parts.joined(separator: "; ") + ". Input activity will not be measured; the other sensors keep running."
    }
}

/// What open_restricted saw: the evidence that tells "no permission" from "no device".
final class DeviceAccess {
    private(set) var opened = 0
    private(set) var failures: [LibinputError] = []

    /// `result` is what open_restricted returns: a file descriptor, or minus errno.
    func record(path: String, result: Int32) {
        if result >= 0 { opened += 1 } else { failures.append(LibinputError(path: path, result: result)) }
    }

    /// Devices that exist but could not be opened for lack of permission.
    var denied: [String] { failures.filter(\.isPermissionDenied).map(\.path) }

    /// The permission-denied sentence, naming the remedy, when that is why nothing could be opened.
    var deniedDetail: String? {
        let d = denied
        guard let first = d.first else { return nil }
        let which = d.count == 1 ? first : "\(first) and \(d.count - 1) more"
        // The `input` group lets every program of the user read every keystroke: not something to
        // recommend for idle detection, which the desktop gives without it.
        return "cannot read the input devices (\(which): permission denied). That is normal: idle time and the screen "
            + "lock come from the desktop (see the desktop sensor). Only key and gesture counts need libinput, which needs "
            + "the `input` group (it lets every program you run read every key you press): if you want them, "
            + "`sudo usermod -aG input $USER`, then log out and back in; otherwise set input.enabled: false."
    }
}

/// One libinput context and what it needs alive: the udev handle and the interface table.
/// Frees them in `deinit`; the C callbacks find the `DeviceAccess` through `Unmanaged`.
final class LibinputContext {
    struct SetupProblem: Error { var detail: String }

    enum Change {
        case added(String)
        case removed(String)
        case event(TimedInputEvent)
    }

    private let li: OpaquePointer
    private let udev: OpaquePointer?
    private let interface: UnsafeMutablePointer<libinput_interface>
    private let access: Unmanaged<DeviceAccess>

    private init(li: OpaquePointer, udev: OpaquePointer?, interface: UnsafeMutablePointer<libinput_interface>, access: Unmanaged<DeviceAccess>) {
        self.li = li
        self.udev = udev
        self.interface = interface
        self.access = access
    }

    deinit {
        libinput_unref(li)
        if let udev { udev_unref(udev) }
        interface.deallocate()
        access.release()
    }

    var fd: Int32 { libinput_get_fd(li) }

    private static func makeInterface() -> UnsafeMutablePointer<libinput_interface> {
        let interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        interface.initialize(
            to: libinput_interface(
                open_restricted: { path, flags, userData in
                    guard let path else { return -EINVAL }
                    let result = vigil_open_device(path, flags)
                    if let userData {
                        Unmanaged<DeviceAccess>.fromOpaque(userData).takeUnretainedValue().record(path: String(cString: path), result: result)
                    }
                    return result
                },
                close_restricted: { fd, _ in _ = close(fd) }))
        return interface
    }

    /// The udev backend on `seat`.
    static func udev(seat: String, access: DeviceAccess) -> Result<LibinputContext, SetupProblem> {
        let udev: OpaquePointer
        do {
            udev = try syscallPointer("udev_new", restartable: false) { udev_new() }
        } catch {
            return .failure(SetupProblem(detail: "udev is not available (udev_new failed: \(error.reason))"))
        }
        let interface = makeInterface()
        let box = Unmanaged.passRetained(access)
        guard let li = libinput_udev_create_context(interface, box.toOpaque(), udev) else {
            udev_unref(udev)
            interface.deallocate()
            box.release()
            return .failure(SetupProblem(detail: "libinput could not create a udev context"))
        }
        let context = LibinputContext(li: li, udev: udev, interface: interface, access: box)
        vigil_libinput_quiet(li)
        guard libinput_udev_assign_seat(li, seat) == 0 else {
            return .failure(SetupProblem(detail: "libinput could not use seat \"\(seat)\" (is udev running?)"))
        }
        return .success(context)
    }

    /// The path backend with the given device nodes; nodes that cannot be opened are left out
    /// (the `DeviceAccess` says why).
    static func path(_ paths: [String], access: DeviceAccess) -> Result<LibinputContext, SetupProblem> {
        let interface = makeInterface()
        let box = Unmanaged.passRetained(access)
        guard let li = libinput_path_create_context(interface, box.toOpaque()) else {
            interface.deallocate()
            box.release()
            return .failure(SetupProblem(detail: "libinput could not create a path context"))
        }
        let context = LibinputContext(li: li, udev: nil, interface: interface, access: box)
        vigil_libinput_quiet(li)
        for p in paths where libinput_path_add_device(li, p) == nil {
            // libinput looks the node up in sysfs before it opens it, so a missing node, one without
            // a kernel device behind it, or one it cannot open may all end here without a call to
            // open_restricted. Open it ourselves to say which: the errno is the message.
            if !access.failures.contains(where: { $0.path == p }) {
                let fd = vigil_open_device(p, O_RDONLY | O_NONBLOCK)
                if fd >= 0 {
                    _ = close(fd)
                    access.record(path: p, result: -ENODEV)  // opens, but libinput does not take it
                } else {
                    access.record(path: p, result: fd)
                }
            }
        }
        return .success(context)
    }

    /// Reads what is pending and hands over every event Vigil uses.
    func drain(_ handle: (Change) -> Void) {
        _ = libinput_dispatch(li)
        while let e = libinput_get_event(li) {
            defer { libinput_event_destroy(e) }
            if let change = Self.convert(e) { handle(change) }
        }
    }

    /// One libinput event in Vigil's terms. Key codes go no further than the `TimedInputEvent`,
    /// which stays inside this module.
    private static func convert(_ e: OpaquePointer) -> Change? {
        let type = libinput_event_get_type(e)
        func seconds(_ usec: UInt64) -> Double { Double(usec) / 1e6 }
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED, LIBINPUT_EVENT_DEVICE_REMOVED:
            let device = libinput_event_get_device(e)
            let name = device.flatMap { libinput_device_get_name($0) }.map { String(cString: $0) } ?? "unnamed device"
            return type == LIBINPUT_EVENT_DEVICE_ADDED ? .added(name) : .removed(name)
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            guard let k = libinput_event_get_keyboard_event(e) else { return nil }
            let code = libinput_event_keyboard_get_key(k)
            guard code <= UInt32(UInt16.max) else { return nil }
            let state: KeyState = libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED ? .pressed : .released
            return .event(
                TimedInputEvent(
                    time: seconds(libinput_event_keyboard_get_time_usec(k)),
                    event: .key(code: UInt16(code), state: state)))
        case LIBINPUT_EVENT_POINTER_MOTION:
            guard let p = libinput_event_get_pointer_event(e) else { return nil }
            return .event(
                TimedInputEvent(
                    time: seconds(libinput_event_pointer_get_time_usec(p)),
                    event: .motion(
                        dx: libinput_event_pointer_get_dx_unaccelerated(p),
                        dy: libinput_event_pointer_get_dy_unaccelerated(p))))
        case LIBINPUT_EVENT_POINTER_BUTTON:
            guard let p = libinput_event_get_pointer_event(e),
                libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED
            else { return nil }
            return .event(TimedInputEvent(time: seconds(libinput_event_pointer_get_time_usec(p)), event: .click))
        case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL, LIBINPUT_EVENT_POINTER_SCROLL_FINGER, LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
            guard let p = libinput_event_get_pointer_event(e) else { return nil }
            var v120 = 0.0
            var distance = 0.0
            for axis in [LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL, LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL]
            where libinput_event_pointer_has_axis(p, axis) != 0 {
                if type == LIBINPUT_EVENT_POINTER_SCROLL_WHEEL {
                    v120 += abs(libinput_event_pointer_get_scroll_value_v120(p, axis))
                } else {
                    distance += abs(libinput_event_pointer_get_scroll_value(p, axis))
                }
            }
            return .event(
                TimedInputEvent(
                    time: seconds(libinput_event_pointer_get_time_usec(p)),
                    event: .scroll(v120: v120, distance: distance)))
        case LIBINPUT_EVENT_GESTURE_SWIPE_END:
            guard let g = libinput_event_get_gesture_event(e) else { return nil }
            let time = seconds(libinput_event_gesture_get_time_usec(g))
            if libinput_event_gesture_get_cancelled(g) != 0 {
                return .event(TimedInputEvent(time: time, event: .other))
            }
            return .event(TimedInputEvent(time: time, event: .swipe(fingers: Int(libinput_event_gesture_get_finger_count(g)))))
        case LIBINPUT_EVENT_SWITCH_TOGGLE:
            return nil  // a lid or tablet-mode switch is the machine, not the person
        case LIBINPUT_EVENT_POINTER_AXIS:
            // Deprecated since libinput 1.19 and sent alongside the SCROLL_* events above: reading
            // it too would count every scroll twice.
            return nil
        default:
            // Touch, tablet, pinch and other events: presence, nothing to count.
            return .event(TimedInputEvent(time: monotonicSeconds(), event: .other))
        }
    }
}
