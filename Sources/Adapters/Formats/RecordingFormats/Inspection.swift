import Foundation
import VigilCore
import VigilRecording

/// A summary of one recording, in counts and levels only, without running a session
/// (`vigil inspect`). Nothing in it identifies a key, holds audio or a coordinate.
public struct RecordingInspection: Sendable {
    public var file: String
    public var format: String
    /// The wall-clock instant of the recording's time 0 (RFC 3339, UTC).
    public var start: String
    /// Seconds from the start to the last sample.
    public var duration: Double
    public var samples: Int
    public var input: InputFigures?
    public var audio: AudioFigures?
    public var location: LocationFigures?
    public var desktop: DesktopFigures?
    public var apps: AppFigures?
    public var media: MediaFigures?
    /// Plug-in sensors' readings (`SignalReading`), one entry per sensor in the order first seen.
    public var readings: [ReadingFigures]?
    /// Sensor states the recording reports, in order (`input: permission_denied`).
    public var statuses: [String]

    public struct IdleGap: Sendable {
        /// Seconds from the recording's start to the last activity before the gap.
        public var after: Double
        public var seconds: Double
    }

    public struct InputFigures: Sendable {
        /// Key presses, autorepeat excluded.
        public var keyPresses: Int
        public var clicks: Int
        public var scrollTicks: Int
        /// libinput's normalised units (about 1/1000 inch).
        public var pointerTravel: Double
        public var appSwitches: Int
        public var altTab: Int
        public var superKey: Int
        public var ctrlTab: Int
        public var workspace: Int
        public var swipes: Int
        /// The longest pauses in input, longest first (at most five).
        public var longestIdleGaps: [IdleGap]
        /// For `libinput record` files made without --show-keycodes.
        public var keysObfuscated: Bool?
    }

    /// The desktop's idle readings, locks and sleeps.
    public struct DesktopFigures: Sendable {
        public var idleReadings = 0
        /// Seconds, the longest idle time the desktop reported.
        public var longestIdle = 0.0
        public var locks = 0
        public var sleeps = 0
    }

    /// The applications in front: time in each, by the category it had (a browser can be work on
    /// one site and distracting on another: two entries), longest first.
    public struct AppFigures: Sendable {
        public struct App: Sendable {
            public var appClass: String
            public var category: String
            public var seconds: Double
        }
        public var changes = 0
        public var apps: [App] = []
        /// Seconds in front by category (`work`, `neutral`, `distracting`).
        public var secondsByCategory: [String: Double] = [:]
    }

    /// A plug-in sensor's readings: how many, and the time each label held (until the sensor's
    /// next reading, or the recording's end).
    public struct ReadingFigures: Sendable {
        public var sensor: String
        public var readings = 0
        public var secondsByLabel: [String: Double] = [:]
    }

    /// Calls and playback.
    public struct MediaFigures: Sendable {
        /// Calls begun (the count of recording streams going from none to some).
        public var calls = 0
        public var callSeconds = 0.0
        public var playingSeconds = 0.0
    }

    public struct AudioFigures: Sendable {
        /// Gated integrated loudness, LUFS: measured from the audio itself, so only for audio files.
        public var integratedLUFS: Double?
        public var maxMomentaryLUFS: Double?
        public var maxShortTermLUFS: Double?
        /// Sample peak, dBFS (for level recordings, the highest window peak).
        public var samplePeakDBFS: Double?
        public var sampleRate: Int?
        public var channels: Int?
        /// Audio files only: seconds the header announces, when the file holds less (cut short).
        public var declaredDuration: Double?
    }

    public struct LocationFigures: Sendable {
        public var fixes: Int
        public var fixLosses: Int
        /// Metres travelled: movement beyond the fixes' own error (`TrackSummary`).
        public var distanceTravelled: Double
        /// Metres along every step between consecutive fixes, jitter included.
        public var pathLength: Double
        /// Metres, the farthest fix from the first.
        public var maxDistanceFromFirstFix: Double
        public var maxSpeed: Double?
        /// Fixes recorded as a coarse cell with their distance from the workplace (the default);
        /// the two distances above measure the exact fixes only.
        public var coarseFixes: Int
        /// Metres, the farthest a coarse fix was from the workplace.
        public var maxDistanceFromWorkplace: Double?
        /// TPV reports in a gpsd log (fixes and reports without one).
        public var reports: Int?
    }

