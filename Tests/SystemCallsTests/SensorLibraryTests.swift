import SystemCalls
import Testing

@Suite struct SensorLibraryTests {
    @Test func aLibraryThatCannotBeOpenedSaysWhyAndWhatToInstall() {
        let problem = SensorLibrary.pulse.open { error, size in
            // What dlerror says of a missing library, as the C loader copies it.
            let text = Array("libpulse.so.0: cannot open shared object file: No such file or directory".utf8CString)
            for (i, c) in text.prefix(size).enumerated() { error?[i] = c }
            error?[min(text.count, size) - 1] = 0
            return -1
        }
        #expect(
            problem
                == "libpulse.so.0 could not be loaded (libpulse.so.0: cannot open shared object file: No such file or directory); install the package libpulse0"
        )
    }

    @Test func anOpenLibraryIsNoProblemAndTheFirstMissingOneIsNamed() {
        let opened = SensorLibrary.open([(.xcb, { _, _ in 0 }), (.xcbScreensaver, { _, _ in 0 })])
        let missing = SensorLibrary.open([
            (.xcb, { _, _ in 0 }),
            (
                .xcbScreensaver,
                { e, _ in
                    e?[0] = 0
                    return -1
                }
            ),
        ])
        #expect(opened == nil)
        #expect(missing?.hasPrefix("libxcb-screensaver.so.0 could not be loaded") == true, "\(missing ?? "nil")")
    }
}
