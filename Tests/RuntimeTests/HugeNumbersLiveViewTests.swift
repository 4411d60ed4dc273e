import SessionViews
import Testing
import VigilCore

/// Huge numbers on the live screen (issue 17): it showed a level of 1e19 dBFS with `Int(_:)` and
/// stopped the session. Readings are held to their ranges before they get here; the screen itself
/// no longer traps on whatever it is handed.
@Suite struct HugeNumbersLiveViewTests {
    let t0 = parseRFC3339("2026-03-02T09:00:00Z")!

    @Test(arguments: [1e19, -1e19, Double.infinity, -Double.infinity, Double.nan, Double.greatestFiniteMagnitude])
    func theScreenShowsAnyNumberWithoutATrap(x: Double) {
        var view = LiveView(task: "essay", planned: 1500, workplace: nil, signals: .builtIn)
        view.apply(SessionEvent(time: t0, kind: .sessionStarted(task: "essay", plannedSeconds: 1500)), line: nil)
        view.apply(Sample(time: t0 + 1, payload: .audio(AudioLevel(rms: x, peak: x, shortTermLUFS: x))))
        view.apply(Sample(time: t0 + 2, payload: .audio(AudioLevel(rms: x, peak: x))))
        view.apply(
            Sample(
                time: t0 + 3,
                payload: .location(LocationFix(latitude: 1, longitude: 2, mode: .threeD, distanceFromWorkplace: x, cellSize: 0.01))))
        view.apply(Sample(time: t0 + 5, payload: .input(InputActivity(window: 5, keyPresses: 999_999_999, idle: x))))
        view.apply(Sample(time: t0 + 6, payload: .desktop(.idle(x))))
        for width in [20, 80, 200] {
            let screen = view.lines(.init(color: width == 80, width: width))
            #expect(screen.contains { $0.hasPrefix("Audio") }, "\(screen)")
        }
        #expect(view.statusLine().contains("audio "))
        #expect(sparkline([x, 0.5, -x], width: 5).count == 5)
    }
}