    /// Reads the whole recording and summarises it.
    public static func inspect(_ opened: OpenedRecording) throws(RecordingError) -> RecordingInspection {
        let source = opened.source
        var count = 0
        var last: Timestamp?
        var input = InputFigures(
            keyPresses: 0, clicks: 0, scrollTicks: 0, pointerTravel: 0, appSwitches: 0, altTab: 0, superKey: 0,
            ctrlTab: 0, workspace: 0, swipes: 0, longestIdleGaps: [])
        var sawInput = false
        var gaps: [IdleGap] = []
        var runIdle: (after: Double, seconds: Double)?
        var audio = AudioFigures()
        var sawAudio = false
        // A gpsd log's reader measures its track as it reads; other recordings are measured here.
        var track = TrackSummary()
        let measureTrack = opened.gpsd == nil
        var sawLocation = false
        var statuses: [String] = []
        var desktop: DesktopFigures?
        var apps: AppFigures?
        struct AppKey: Hashable {
            var appClass: String
            var category: String
        }
        var appSeconds: [AppKey: Double] = [:]
        var front: (appClass: String, category: String, since: Timestamp)?
        var media: MediaFigures?
        var lastMedia: (activity: MediaActivity, at: Timestamp)?
        var readings: [ReadingFigures] = []
        var lastReading: [SensorKind: (index: Int, label: String?, at: Timestamp)] = [:]
        func closeReading(_ sensor: SensorKind, at t: Timestamp) {
            guard let r = lastReading[sensor], let label = r.label else { return }
            readings[r.index].secondsByLabel[label, default: 0] += max(0, t - r.at)
        }
        /// Time in front of the application in front until `t`.
        func closeFront(at t: Timestamp) {
            guard let f = front, !f.appClass.isEmpty else { return }
            appSeconds[AppKey(appClass: f.appClass, category: f.category), default: 0] += max(0, t - f.since)
        }
        func closeMedia(at t: Timestamp) {
            guard let m = lastMedia else { return }
            if m.activity.onCall { media?.callSeconds += max(0, t - m.at) }
            if m.activity.isPlaying { media?.playingSeconds += max(0, t - m.at) }
        }

        func closeRun() {
            guard let r = runIdle else { return }
            gaps.append(IdleGap(after: r.after, seconds: r.seconds))
            gaps.sort { $0.seconds > $1.seconds }
            if gaps.count > 5 { gaps.removeLast() }
            runIdle = nil
        }
        func maxOpt(_ a: Double?, _ b: Double?) -> Double? {
            guard let b, b.isFinite else { return a }
            return max(a ?? b, b)
        }

        while let sample = try source.next() {
            count += 1
            // A silence of over an hour (the machine off, a night in another tool's export) is
            // no time in front of the application: its time stops at the last sample before.
            if let before = last, sample.time - before > RecordedSessions.silence, let f = front {
                closeFront(at: before)
                front = (f.appClass, f.category, sample.time)
            }
            last = sample.time
            let t = sample.time - source.start
            switch sample.payload {
            case .input(let a):
                sawInput = true
                input.keyPresses += a.keyPresses
                input.clicks += a.clicks
                input.scrollTicks += a.scrollTicks
                input.pointerTravel += a.pointerTravel
                input.altTab += a.switches.altTab
                input.superKey += a.switches.superKey
                input.ctrlTab += a.switches.ctrlTab
                input.workspace += a.switches.workspace
                input.swipes += a.switches.swipes
                // An idle stretch as the windows measured it: from the last activity to the end of
                // the last window without any.
                if a.idle >= a.window {
                    runIdle = (t - a.idle, a.idle)
                } else {
                    closeRun()
                }
            case .audio(let l):
                sawAudio = true
                audio.maxMomentaryLUFS = maxOpt(audio.maxMomentaryLUFS, l.momentaryLUFS)
                audio.maxShortTermLUFS = maxOpt(audio.maxShortTermLUFS, l.shortTermLUFS)
                audio.samplePeakDBFS = maxOpt(audio.samplePeakDBFS, l.peak)
            case .location(let fix):
                sawLocation = true
                if measureTrack { track.add(fix) }
            case .status(let s):
                statuses.append("\(s.sensor.rawValue): \(s.state.rawValue)")
                if measureTrack, s.sensor == .location, s.state != .available { track.loseFix() }
            case .desktop(let e):
                var d = desktop ?? DesktopFigures()
                switch e {
                case .idle(let seconds):
                    d.idleReadings += 1
                    d.longestIdle = max(d.longestIdle, seconds)
                case .locked: d.locks += 1
                case .sleeping: d.sleeps += 1
                case .unlocked, .woke: break
                }
                desktop = d
            case .app(let f):
                if apps == nil { apps = AppFigures() }
                closeFront(at: sample.time)
                if front?.appClass != f.appClass { apps?.changes += 1 }
                front = (f.appClass, f.category.rawValue, sample.time)
            case .media(let m):
                if media == nil { media = MediaFigures() }
                closeMedia(at: sample.time)
                if m.onCall, lastMedia?.activity.onCall != true { media?.calls += 1 }
                lastMedia = (m, sample.time)
            case .reading(let r):
                closeReading(r.sensor, at: sample.time)
                let index = lastReading[r.sensor]?.index ?? readings.count
                if index == readings.count { readings.append(ReadingFigures(sensor: r.sensor.rawValue)) }
                readings[index].readings += 1
                lastReading[r.sensor] = (index, r.label, sample.time)
            case .control:
                break
            }
        }
        closeRun()
        if let last {
            closeFront(at: last)
            closeMedia(at: last)
            for sensor in lastReading.keys { closeReading(sensor, at: last) }
        }
        if var a = apps {
            a.apps = appSeconds.map { AppFigures.App(appClass: $0.key.appClass, category: $0.key.category, seconds: $0.value) }
                .sorted { ($0.seconds, $1.appClass, $1.category) > ($1.seconds, $0.appClass, $0.category) }
            for app in a.apps { a.secondsByCategory[app.category, default: 0] += app.seconds }
            apps = a
        }

        var result = RecordingInspection(
            file: source.path, format: opened.format.rawValue, start: source.start.description,
            duration: last.map { max(0, $0 - source.start) } ?? 0, samples: count, statuses: statuses)
        if let s = opened.input {
            // The libinput reader saw the events themselves: its counts and gaps are exact.
            result.input = InputFigures(
                keyPresses: s.keyPresses, clicks: s.clicks, scrollTicks: s.scrollTicks, pointerTravel: s.pointerTravel,
                appSwitches: s.switches.total, altTab: s.switches.altTab, superKey: s.switches.superKey, ctrlTab: s.switches.ctrlTab,
                workspace: s.switches.workspace, swipes: s.switches.swipes,
                longestIdleGaps: s.longestIdleGaps.map { IdleGap(after: $0.after, seconds: $0.seconds) }, keysObfuscated: s.keysObfuscated)
            result.duration = max(result.duration, s.duration)
        } else if sawInput {
            input.appSwitches = input.altTab + input.superKey + input.ctrlTab + input.workspace + input.swipes
            input.longestIdleGaps = gaps
            result.input = input
        }
        if let s = opened.audio {
            result.audio = AudioFigures(
                integratedLUFS: s.integrated, maxMomentaryLUFS: s.maxMomentary, maxShortTermLUFS: s.maxShortTerm,
                samplePeakDBFS: s.samplePeak, sampleRate: s.sampleRate, channels: s.channels,
                declaredDuration: s.declaredDuration > s.duration + 0.001 ? s.declaredDuration : nil)
            result.duration = max(result.duration, s.duration)
        } else if sawAudio {
            result.audio = audio
        }
        result.desktop = desktop
        result.apps = apps
        result.media = media
        result.readings = readings.isEmpty ? nil : readings
        if let gpsd = opened.gpsd { track = gpsd.track }
        if sawLocation || opened.gpsd != nil {
            result.location = LocationFigures(
                fixes: track.fixes, fixLosses: track.fixLosses, distanceTravelled: track.distanceTravelled, pathLength: track.pathLength,
                maxDistanceFromFirstFix: track.maxDistanceFromFirstFix, maxSpeed: track.maxSpeed,
                coarseFixes: track.coarseFixes, maxDistanceFromWorkplace: track.maxDistanceFromWorkplace,
                reports: opened.gpsd?.reports)
        }
        return result
    }

