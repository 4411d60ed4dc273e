import DisplayWidth
import SessionViews
import Testing
import VigilCore

/// Wide characters on the live screen (issue 20): truncation counted characters, so a task or a
/// place named in CJK or with an emoji overflowed its line, which the terminal wrapped, and every
/// redraw in place then went one line too far.
@Suite struct WideTextLiveViewTests {
    let t0 = parseRFC3339("2026-03-02T09:00:00Z")!

    @Test(arguments: [30, 44, 60, 80])
    func noLineIsWiderThanTheTerminal(width: Int) {
        let task = "論文を書く・第三章の推敲と引用の確認 🎉📚"
        var view = LiveView(
            task: task, planned: 1500, workplace: VigilConfiguration.Workplace(name: "図書館の三階 ☕", latitude: 0, longitude: 0, radius: 100),
            signals: .builtIn)
        view.apply(SessionEvent(time: t0, kind: .sessionStarted(task: task, plannedSeconds: 1500)), line: "00:00:00  started  task \"\(task)\"")
        view.apply(
            Sample(
                time: t0 + 3, payload: .location(LocationFix(latitude: 1, longitude: 2, mode: .threeD, distanceFromWorkplace: 212, cellSize: 0.01))))
        view.apply(Sample(time: t0 + 5, payload: .input(InputActivity(window: 5, keyPresses: 12, idle: 400))))
        for color in [false, true] {
            let screen = view.lines(.init(color: color, width: width))
            for line in screen {
                // Colour escapes take no column: measured without them.
                let shown = line.replacingEscapes()
                #expect(shown.displayWidth <= width, "\(width) columns: \(shown) is \(shown.displayWidth)")
            }
            let title = screen[0].replacingEscapes()
            // 51 columns of title and 19 of times: cut below 72.
            #expect(title.hasPrefix("Vigil · \"論文") && title.contains("…") == (width < 72), "\(title)")
        }
    }
}

extension String {
    /// Without SGR escapes (ESC [ ... m).
    fileprivate func replacingEscapes() -> String {
        var out = ""
        var inEscape = false
        for c in self {
            if c == "\u{1B}" {
                inEscape = true
            } else if inEscape {
                if c == "m" { inEscape = false }
            } else {
                out.append(c)
            }
        }
        return out
    }
}
