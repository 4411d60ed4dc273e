import Foundation
import SessionViews
import Testing

/// The status bars' forms of a session, state by state (`StatusBar`); the CLI test runs them
/// through a real i3blocks.
@Suite struct StatusBarTests {
    let alarm = StatusBar.Session(task: "thesis", state: "alarm 2", worked: 600, planned: 3000, reason: "5 min in firefox", strict: true)

    @Test func anAlarmIsUrgentAndSaysWhy() throws {
        let (i3, status) = StatusBar(.i3blocks).render(alarm)
        #expect(i3 == "thesis · alarm 2 · 40:00 left · 5 min in firefox\nalarm\n#EF2929\n")
        #expect(status == 33, "i3blocks' urgent")
        let (bar, _) = StatusBar(.polybar).render(alarm)
        #expect(bar == "%{F#EF2929}thesis · alarm 2 · 40:00 left · 5 min in firefox%{F-}\n")
        let (json, waybarStatus) = StatusBar(.waybar).render(alarm)
        #expect(waybarStatus == 0)
        let module = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(module["class"] as? String == "alarm" && module["percentage"] as? Int == 20)
        #expect(
            module["tooltip"] as? String
                == "Focus session on thesis: alarm 2\n00:10:00 of 00:50:00\nWhy: 5 min in firefox\nStrict: it runs to its planned end")
    }

    @Test func eachStateHasItsClassAndOutsideTextStaysOnOneLine() {
        func kind(_ state: String) -> String { StatusBar.Session(task: nil, state: state, worked: 0, planned: nil, reason: nil, strict: false).kind }
        #expect(
            ["focused", "drifting", "distracted", "alarm 3", "paused", "on break", "waiting for you to come back"].map(kind)
                == ["focused", "drifting", "distracted", "alarm", "paused", "break", "waiting"])
        // A task with a newline, and a percent sign polybar would read as a tag.
        let odd = StatusBar.Session(task: "50% of\nthe draft", state: "focused", worked: 0, planned: nil, reason: nil, strict: false)
        #expect(StatusBar(.polybar).render(odd).text == "50%% of the draft · focused\n")
        #expect(StatusBar(.i3blocks).render(odd).text.split(separator: "\n").count == 3)
        // Past the plan (a Pomodoro set waiting): nothing negative.
        let over = StatusBar.Session(task: nil, state: "focused", worked: 4000, planned: 3000, reason: nil, strict: false)
        #expect(over.line == "focus · focused · 00:00 left" && over.percentage == 100)
    }
}