    /// One JSON object (snake_case keys, sorted, as docs/inspect-json.md lists them; a figure the
    /// recording cannot give is left out), its numbers rounded to what they mean (docs/json.md):
    /// seconds to the millisecond, levels to 0.1 dB or LU, metres to 0.1, speeds to 0.01 m/s,
    /// pointer travel to whole units.
    public func json() -> String {
        var w = JSONWriter(style: .compact, capacity: 2048)
        roundedForJSON().write(&w)
        return w.text
    }

    /// This inspection with every measured number rounded as `json()` prints it.
    func roundedForJSON() -> RecordingInspection {
        func r(_ v: Double, _ places: Double) -> Double {
            // Beyond 2^53 a double has no fraction to round (and scaling could overflow).
            guard abs(v) < 1e15 else { return v }
            let scale = places == 0 ? 1 : (0..<Int(places)).reduce(1.0) { x, _ in x * 10 }
            return (v * scale).rounded() / scale
        }
        func r(_ v: Double?, _ places: Double) -> Double? { v.map { r($0, places) } }
        var out = self
        out.duration = r(duration, 3)
        if var i = out.input {
            i.pointerTravel = r(i.pointerTravel, 0)
            i.longestIdleGaps = i.longestIdleGaps.map { IdleGap(after: r($0.after, 3), seconds: r($0.seconds, 3)) }
            out.input = i
        }
        if var a = out.audio {
            (a.integratedLUFS, a.maxMomentaryLUFS, a.maxShortTermLUFS) = (r(a.integratedLUFS, 1), r(a.maxMomentaryLUFS, 1), r(a.maxShortTermLUFS, 1))
            (a.samplePeakDBFS, a.declaredDuration) = (r(a.samplePeakDBFS, 1), r(a.declaredDuration, 3))
            out.audio = a
        }
        if var l = out.location {
            (l.distanceTravelled, l.pathLength, l.maxDistanceFromFirstFix) = (
                r(l.distanceTravelled, 1), r(l.pathLength, 1), r(l.maxDistanceFromFirstFix, 1)
            )
            (l.maxSpeed, l.maxDistanceFromWorkplace) = (r(l.maxSpeed, 2), r(l.maxDistanceFromWorkplace, 1))
            out.location = l
        }
        out.desktop?.longestIdle = r(desktop?.longestIdle ?? 0, 3)
        if var a = out.apps {
            a.apps = a.apps.map { AppFigures.App(appClass: $0.appClass, category: $0.category, seconds: r($0.seconds, 3)) }
            a.secondsByCategory = a.secondsByCategory.mapValues { r($0, 3) }
            out.apps = a
        }
        if var m = out.media {
            (m.callSeconds, m.playingSeconds) = (r(m.callSeconds, 3), r(m.playingSeconds, 3))
            out.media = m
        }
        out.readings = readings?.map { f in
            var f = f
            f.secondsByLabel = f.secondsByLabel.mapValues { r($0, 3) }
            return f
        }
        return out
    }

