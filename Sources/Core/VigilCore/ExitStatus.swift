/// How a command ends when it fails: sysexits(3)'s codes, so that a script can tell a bad file
/// from a missing service or a full disk.
public enum ExitStatus: Int32, Sendable {
    case failure = 1
    /// A bad argument found where it is used (ArgumentParser's own are 64 too).
    case usage = 64
    /// A file's content cannot be used (EX_DATAERR).
    case dataError = 65
    /// A service Vigil needs is not there (EX_UNAVAILABLE).
    case unavailable = 69
    /// A file to write cannot be created (EX_CANTCREAT).
    case cannotCreate = 73
    /// A read or write failed (EX_IOERR).
    case ioError = 74
    /// Try again later: the sync server cannot be reached (EX_TEMPFAIL).
    case tempFail = 75
    /// The sync server refused the user or password (EX_NOPERM).
    case noPermission = 77
    /// Sync is not set up, or its settings are wrong (EX_CONFIG).
    case configuration = 78
}

/// An error whose description is already the words for the person (on one line each, inert in a
/// terminal, with what to do), and the status a command ends with. The command line prints any
/// such error as it stands: the modules that raise them need not be known to it.
public protocol PersonFacingError: Error, CustomStringConvertible {
    var exitStatus: ExitStatus { get }
}
