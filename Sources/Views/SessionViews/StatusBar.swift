import VigilCore

/// The running session in the forms status bars read (issue 37: `vigil status --format`), run by
/// the bar every second or so: waybar's custom module with `return-type: json`, i3blocks' (and
/// i3status-style) blocks, and polybar's `custom/script`. One short line: the task, the state,
/// the time left, and the reason while distracted.
public struct StatusBar: Sendable {
    public enum Format: String, CaseIterable, Sendable {
        case waybar, i3blocks, polybar
    }

    /// What the bar shows of a session (from its status file); nil for no session.
    public struct Session: Sendable {
        public var task: String?
        /// The state as the live screen says it: `focused`, `alarm 2`, `on break`,
        /// `waiting for you to come back`.
        public var state: String
        public var worked: Double
        public var planned: Double?
        public var reason: String?
        public var strict: Bool
        public var intent: String?

        public init(task: String?, state: String, worked: Double, planned: Double?, reason: String?, strict: Bool, intent: String? = nil) {
            self.intent = intent
            self.task = task
            self.state = state
            self.worked = worked
            self.planned = planned
            self.reason = reason
            self.strict = strict
        }

        /// The state's one-word name, for a CSS class or a colour: `focused`, `drifting`,
        /// `distracted`, `alarm`, `paused`, `break`, `waiting`, `starting`.
        public var kind: String {
            if state.hasPrefix("alarm") { return "alarm" }
            if state == "on break" { return "break" }
            if state.hasPrefix("waiting") { return "waiting" }
            return state.split(separator: " ").first.map(String.init) ?? state
        }

        /// Distracted or in an alarm: what the bar should make stand out.
        public var isUrgent: Bool { kind == "distracted" || kind == "alarm" }

        /// "thesis · alarm 2 · 23:10 left · 5 min in firefox"
        public var line: String {
            var parts = [task ?? "focus", state]
            if let planned { parts.append(clockDuration(max(0, planned - worked)).dropLeadingHour + " left") }
            if isUrgent, let reason { parts.append(reason) }
            return parts.joined(separator: " · ")
        }

        /// Done of the plan, 0–100 (waybar's `percentage`, for its icons).
        public var percentage: Int {
            guard let planned, planned > 0 else { return 0 }
            return Int(saturating: (min(1, max(0, worked / planned)) * 100).rounded())
        }
    }

    public let format: Format

    public init(_ format: Format) { self.format = format }

    /// The bar's text for `session` (nil: none runs), and the exit status the bar reads: i3blocks
    /// takes 33 for urgent; the others 0.
    public func render(_ session: Session?) -> (text: String, status: Int32) {
        switch format {
        case .waybar:
            var w = JSONWriter(style: .compact, capacity: 256)
            w.object { w in
                w.field("text", session.map { $0.line.oneLine } ?? "")
                w.field("tooltip", session.map(tooltip) ?? "No focus session is running")
                w.field("class", session?.kind ?? "none")
                w.field("percentage", session?.percentage ?? 0)
            }
            return (w.text + "\n", 0)
        case .i3blocks:
            // full_text, short_text, color; nothing at all hides the block.
            guard let session else { return ("", 0) }
            let color = Self.colors[session.kind] ?? "#FFFFFF"
            return ("\(session.line.oneLine)\n\(session.kind)\n\(color)\n", session.isUrgent ? 33 : 0)
        case .polybar:
            guard let session else { return ("\n", 0) }
            let text = session.line.oneLine.replacingOccurrences(of: "%", with: "%%")
            guard let color = Self.colors[session.kind], session.kind != "focused" else { return (text + "\n", 0) }
            return ("%{F\(color)}\(text)%{F-}\n", 0)
        }
    }

    private func tooltip(_ s: Session) -> String {
        var lines = ["Focus session" + (s.task.map { " on \($0)" } ?? "") + ": \(s.state)"]
        if let intent = s.intent { lines.append("Intent: \(intent)") }
        if let planned = s.planned { lines.append("\(clockDuration(s.worked)) of \(clockDuration(planned))") }
        if let reason = s.reason { lines.append("Why: \(reason)") }
        if s.strict { lines.append("Strict: it runs to its planned end") }
        return lines.map(\.oneLine).joined(separator: "\n")
    }

    /// Colours by state, for the bars that take one (i3blocks, polybar).
    static let colors = [
        "focused": "#8AE234", "drifting": "#FCE94F", "distracted": "#FCAF3E", "alarm": "#EF2929", "paused": "#729FCF", "break": "#729FCF",
        "waiting": "#729FCF",
    ]
}

extension String {
    /// On one line, with no control characters: a task or a reason comes from outside.
    fileprivate var oneLine: String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }

    /// "00:23:10" → "23:10": a bar has little room.
    fileprivate var dropLeadingHour: String { hasPrefix("00:") ? String(dropFirst(3)) : self }
}
