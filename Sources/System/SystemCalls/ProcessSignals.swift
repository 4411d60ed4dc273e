import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's one handler for SIGINT, SIGTERM, SIGHUP, SIGUSR1 (`vigil stop --early`) and SIGUSR2 (a
/// command in the session's inbox: `vigil pause`), in
/// two modes:
/// - while a command watches them (`watch`), a signal is one byte (its number) written to the
///   command's pipe, and the command ends cleanly (closing its session or recording);
/// - otherwise, the temporaries of unfinished outputs are unlinked (`CleanupRegistry`) and the
///   process ends as the signal meant (a shell sees 130 for Ctrl-C), unless the signal was ignored
///   when the process started (an ignored SIGHUP under nohup stays ignored).
///
/// One handler, not one per concern: two that saved and restored each other's dispositions lost a
/// signal whenever their order changed. Installed with the first temporary or the first watch, and
/// left in place; only what it does changes, through an atomic read.
public enum ProcessSignals {
    /// The signals handled.
    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2]

    /// The watching command's pipe (write end), or -1.
    private static let watcher = Atomic<Int32>(-1)
    /// Per signal number, whether it was ignored when the handler was installed (read by the handler).
    private static let ignoredAtStart: InlineArray<32, Atomic<Bool>> = InlineArray { _ in Atomic(false) }
    /// Per signal number, whether the handler is in place.
    private static let installed: InlineArray<32, Atomic<Bool>> = InlineArray { _ in Atomic(false) }
    private static let installing = Mutex(())

    /// Hands `handled` signals to `fd` (one byte each, the signal's number) until `stopWatching`;
    /// a signal ignored so far is handled too: the command asked for it.
    public static func watch(writingTo fd: Int32) {
        install(overridingIgnored: true)
        watcher.store(fd, ordering: .sequentiallyConsistent)
    }

    /// Signals clean up and end the process again; returns the pipe's write end for the caller to close.
    public static func stopWatching() -> Int32 { watcher.exchange(-1, ordering: .sequentiallyConsistent) }

    /// Puts the handler in place where the signals have their default action (the cleanup mode
    /// needs it; an ignored signal stays ignored, a command's watch asks for it itself).
    static func installForCleanup() { install(overridingIgnored: false) }

    private static func install(overridingIgnored: Bool) {
        installing.withLock { _ in
            for signo in handled where !installed[Int(signo)].load(ordering: .sequentiallyConsistent) {
                var current = sigaction()
                guard sigaction(signo, nil, &current) == 0, current.sa_flags & SA_SIGINFO == 0 else { continue }
                // SIG_DFL is 0 and SIG_IGN 1; another handler is someone else's: left alone.
                let disposition = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
                let ignored = disposition == 1
                guard disposition == 0 || ignored else { continue }
                if ignored && !overridingIgnored { continue }
                ignoredAtStart[Int(signo)].store(ignored, ordering: .sequentiallyConsistent)
                var action = sigaction()
                action.__sigaction_handler.sa_handler = { signo in ProcessSignals.handle(signo) }
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                sigaction(signo, &action, nil)
                installed[Int(signo)].store(true, ordering: .sequentiallyConsistent)
            }
        }
    }

    /// Async-signal-safe: atomic loads, write(2), unlink(2), signal(2), raise(3).
    private static func handle(_ signo: Int32) {
        let fd = watcher.load(ordering: .sequentiallyConsistent)
        if fd >= 0 {
            var byte = UInt8(truncatingIfNeeded: signo)
            _ = write(fd, &byte, 1)
            return
        }
        // Ignored before a command watched it: ignored again, and the process goes on writing.
        if ignoredAtStart[Int(signo)].load(ordering: .sequentiallyConsistent) { return }
        CleanupRegistry.unlinkAll()
        signal(signo, SIG_DFL)
        raise(signo)
    }
}