    /// A few lines for the terminal.
    public func text() -> String {
        func f1(_ v: Double) -> String { String(format: "%.1f", v) }
        func level(_ v: Double?, _ unit: String) -> String { v.map { "\(f1($0)) \(unit)" } ?? "n/a" }
        var lines = [
            "\(file): \(RecordingFileFormat(rawValue: format)?.description ?? format), starts \(start), \(humanDuration(duration)), \(samples) samples"
        ]
        if let i = input {
            lines.append(
                "  input     \(i.keyPresses) key presses (autorepeat excluded), \(i.clicks) clicks, \(i.scrollTicks) scroll ticks, pointer travel \(Int(saturating: i.pointerTravel.rounded())) units"
            )
            lines.append(
                "            \(i.appSwitches) app switches (Alt+Tab \(i.altTab), Super \(i.superKey), Ctrl+Tab \(i.ctrlTab), workspace \(i.workspace), swipes \(i.swipes))"
            )
            if !i.longestIdleGaps.isEmpty {
                lines.append(
                    "            longest idle: "
                        + i.longestIdleGaps.map { "\(humanDuration($0.seconds)) after \(humanDuration($0.after))" }.joined(separator: ", "))
            }
            if i.keysObfuscated == true {
                lines.append(
                    "            keys were recorded obfuscated (no --show-keycodes): Alt+Tab is counted from a held key + Tab; Super+digit is not visible"
                )
            }
        }
        if let a = audio {
            var parts = [
                "integrated \(level(a.integratedLUFS, "LUFS"))", "max momentary \(level(a.maxMomentaryLUFS, "LUFS"))",
                "max short-term \(level(a.maxShortTermLUFS, "LUFS"))", "sample peak \(level(a.samplePeakDBFS, "dBFS"))",
            ]
            if a.integratedLUFS == nil, format == RecordingFileFormat.vigil.rawValue { parts[0] = "integrated n/a (levels only, no audio)" }
            lines.append("  audio     " + parts.joined(separator: ", ") + (a.sampleRate.map { ", \($0) Hz × \(a.channels ?? 1)" } ?? ""))
            if let promised = a.declaredDuration {
                lines.append(
                    "            the file is cut short: its header announces \(humanDuration(promised)), \(String(format: "%.2f", duration)) s of audio are there (measured as far as it goes)"
                )
            }
        }
        if let l = location {
            var text = "\(l.fixes) fixes"
            if let r = l.reports { text += " in \(r) TPV reports" }
            text += ", \(l.fixLosses) fix loss\(l.fixLosses == 1 ? "" : "es")"
            if l.coarseFixes < l.fixes {
                text +=
                    ", travelled \(f1(l.distanceTravelled)) m beyond the fixes' error (\(f1(l.pathLength)) m summing every step), farthest \(f1(l.maxDistanceFromFirstFix)) m from the first fix"
            }
            if l.coarseFixes > 0 {
                text += ", \(l.coarseFixes) as coarse cells (no exact positions recorded)"
                if let d = l.maxDistanceFromWorkplace { text += ", farthest \(f1(d)) m from the workplace" }
            }
            if let s = l.maxSpeed { text += ", top speed \(f1(s)) m/s" }
            lines.append("  location  " + text)
        }
        if let d = desktop {
            lines.append(
                "  desktop   \(d.idleReadings) idle readings, longest idle \(humanDuration(d.longestIdle)), \(d.locks) lock\(d.locks == 1 ? "" : "s"), \(d.sleeps) sleep\(d.sleeps == 1 ? "" : "s")"
            )
        }
        if let a = apps {
            let categories = ["work", "neutral", "distracting"].compactMap { c in a.secondsByCategory[c].map { "\(c) \(humanDuration($0))" } }
            lines.append("  apps      \(a.changes) changes of the application in front; " + categories.joined(separator: ", "))
            for app in a.apps.prefix(5) {
                lines.append("            \(app.appClass.isEmpty ? "(none)" : app.appClass) \(humanDuration(app.seconds)) (\(app.category))")
            }
        }
        if let m = media {
            lines.append(
                "  media     \(m.calls) call\(m.calls == 1 ? "" : "s"), \(humanDuration(m.callSeconds)) on calls, \(humanDuration(m.playingSeconds)) playing"
            )
        }
        for f in readings ?? [] {
            let labels = f.secondsByLabel.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \(humanDuration($0.value))" }
            let head = "  \(f.sensor)".padding(toLength: max(12, f.sensor.count + 4), withPad: " ", startingAt: 0)
            lines.append(head + "\(f.readings) reading\(f.readings == 1 ? "" : "s")" + (labels.isEmpty ? "" : ": " + labels.joined(separator: ", ")))
        }
        if !statuses.isEmpty {
            lines.append("  sensors   " + statuses.joined(separator: ", "))
        }
        // Each line is Vigil's words around what the file holds (its name, applications, sensors'
        // states): one line each, inert in a terminal.
        return lines.map(\.terminalSafe).joined(separator: "\n")
    }
}

