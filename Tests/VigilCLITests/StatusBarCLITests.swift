import Foundation
import TestSupport
import Testing

/// `vigil status --format` as status bars read it (issue 37): a live session's line through a
/// real i3blocks (which turns its blocks' output into i3bar's JSON protocol), waybar's JSON as its
/// custom module documents it, and polybar's line; and what hides the module when no session runs.
@Suite struct StatusBarCLITests {
    @Test func aLiveSessionAsI3blocksWaybarAndPolybarShowIt() async throws {
        let home = freshHome()
        let data = home + "/d"
        // With no session: nothing for i3blocks (the block hides), an empty text for waybar.
        let none = try await vigil(["status", "--format", "waybar", "--data-dir", data], home: home)
        #expect(none.status == 0 && none.stdout == #"{"text":"","tooltip":"No focus session is running","class":"none","percentage":0}"# + "\n")
        let noBlock = try await vigil(["status", "--format", "i3blocks", "--data-dir", data], home: home)
        #expect(noBlock.status == 0 && noBlock.stdout.isEmpty)

        let p = try background(vigilBinary, ["start", "--task", "thesis", "--minutes", "30", "--json", "--data-dir", data], home: home)
        defer { p.process.kill(SIGKILL) }
        #expect(try await eventually(300) { p.printed.contains("session_started") || !p.process.isRunning }, "\(p.said)")

        let waybar = try await vigil(["status", "--format", "waybar", "--data-dir", data], home: home)
        #expect(waybar.status == 0, "\(waybar)")
        let module = try #require(try JSONSerialization.jsonObject(with: Data(waybar.stdout.utf8)) as? [String: Any], "\(waybar.stdout)")
        #expect(
            (module["text"] as? String)?.hasPrefix("thesis · focused · ") == true && (module["text"] as? String)?.hasSuffix(" left") == true,
            "\(module)")
        #expect(module["class"] as? String == "focused" && (module["percentage"] as? Int).map { (0...5).contains($0) } == true, "\(module)")
        #expect((module["tooltip"] as? String)?.hasPrefix("Focus session on thesis: focused") == true, "\(module)")
        let polybar = try await vigil(["status", "--format", "polybar", "--data-dir", data], home: home)
        #expect(polybar.stdout.hasPrefix("thesis · focused · ") && polybar.stdout.hasSuffix(" left\n"), "\(polybar.stdout)")

        // A real i3blocks runs the command as a bar would, every second, and says it in i3bar's protocol.
        write(
            "[vigil]\ncommand=env HOME=\(home) TZ=UTC \(vigilBinary) status --format i3blocks --data-dir \(data)\ninterval=1\n",
            to: home + "/i3blocks.conf")
        let bar = try background("/usr/bin/i3blocks", ["-c", home + "/i3blocks.conf"], home: home)
        defer { bar.process.kill(SIGKILL) }
        #expect(try await eventually(60) { bar.printed.contains(#""name":"vigil""#) }, "\(bar.printed)\(bar.said)")
        bar.process.kill(SIGKILL)
        let update = try #require(bar.printed.split(separator: "\n").last { $0.contains(#""name":"vigil""#) })
        #expect(update.contains(#""full_text":"thesis · focused · "#) && update.contains(#""short_text":"focused""#), "\(update)")
        #expect(update.contains(##""color":"#8AE234""##) && !update.contains("urgent"), "\(update)")
    }
}
