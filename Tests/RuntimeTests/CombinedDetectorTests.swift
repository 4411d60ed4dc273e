import DetectorSupport
import Testing
import VigilCore

/// A detector that says what it is told, in order, then stops.
private struct Scripted: Detector {
    let sensor = SensorKind.desktop
    let script: [SamplePayload]
    func readings() -> AsyncStream<SamplePayload> {
        AsyncStream { c in
            for s in script { c.yield(s) }
            c.finish()
        }
    }
}

@Suite struct CombinedDetectorTests {
    func status(_ state: SensorState, _ detail: String) -> SamplePayload {
        .status(SensorStatus(sensor: .desktop, state: state, detail: detail))
    }

    @Test func readingsPassAndTheStatusIsThePartsTogether() async {
        let idle = Scripted(script: [status(.available, "idle from X11 :5"), .desktop(.idle(3)), status(.lost, "X11 :5 went away")])
        let logind = Scripted(script: [status(.unavailable, "logind: no system bus")])
        var got: [SamplePayload] = []
        for await s in CombinedDetector(sensor: .desktop, parts: [idle, logind]).readings() { got.append(s) }
        let statuses = got.compactMap { if case .status(let s) = $0 { s } else { nil } }
        let readings = got.filter { if case .desktop = $0 { true } else { false } }
        #expect(readings.count == 1)
        // The order between the two parts is not fixed; what is said is: each status only once both
        // parts spoke (so it names both), and in the end lost, as the X11 part went.
        #expect(!statuses.isEmpty)
        #expect(statuses.allSatisfy { $0.detail.hasSuffix("; logind: no system bus") }, "\(statuses)")
        #expect(statuses.last == SensorStatus(sensor: .desktop, state: .lost, detail: "X11 :5 went away; logind: no system bus"))
    }

    @Test func nothingAvailableIsTheFirstPartsState() async {
        let a = Scripted(script: [status(.unavailable, "no X display")])
        let b = Scripted(script: [status(.unavailable, "logind: no system bus")])
        var statuses: [SensorStatus] = []
        for await s in CombinedDetector(sensor: .desktop, parts: [a, b]).readings() {
            if case .status(let st) = s { statuses.append(st) }
        }
        #expect(statuses == [SensorStatus(sensor: .desktop, state: .unavailable, detail: "no X display; logind: no system bus")])
    }
}