// The inspection's JSON, field by field in sorted order (a test holds the keys to
// docs/inspect-json.md). Numbers are written exactly as rounded (`roundedForJSON`).

extension JSONWriter {
    fileprivate mutating func exact(_ key: StaticString, _ v: Double) { field(key, JSONValue.exact(v)) }
    fileprivate mutating func exact(_ key: StaticString, ifAny v: Double?) { if let v { exact(key, v) } }
    fileprivate mutating func field(_ key: StaticString, ifAny v: (some JSONWritable)?) { if let v { field(key, v) } }
    /// A map of names to seconds (categories, labels), its names sorted.
    fileprivate mutating func seconds(_ key: StaticString, _ map: [String: Double]) {
        field(key, JSONValue.object(map.sorted { $0.key < $1.key }.map { ($0.key, .exact($0.value)) }))
    }
}

extension RecordingInspection: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("apps", ifAny: apps)
        w.field("audio", ifAny: audio)
        w.field("desktop", ifAny: desktop)
        w.exact("duration", duration)
        w.field("file", file)
        w.field("format", format)
        w.field("input", ifAny: input)
        w.field("location", ifAny: location)
        w.field("media", ifAny: media)
        w.field("readings", ifAny: readings)
        w.field("samples", samples)
        w.field("start", start)
        w.field("statuses", statuses)
    }
}

