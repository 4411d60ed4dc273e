import Foundation
import RecordingFormats
import SessionRuntime
import SessionViews
import Testing
import VigilCore
import VigilRecording

/// Every supported format is recognised by its content and replays through the same engine.
@Suite struct RecordingFilesTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
    static let files: [(String, RecordingFileFormat)] = [
        ("\(root)/Samples/coffee-break/session.jsonl", .vigil),
        ("\(tests)/InputDetectorTests/Data/keyboard-alt-tab.yml", .libinputRecord),
        ("\(tests)/InputDetectorTests/Data/mouse.yml", .libinputRecord),
        ("\(tests)/LocationDetectorTests/Data/haicom-305N.log.chk", .gpsdJSON),
        ("\(tests)/VigilAudioTests/Data/piano.wav", .wav),
    ]

    @Test func formatsAreToldApartByTheirContent() throws {
        for (path, format) in Self.files {
            #expect(try RecordingFiles.detect(path: path) == format, "\(path)")
        }
        // Not by the name: a WAV file called .jsonl is still audio.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-fmt-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: "\(Self.tests)/VigilAudioTests/Data/piano.wav", toPath: dir + "/misnamed.jsonl")
        #expect(try RecordingFiles.detect(path: dir + "/misnamed.jsonl") == .wav)
    }

    @Test func anUnknownOrEmptyFileIsAClearError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-fmt-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (name, text, message) in [
            ("notes.txt", "dear diary\n", "not a recording Vigil reads"), ("empty.jsonl", "", "the file is empty"),
            ("other.json", "{\"hello\":1}\n", "not a recording Vigil reads"),
        ] {
            try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
            do {
                _ = try RecordingFiles.open(path: dir + "/" + name, configuration: .default, signals: .builtIn)
                Issue.record("\(name) was accepted")
            } catch {
                #expect(error.message.contains(message), "\(error)")
                #expect(error.file.hasSuffix(name))
            }
        }
        #expect(throws: RecordingError.self) { try RecordingFiles.open(path: dir, configuration: .default, signals: .builtIn) }
        #expect(throws: RecordingError.self) { try RecordingFiles.open(path: dir + "/missing.wav", configuration: .default, signals: .builtIn) }
    }

    /// A keyboard recording, an audio file and a gpsd log on one timeline: each placed at its own
    /// start, merged in time order, judged by one session.
    @Test func theSensorsOwnFormatsReplayTogether() throws {
        let opened = try Self.files.dropFirst().map { try RecordingFiles.open(path: $0.0, configuration: .default, signals: .builtIn) }
        let merged = try MergedRecordings(opened.map(\.source))
        var previous: Timestamp?
        var kinds = Set<String>()
        let all = try MergedRecordings(
            try Self.files.dropFirst().map { try RecordingFiles.open(path: $0.0, configuration: .default, signals: .builtIn).source })
        while let s = try all.next() {
            if let p = previous { #expect(s.time >= p) }
            previous = s.time
            switch s.payload {
            case .input: kinds.insert("input")
            case .audio: kinds.insert("audio")
            case .location: kinds.insert("location")
            default: break
            }
        }
        #expect(kinds == ["input", "audio", "location"])
        var events: [SessionEvent] = []
        let result = try Replayer(configuration: .default, signals: .builtIn).run(merged) { events.append($0) }
        #expect(result.samples > 250)
        #expect(events.first.map { if case .sessionStarted = $0.kind { true } else { false } } == true)
        #expect(events.last.map { if case .sessionEnded = $0.kind { true } else { false } } == true)
    }

    /// `vigil inspect`'s figures for a libinput recording are the reader's, which the input tests
    /// check against the hand-worked scenario (Data/README.md there).
    @Test func inspectionOfALibinputRecording() throws {
        let i = try RecordingInspection.inspect(
            try RecordingFiles.open(path: "\(Self.tests)/InputDetectorTests/Data/keyboard-alt-tab.yml", configuration: .default, signals: .builtIn))
        let input = try #require(i.input)
        #expect(input.keyPresses == 13)
        #expect(input.altTab == 3 && input.superKey == 1 && input.ctrlTab == 1 && input.workspace == 1)
        #expect(input.longestIdleGaps.first.map { $0.seconds > 6.9 && $0.seconds < 7.5 } == true)
        #expect(i.audio == nil && i.location == nil)
        #expect(!i.json().contains("KEY_"))
    }

    /// For a Vigil recording the figures are sums over its samples.
    @Test func inspectionOfAVigilRecordingSumsItsSamples() throws {
        let path = "\(root)/Samples/coffee-break/session.jsonl"
        let samples = try RecordingReader(path: path).readAll()
        var keys = 0
        var fixes = 0
        for s in samples {
            if case .input(let a) = s.payload { keys += a.keyPresses }
            if case .location = s.payload { fixes += 1 }
        }
        let i = try RecordingInspection.inspect(try RecordingFiles.open(path: path, configuration: .default, signals: .builtIn))
        #expect(i.samples == samples.count)
        #expect(i.input?.keyPresses == keys)
        #expect(i.location?.fixes == fixes)
        #expect(i.audio?.integratedLUFS == nil)  // levels only: no audio to integrate
        // The coffee break: away from 7 min 59 s to about 16 min 30 s (Samples/coffee-break/expect.json).
        let longest = try #require(i.input?.longestIdleGaps.first)
        #expect(longest.seconds > 240)
    }

    /// Bad ActivityWatch exports are refused with the bucket, the event and what is wrong; none
    /// stops the program or hangs the replay (two events centuries apart once did).
    @Test(arguments: [
        (
            #"{"buckets": {"w": {"id": "w", "type": "currentwindow", "events": [{"timestamp": "2026-"#,
            "not valid JSON at byte 87: the file ends inside a value: is the export complete?"
        ),
        (#"{"buckets": 5}"#, "\"buckets\" must be an object keyed by bucket id, or a list"),
        (
            #"{"buckets": {"w": {"id":"w","type":"currentwindow","events":[{"timestamp":"9999-12-31T00:00:00+00:00","duration":5,"data":{"app":"a"}}]}}}"#,
            "w, event 1: \"timestamp\" must be an ISO 8601 time from 1970-01-01 to 2199-12-31"
        ),
        (
            #"{"buckets": {"w": {"id":"w","type":"afkstatus","events":[{"timestamp":"2026-01-01T00:00:00+00:00","duration":1e300,"data":{"status":"afk"}}]}}}"#,
            "w, event 1: \"duration\" must be seconds from 0 that end the event by 2199-12-31, got 1e+300"
        ),
        (
            #"{"buckets": {"w": {"id":"w","type":"afkstatus","events":[{"timestamp":"2026-01-01T00:00:00+00:00","duration":"x","data":{"status":"afk"}}]}}}"#,
            "w, event 1: \"duration\" must be a number of seconds"
        ),
        (
            #"{"buckets": {"a": {"id":"a","type":"afkstatus","events":[{"timestamp":"1970-01-01T00:00:00+00:00","duration":5,"data":{"status":"afk"}}]},"#
                + #""b": {"id":"b","type":"afkstatus","events":[{"timestamp":"2199-01-01T00:00:00+00:00","duration":5,"data":{"status":"afk"}}]}}}"#,
            "its events span more than 100 years"
        ),
        (#"{"buckets": {"web": {"id":"web","type":"web.tab.current","events":[]}}}"#, "no aw-watcher-window or aw-watcher-afk events"),
        // aw-watcher-web's tabs are read as the window watcher's events are.
        (
            #"{"buckets": {"w": {"id":"w","type":"currentwindow","events":[{"timestamp":"2026-01-01T00:00:00+00:00","duration":5,"data":{"app":"firefox"}}]},"#
                + #""web": {"id":"aw-watcher-web-firefox_h","type":"web.tab.current","events":[{"timestamp":"2026-01-01T00:00:00+00:00","duration":-5,"data":{"url":"https://a.example"}}]}}}"#,
            "aw-watcher-web-firefox_h, event 1: \"duration\" must be seconds from 0"
        ),
        (
            #"{"buckets": {"w": {"id":"w","type":"currentwindow","events":[{"timestamp":"2026-01-01T00:00:00+00:00","duration":5,"data":{"app":"firefox"}}]},"#
                + #""web": {"id":"aw-watcher-web-firefox_h","type":"web.tab.current","events":[{"timestamp":"yesterday","duration":5,"data":{"url":"https://a.example"}}]}}}"#,
            "aw-watcher-web-firefox_h, event 1: \"timestamp\" must be an ISO 8601 time"
        ),
        // A NUL would cut the application's name short where it is stored.
        (
            #"{"buckets": {"w": {"id":"w","type":"currentwindow","events":[{"timestamp":"2026-01-01T00:00:00+00:00","duration":5,"data":{"app":"fire\u0000fox"}}]}}}"#,
            "w, event 1: \"data.app\" holds a NUL character"
        ),
    ])
    func aBadActivityWatchExportIsExplained(text: String, message: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-aw-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try text.write(toFile: dir + "/export.json", atomically: true, encoding: .utf8)
        #expect(try RecordingFiles.detect(path: dir + "/export.json") == .activityWatch)
        do {
            _ = try RecordingFiles.open(path: dir + "/export.json", configuration: .default, signals: .builtIn)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.file == dir + "/export.json")
        }
    }

    /// An export of a few hundred bytes whose afk event lasts 30 years (one such once needed more
    /// than 7.9 GB: a reading every 3 s) is read as a few samples: what an export costs is
    /// bounded by its events, never by the time they span. An afk stretch that long (over an hour)
    /// is a silence between sessions: its first reading, then nothing until the next event.
    @Test func anAfkEventOfDecadesIsABoundedNumberOfSamples() throws {
        let text =
            #"{"buckets": {"aw-watcher-afk_h": {"id": "aw-watcher-afk_h", "created": "2026-01-01T00:00:00.000000+00:00", "name": null, "type": "afkstatus", "client": "aw-watcher-afk", "hostname": "h", "data": {}, "events": ["#
            + #"{"timestamp": "2026-01-01T00:00:00+00:00", "duration": 120.0, "data": {"status": "not-afk"}}, "#
            + #"{"timestamp": "1996-01-01T00:00:00+00:00", "duration": 946684800.0, "data": {"status": "afk"}}]}}}"#
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-aw-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try text.write(toFile: dir + "/export.json", atomically: true, encoding: .utf8)
        let source = try RecordingFiles.open(path: dir + "/export.json", configuration: .default, signals: .builtIn).source
        var samples: [Sample] = []
        while let s = try source.next() {
            samples.append(s)
            #expect(samples.count <= 2000, "samples of a file of \(text.utf8.count) bytes")
            if samples.count > 2000 { break }
        }
        let afkStart = Timestamp(nanoseconds: 820_454_400 * 1_000_000_000)
        #expect(samples.first?.time == afkStart && samples.first?.payload == .desktop(.idle(0)), "\(samples.prefix(2))")
        // Nothing more until the not-afk event 30 years later.
        #expect(samples.dropFirst().allSatisfy { $0.time >= afkStart + 946_684_800 }, "\(samples.prefix(3))")
        #expect(samples.count < 100)
    }

    /// The screen left on over a long afk stretch (aw-watcher-window's heartbeats merged into one
    /// event across it): nothing is read inside the stretch, and the window still in front when
    /// the person is back is told again there, opening the next session; a second between two
    /// events of one window is no change.
    @Test func aWindowLeftInFrontOverALongAfkStretchIsToldAgainAfterIt() throws {
        let text =
            #"{"buckets": {"w": {"id": "w", "type": "currentwindow", "events": ["#
            + #"{"timestamp": "2026-03-02T09:00:00+00:00", "duration": 599.0, "data": {"app": "Code", "title": "a"}}, "#
            + #"{"timestamp": "2026-03-02T09:10:00+00:00", "duration": 10199.0, "data": {"app": "Code", "title": "b"}}]}, "#
            + #""a": {"id": "a", "type": "afkstatus", "events": ["#
            + #"{"timestamp": "2026-03-02T09:00:00+00:00", "duration": 1800.0, "data": {"status": "not-afk"}}, "#
            + #"{"timestamp": "2026-03-02T09:30:00+00:00", "duration": 5400.0, "data": {"status": "afk"}}, "#
            + #"{"timestamp": "2026-03-02T11:00:00+00:00", "duration": 3600.0, "data": {"status": "not-afk"}}]}}}"#
        let samples = try {
            let source = try ActivityWatchExport.read(contents: Array(text.utf8), name: "export.json", configuration: .default)
            var out: [Sample] = []
            while let s = try source.next() { out.append(s) }
            return out
        }()
        func at(_ hh: Int, _ mm: Int, _ ss: Int = 0) -> Timestamp {
            Timestamp(nanoseconds: Int64((1_772_442_000 + (hh - 9) * 3600 + mm * 60 + ss)) * 1_000_000_000)
        }
        let code = SamplePayload.app(AppFocus(appClass: "Code", category: .work, rule: "editors"))
        let apps = samples.filter { if case .app = $0.payload { true } else { false } }
        #expect(apps.map(\.time) == [at(9, 0), at(11, 0), at(12, 0, -1)], "\(apps)")
        #expect(apps.prefix(2).allSatisfy { $0.payload == code })
        #expect(apps.last?.payload == .app(AppFocus(appClass: "", category: .neutral)))
        #expect(!samples.contains { $0.time > at(9, 30) && $0.time < at(11, 0) }, "nothing inside the afk stretch")
    }

    /// aw-watcher-web's tabs count only while a window of their browser is in front, hold until the
    /// next tab (or through the pulse time), and give the rules the tab's address.
    @Test func aBrowsersTabGivesTheRulesItsAddressWhileTheBrowserIsInFront() throws {
        // Chromium in front 09:00-09:10 with a title naming no site, Code 09:10-09:20 while the
        // browser's tab changes to a video site in the background, Chromium again 09:20-09:30.
        // Firefox's bucket (another browser) and another computer's bucket say otherwise: unread.
        func window(_ hhmm: String, _ seconds: Int, _ app: String, _ title: String) -> String {
            #"{"timestamp": "2026-03-02T\#(hhmm):00+00:00", "duration": \#(seconds), "data": {"app": "\#(app)", "title": "\#(title)"}}"#
        }
        func tab(_ time: String, _ seconds: Double, _ url: String) -> String {
            #"{"timestamp": "2026-03-02T\#(time)+00:00", "duration": \#(seconds), "data": {"url": "\#(url)", "title": "A page", "#
                + #""audible": false, "incognito": false, "tabCount": 3}}"#
        }
        let windows = [
            window("09:00", 600, "Chromium", "A page"), window("09:10", 599, "Code", "main.swift"), window("09:20", 600, "Chromium", "A page"),
        ]
        let tabs = [
            tab("09:00:30", 299.999, "https://docs.swift.org/x"), tab("09:05:30", 0, "https://user@www.youtube.com:443/watch?v=1"),
            tab("09:06:00", 239.999, "https://docs.swift.org/y"), tab("09:15:00", 600, "https://www.twitch.tv/z"),
        ]
        let reddit = tab("09:00:00", 1800, "https://www.reddit.com/")
        let text = """
            {"buckets": {
              "aw-watcher-window_h": {"id": "aw-watcher-window_h", "type": "currentwindow", "hostname": "h", "events": [\(windows.joined(separator: ", "))]},
              "aw-watcher-web-chrome_h": {"id": "aw-watcher-web-chrome_h", "type": "web.tab.current", "hostname": "h", "events": [\(tabs.joined(separator: ", "))]},
              "aw-watcher-web-firefox_h": {"id": "aw-watcher-web-firefox_h", "type": "web.tab.current", "hostname": "h", "events": [\(reddit)]},
              "aw-watcher-web-chrome_other": {"id": "aw-watcher-web-chrome_other", "type": "web.tab.current", "hostname": "other", "events": [\(reddit)]}
            }}
            """
        var configuration = VigilConfiguration.default
        configuration.apps.rules = [
            AppRule(name: "docs", classes: ["chromium"], sites: ["swift.org"], category: .work),
            AppRule(name: "video", classes: ["chromium"], sites: ["youtube.com", "twitch.tv"], category: .distracting),
            AppRule(name: "code", classes: ["code"], category: .work),
        ]
        let source = try ActivityWatchExport.read(contents: Array(text.utf8), name: "export.json", configuration: configuration)
        var apps: [String] = []
        while let s = try source.next() {
            if case .app(let f) = s.payload {
                apps.append("\(String(describing: s.time).dropFirst(11).prefix(8)) \(f.appClass.isEmpty ? "nothing" : f.appClass) \(f.rule ?? "-")")
            }
        }
        // No tab known before 09:00:30; then the documentation (its end held through the next
        // tab), the video for the half minute before the next page, documentation again through
        // its pulse time (80 s) past its last heartbeat; Code; the stream (its tab changed while
        // Code was in front) through 09:26:20 (its last heartbeat + 80 s), then no tab known.
        #expect(
            apps == [
                "09:00:00 Chromium -", "09:00:30 Chromium docs", "09:05:30 Chromium video", "09:06:00 Chromium docs", "09:10:00 Code code",
                "09:20:00 Chromium video", "09:26:20 Chromium -", "09:30:00 nothing -",
            ], "\(apps)")
    }

    /// The export is streamed: read through a buffer of any size, down to a byte, it is the same.
    @Test func anExportReadsTheSameWhateverTheBuffer() throws {
        // As aw-server 0.12 (peewee storage) exported Tests/VigilCLITests/Data/aw_feed.py's events,
        // with a title in another script as Flask escapes it.
        let text = #"""
            {"buckets": {"aw-watcher-window_testhost": {"id": "aw-watcher-window_testhost", "created": "2026-11-28T06:22:00.697783+00:00", "name": null, "type": "currentwindow", "client": "aw-watcher-window", "hostname": "testhost", "data": {}, "events": [{"timestamp": "2026-03-02T09:12:00+00:00", "duration": 600.0, "data": {"app": "Code", "title": "main.swift"}}, {"timestamp": "2026-03-02T09:05:00.123000+00:00", "duration": 420.0, "data": {"app": "Firefox", "title": "Caf\u00e9 \u2615 \u2014 \"Cats\" - YouTube"}}, {"timestamp": "2026-03-02T09:00:00+00:00", "duration": 300.0, "data": {"app": "Code", "title": "main.swift"}}]}, "aw-watcher-afk_testhost": {"id": "aw-watcher-afk_testhost", "created": "2026-11-28T06:22:00.851915+00:00", "name": null, "type": "afkstatus", "client": "aw-watcher-afk", "hostname": "testhost", "data": {}, "events": [{"timestamp": "2026-03-02T09:30:00+00:00", "duration": 600.0, "data": {"status": "not-afk"}}, {"timestamp": "2026-03-02T09:22:00+00:00", "duration": 480.0, "data": {"status": "afk"}}, {"timestamp": "2026-03-02T09:00:00+00:00", "duration": 1320.0, "data": {"status": "not-afk"}}]}}}
            """#
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-aw-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try text.write(toFile: dir + "/export.json", atomically: true, encoding: .utf8)
        func samples(_ buffer: Int) throws -> [Sample] {
            let source = try ActivityWatchExport.open(path: dir + "/export.json", configuration: .default, bufferSize: buffer)
            var out: [Sample] = []
            while let s = try source.next() { out.append(s) }
            return out
        }
        let whole = try samples(1 << 20)
        // At 09:00 the afk bucket's reading, then the window's (the buckets in the order of their ids).
        #expect(whole.prefix(2).map(\.payload) == [.desktop(.idle(0)), .app(AppFocus(appClass: "Code", category: .work, rule: "editors"))])
        #expect(whole.contains { $0.payload == .app(AppFocus(appClass: "Firefox", category: .distracting, rule: "youtube")) })
        #expect(zip(whole, whole.dropFirst()).allSatisfy { $0.time <= $1.time })
        for size in [1, 2, 3, 5, 8, 13, 100] { #expect(try samples(size) == whole, "a buffer of \(size) bytes") }
    }

    /// Window titles are categorised as `apps.categorize` does, though mostly by a search of
    /// their bytes: in text where characters and bytes differ (a combining mark after a letter, the
    /// Kelvin sign that lowercases to k, CR LF, escapes) too.
    @Test func titlesAreCategorisedAsTheRulesSay() throws {
        let titles = [
            "Cats - YouTube", "Caf\u{E9} \u{2615} YOUTUBE", "youtube\u{301} is not youtube", "you\u{301}tube", "TI\u{212A}TO\u{212A} dances",
            "a\r\nnetflix", "N\u{130}ce reddit", "plain", "", "\u{1F3AF} twitch\tstream", "\"quoted\" facebook",
        ]
        // As aw-server's Flask writes them: every character past ASCII escaped.
        func escaped(_ text: String) -> String {
            text.unicodeScalars.map { c -> String in
                switch c {
                case "\"": return "\\\""
                case "\\": return "\\\\"
                case "\n": return "\\n"
                case "\r": return "\\r"
                case "\t": return "\\t"
                case _ where c.value >= 0x80:
                    return String(c).utf16.map { "\\u" + String(repeating: "0", count: 4 - String($0, radix: 16).count) + String($0, radix: 16) }
                        .joined()
                default: return String(c)
                }
            }.joined()
        }
        let events = titles.enumerated().map { i, title in
            #"{"timestamp": "2026-03-02T09:00:\#(i < 10 ? "0" : "")\#(i).000000+00:00", "duration": 1.0, "data": {"app": "firefox", "title": "\#(escaped(title))"}}"#
        }
        let text = #"{"buckets": {"w": {"id": "w", "type": "currentwindow", "events": ["# + events.joined(separator: ", ") + "]}}}"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-aw-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try text.write(toFile: dir + "/export.json", atomically: true, encoding: .utf8)
        // Titles kept: each event is a focus of its own (without them, events that change nothing
        // Vigil keeps are no change, and consecutive matches of one rule would be one).
        var configuration = VigilConfiguration.default
        configuration.apps.storeTitles = true
        let source = try RecordingFiles.open(path: dir + "/export.json", configuration: configuration, signals: .builtIn).source
        var got: [String?] = []
        while let s = try source.next() {
            if case .app(let a) = s.payload, !a.appClass.isEmpty { got.append(a.rule) }
        }
        let apps = VigilConfiguration.default.apps
        #expect(got == titles.map { apps.categorize(appClass: "firefox", title: $0).rule })
        #expect(got.compactMap { $0 } == ["youtube", "youtube", "youtube", "tiktok", "netflix", "reddit", "twitch", "social"], "\(got)")
    }

    @Test func inspectionSumsTheDesktopSignals() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-inspect-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lines = [
            #"{"vigil":"recording","version":1,"start":"2026-03-02T09:00:00Z"}"#,
            #"{"t":0,"kind":"app","class":"code","category":"work","rule":"editors"}"#,
            #"{"t":0,"kind":"desktop","idle":0}"#,
            #"{"t":60,"kind":"media","calls":1,"playing":0}"#,
            #"{"t":100,"kind":"app","class":"firefox","category":"distracting","rule":"youtube"}"#,
            #"{"t":160,"kind":"media","calls":1,"playing":1}"#,
            #"{"t":200,"kind":"media","calls":0,"playing":0}"#,
            #"{"t":250,"kind":"desktop","idle":90}"#,
            #"{"t":260,"kind":"desktop","state":"locked"}"#,
            #"{"t":300,"kind":"desktop","state":"sleeping"}"#,
            #"{"t":400,"kind":"desktop","state":"woke"}"#,
            #"{"t":400,"kind":"app","class":"code","category":"work","rule":"editors"}"#,
            #"{"t":460,"kind":"media","calls":2,"playing":0}"#,
            #"{"t":500,"kind":"desktop","idle":1}"#,
        ]
        try lines.joined(separator: "\n").write(toFile: dir + "/r.jsonl", atomically: true, encoding: .utf8)
        let i = try RecordingInspection.inspect(try RecordingFiles.open(path: dir + "/r.jsonl", configuration: .default, signals: .builtIn))
        #expect(i.desktop?.idleReadings == 3)
        #expect(i.desktop?.longestIdle == 90)
        #expect(i.desktop?.locks == 1)
        #expect(i.desktop?.sleeps == 1)
        #expect(i.apps?.changes == 3)
        // Longest first: firefox 100 to 400, code 0 to 100 and 400 to 500.
        #expect(i.apps?.apps.map(\.appClass) == ["firefox", "code"])
        #expect(i.apps?.apps.map(\.seconds) == [300, 200])
        #expect(i.apps?.secondsByCategory == ["work": 200, "distracting": 300])
        // Calls from 60 to 200 and from 460 to the end (500); playing from 160 to 200.
        #expect(i.media?.calls == 2)
        #expect(abs((i.media?.callSeconds ?? 0) - 180) < 1e-9, "\(String(describing: i.media))")
        #expect(abs((i.media?.playingSeconds ?? 0) - 40) < 1e-9)
        #expect(i.text().contains("apps      3 changes of the application in front; work 3 min 20 s, distracting 5 min"))
    }

    /// A WAV file cut short (a copy interrupted, a disk full) is measured as far as it goes, and
    /// the summary says it is cut short.
    @Test func aTruncatedWAVIsMeasuredAndSaidToBeCutShort() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-trunc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let whole = try Data(contentsOf: URL(fileURLWithPath: "\(Self.tests)/VigilAudioTests/Data/piano.wav"))
        try whole.prefix(44 + 44_100 * 4 * 2).write(to: URL(fileURLWithPath: dir + "/cut.wav"))  // 2 s of 10
        let i = try RecordingInspection.inspect(try RecordingFiles.open(path: dir + "/cut.wav", configuration: .default, signals: .builtIn))
        #expect(abs(i.duration - 2) < 0.01)
        #expect(i.audio?.declaredDuration.map { abs($0 - 10) < 0.01 } == true)
        #expect(i.text().contains("the file is cut short: its header announces 10 s, 2.00 s of audio are there"), "\(i.text())")
        // The whole file is not cut short.
        let full = try RecordingInspection.inspect(
            try RecordingFiles.open(path: "\(Self.tests)/VigilAudioTests/Data/piano.wav", configuration: .default, signals: .builtIn))
        #expect(full.audio?.declaredDuration == nil)
    }
}
