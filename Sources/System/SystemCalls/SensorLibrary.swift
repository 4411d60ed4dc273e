/// A sensor's C library (libpulse, libinput, libxcb, libdbus, libgps…), which Vigil opens when the
/// sensor is first used rather than at start-up: a command that opens no sensor starts without
/// loading them and the thirty libraries they bring (CSensorLibraries, issue 18).
public struct SensorLibrary: Sendable {
    /// The name it is opened by: libpulse.so.0.
    public let soname: String
    /// Debian's and Ubuntu's package that installs it.
    public let package: String

    public init(_ soname: String, package: String) {
        self.soname = soname
        self.package = package
    }

    public static let pulse = SensorLibrary("libpulse.so.0", package: "libpulse0")
    public static let pulseSimple = SensorLibrary("libpulse-simple.so.0", package: "libpulse0")
    public static let libinput = SensorLibrary("libinput.so.10", package: "libinput10")
    public static let udev = SensorLibrary("libudev.so.1", package: "libudev1")
    public static let xcb = SensorLibrary("libxcb.so.1", package: "libxcb1")
    public static let xcbScreensaver = SensorLibrary("libxcb-screensaver.so.0", package: "libxcb-screensaver0")
    public static let dbus = SensorLibrary("libdbus-1.so.3", package: "libdbus-1-3")
    public static let gps = SensorLibrary("libgps", package: "libgps of your gpsd version (libgps28 on Debian 12)")

    /// Opens it through its loader (`vigil_load_libpulse`…; at once when it is already open): nil,
    /// or why it cannot be, saying what to install.
    public func open(_ loader: (UnsafeMutablePointer<CChar>?, Int) -> Int32) -> String? {
        var reason = [CChar](repeating: 0, count: 512)
        let status = reason.withUnsafeMutableBufferPointer { loader($0.baseAddress, $0.count) }
        guard status != 0 else { return nil }
        let why = cText(reason)
        return "\(soname) could not be loaded (\(why)); install the package \(package)"
    }

    /// The first of `libraries` that cannot be opened, and why; nil when all are open.
    public static func open(_ libraries: [(SensorLibrary, (UnsafeMutablePointer<CChar>?, Int) -> Int32)]) -> String? {
        for (library, loader) in libraries { if let problem = library.open(loader) { return problem } }
        return nil
    }
}
