/// The application in front and calls, kept as stretches of judged time: a stretch ends when the
/// application changes, the call ends, or judging stops (pause, break, gap, sleep, the end), and
/// starts again with the same application or call when judging resumes.
struct ActivityLedger: Sendable {
    /// What is in front and whether a call runs, as the last samples said.
    private var focus: (appClass: String, category: AppCategory, rule: String?)?
    private var onCall = false
    /// Open stretches (only while judging).
    private var appSince: Timestamp?
    private var callSince: Timestamp?

    mutating func note(_ payload: SamplePayload, at t: Timestamp, judging: Bool, into events: inout [SessionEvent]) {
        switch payload {
        case .app(let f):
            let next = f.appClass.isEmpty ? nil : (f.appClass, f.category, f.rule)
            guard next?.0 != focus?.appClass || next?.1 != focus?.category || next?.2 != focus?.rule else { return }
            closeApp(at: t, into: &events)
            focus = next
            if judging, focus != nil { appSince = t }
        case .media(let m):
            guard m.onCall != onCall else { return }
            onCall = m.onCall
            if onCall {
                if judging { callSince = t }
            } else {
                closeCall(at: t, into: &events)
            }
        default:
            break
        }
    }

    mutating func open(at t: Timestamp) {
        if focus != nil, appSince == nil { appSince = t }
        if onCall, callSince == nil { callSince = t }
    }

    mutating func close(at t: Timestamp, into events: inout [SessionEvent]) {
        closeApp(at: t, into: &events)
        closeCall(at: t, into: &events)
    }

    private mutating func closeApp(at t: Timestamp, into events: inout [SessionEvent]) {
        guard let since = appSince, let f = focus else { return }
        appSince = nil
        if t > since {
            events.append(
                SessionEvent(
                    time: t, kind: .activity(ActivitySpan(.app(appClass: f.appClass, category: f.category, rule: f.rule), start: since, end: t))))
        }
    }

    private mutating func closeCall(at t: Timestamp, into events: inout [SessionEvent]) {
        guard let since = callSince else { return }
        callSince = nil
        if t > since { events.append(SessionEvent(time: t, kind: .activity(ActivitySpan(.call, start: since, end: t)))) }
    }
}
