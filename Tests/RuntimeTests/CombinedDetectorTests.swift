import DetectorSupport
import Testing
import VigilCore
import VigilTesting

/// A detector that says what it is told, in order, then stops.
private struct Scripted: Detector {
    let sensor = SensorKind.desktop
    let samples_: [Sample]
    func samples() -> AsyncStream<Sample> {
        AsyncStream { c in
            for s in samples_ { c.yield(s) }
            c.finish()
        }
    }
}

@Suite struct CombinedDetectorTests {
    func status(_ state: SensorState, _ detail: String, at t: Double) -> Sample {
        Sample(time: at(t), payload: .status(SensorStatus(sensor: .desktop, state: state, detail: detail)))
    }

    @Test func readingsPassAndTheStatusIsThePartsTogether() async {
        let idle = Scripted(samples_: [
            status(.available, "idle from X11 :5", at: 0), Sample(time: at(1), payload: .desktop(.idle(3))),
            status(.lost, "X11 :5 went away", at: 2),
        ])
        let logind = Scripted(samples_: [status(.unavailable, "logind: no system bus", at: 0.5)])
        var got: [Sample] = []
        for await s in CombinedDetector(sensor: .desktop, parts: [idle, logind]).samples() { got.append(s) }
        let statuses = got.compactMap { if case .status(let s) = $0.payload { s } else { nil } }
        let readings = got.filter { if case .desktop = $0.payload { true } else { false } }
        #expect(readings.count == 1)
        // The order between the two parts is not fixed; what is said is: each status only once both
        // parts spoke (so it names both), and in the end lost, as the X11 part went.
        #expect(!statuses.isEmpty)
        #expect(statuses.allSatisfy { $0.detail.hasSuffix("; logind: no system bus") }, "\(statuses)")
        #expect(statuses.last == SensorStatus(sensor: .desktop, state: .lost, detail: "X11 :5 went away; logind: no system bus"))
    }

    @Test func nothingAvailableIsTheFirstPartsState() async {
        let a = Scripted(samples_: [status(.unavailable, "no X display", at: 0)])
        let b = Scripted(samples_: [status(.unavailable, "logind: no system bus", at: 0)])
        var statuses: [SensorStatus] = []
        for await s in CombinedDetector(sensor: .desktop, parts: [a, b]).samples() {
            if case .status(let st) = s.payload { statuses.append(st) }
        }
        #expect(statuses == [SensorStatus(sensor: .desktop, state: .unavailable, detail: "no X display; logind: no system bus")])
    }
}