extension RecordingInspection.IdleGap: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.exact("after", after)
        w.exact("seconds", seconds)
    }
}

extension RecordingInspection.InputFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("alt_tab", altTab)
        w.field("app_switches", appSwitches)
        w.field("clicks", clicks)
        w.field("ctrl_tab", ctrlTab)
        w.field("key_presses", keyPresses)
        w.field("keys_obfuscated", ifAny: keysObfuscated)
        w.field("longest_idle_gaps", longestIdleGaps)
        w.exact("pointer_travel", pointerTravel)
        w.field("scroll_ticks", scrollTicks)
        w.field("super_key", superKey)
        w.field("swipes", swipes)
        w.field("workspace", workspace)
    }
}

extension RecordingInspection.DesktopFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("idle_readings", idleReadings)
        w.field("locks", locks)
        w.exact("longest_idle", longestIdle)
        w.field("sleeps", sleeps)
    }
}

extension RecordingInspection.AppFigures.App: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("app_class", appClass)
        w.field("category", category)
        w.exact("seconds", seconds)
    }
}

extension RecordingInspection.AppFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("apps", apps)
        w.field("changes", changes)
        w.seconds("seconds_by_category", secondsByCategory)
    }
}

extension RecordingInspection.ReadingFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("readings", readings)
        w.seconds("seconds_by_label", secondsByLabel)
        w.field("sensor", sensor)
    }
}

extension RecordingInspection.MediaFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.exact("call_seconds", callSeconds)
        w.field("calls", calls)
        w.exact("playing_seconds", playingSeconds)
    }
}

extension RecordingInspection.AudioFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("channels", ifAny: channels)
        w.exact("declared_duration", ifAny: declaredDuration)
        w.exact("integrated_lufs", ifAny: integratedLUFS)
        w.exact("max_momentary_lufs", ifAny: maxMomentaryLUFS)
        w.exact("max_short_term_lufs", ifAny: maxShortTermLUFS)
        w.exact("sample_peak_dbfs", ifAny: samplePeakDBFS)
        w.field("sample_rate", ifAny: sampleRate)
    }
}

extension RecordingInspection.LocationFigures: JSONObject {
    public func writeFields(_ w: inout JSONWriter) {
        w.field("coarse_fixes", coarseFixes)
        w.exact("distance_travelled", distanceTravelled)
        w.field("fix_losses", fixLosses)
        w.field("fixes", fixes)
        w.exact("max_distance_from_first_fix", maxDistanceFromFirstFix)
        w.exact("max_distance_from_workplace", ifAny: maxDistanceFromWorkplace)
        w.exact("max_speed", ifAny: maxSpeed)
        w.exact("path_length", pathLength)
        w.field("reports", ifAny: reports)
    }
}
