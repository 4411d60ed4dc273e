import Foundation
import SessionViews
import SystemCalls

/// The live screen of a session, for `vigil attach` in another terminal (issue 37): while an
/// attach asks for it (`attach-request` in the data directory, holding its terminal's columns and
/// whether it shows colours), the session writes its screen there (`attached-screen`), whole and
/// renamed into place, after each tick and event. Nobody attached, it costs one `stat` a tick.
public struct ScreenMirror: Sendable {
    public let request: String
    public let screen: String

    public init(dataDirectory: String) {
        request = dataDirectory + "/attach-request"
        screen = dataDirectory + "/attached-screen"
    }

    /// Writes `view`'s screen when someone is attached.
    public func update(_ view: LiveView) {
        guard access(request, F_OK) == 0, let asked = FileManager.default.contents(atPath: request) else { return }
        let words = String(decoding: asked.prefix(64), as: UTF8.self).split(separator: " ")
        let width = words.first.flatMap { Int($0) }.map { min(max($0, 20), 1000) } ?? 80
        let lines = view.lines(.init(color: words.dropFirst().first == "color", width: width, attached: true))
        guard let file = try? OutputWriter(path: screen, what: "the attached screen") else { return }
        try? file.write(lines.joined(separator: "\n").utf8)
        try? file.commit(sync: false)
    }

    /// Asks the session for its screen, `columns` wide.
    public func attach(columns: Int, color: Bool) throws(FileWriteError) {
        let file = try OutputWriter(path: request, what: "the attach request")
        try file.write("\(columns) \(color ? "color" : "plain")".utf8)
        try file.commit(sync: false)
    }

    /// The screen last written; nil before the session wrote one.
    public func read() -> [String]? {
        FileManager.default.contents(atPath: screen).map { String(decoding: $0, as: UTF8.self).components(separatedBy: "\n") }
    }

    public func detach() {
        unlink(request)
        unlink(screen)
    }
}
