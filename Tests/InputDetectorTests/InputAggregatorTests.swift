import Testing
import VigilCore

@testable import InputCounting

/// The aggregator and the app-switch classifier, stepped event by event. Key codes are written out
/// from linux/input-event-codes.h so the expectations do not depend on the code under test.
@Suite struct InputAggregatorTests {
    // linux/input-event-codes.h
    let TAB: UInt16 = 15, LEFTALT: UInt16 = 56, LEFTSHIFT: UInt16 = 42, LEFTCTRL: UInt16 = 29
    let LEFTMETA: UInt16 = 125, KEY_1: UInt16 = 2, KEY_H: UInt16 = 35, PAGEDOWN: UInt16 = 109, RIGHT: UInt16 = 106

    func run(_ events: [(Double, InputEvent)], window: Double = 5, until end: Double) -> [(Double, InputActivity)] {
        var a = InputAggregator(window: window, origin: 0)
        var out: [(Double, InputActivity)] = []
        for (t, e) in events { a.add(TimedInputEvent(time: t, event: e), emit: { out.append(($0, $1)) }) }
        a.close(upTo: end, emit: { out.append(($0, $1)) })
        return out
    }

    func keys(_ seq: [(UInt16, KeyState)], from t0: Double = 0.1) -> [(Double, InputEvent)] {
        seq.enumerated().map { (t0 + Double($0.offset) * 0.05, InputEvent.key(code: $0.element.0, state: $0.element.1)) }
    }

    @Test func windowsIncludeEmptyOnesAndIdleRunsFromTheLastEvent() {
        let out = run([(1.0, .key(code: KEY_H, state: .pressed)), (1.1, .key(code: KEY_H, state: .released))], until: 15)
        #expect(out.map(\.0) == [5, 10, 15])
        #expect(out[0].1.keyPresses == 1)
        #expect(abs(out[0].1.idle - 3.9) < 1e-9)
        #expect(out[1].1.keyPresses == 0)
        #expect(abs(out[1].1.idle - 8.9) < 1e-9)
        #expect(abs(out[2].1.idle - 13.9) < 1e-9)
    }

    @Test func autorepeatIsNotAPress() {
        let out = run(keys([(KEY_H, .pressed), (KEY_H, .repeated), (KEY_H, .repeated), (KEY_H, .released)]), until: 5)
        #expect(out[0].1.keyPresses == 1)
    }

    @Test func altTabCountsEachTabPressWhileAltIsHeld() {
        // Alt down, Tab ×3 (one with autorepeat), Shift+Tab once more, Alt up: four switches.
        let out = run(
            keys([
                (LEFTALT, .pressed), (TAB, .pressed), (TAB, .released), (TAB, .pressed), (TAB, .repeated), (TAB, .released),
                (TAB, .pressed), (TAB, .released), (LEFTSHIFT, .pressed), (TAB, .pressed), (TAB, .released),
                (LEFTSHIFT, .released), (LEFTALT, .released),
            ]), until: 5)
        #expect(out[0].1.switches == AppSwitches(altTab: 4))
        #expect(out[0].1.keyPresses == 6)  // Alt, Tab, Tab, Tab, Shift, Tab
    }

    @Test func superAloneOpensTheOverviewButSuperAsModifierDoesNot() {
        let out = run(
            keys([
                (LEFTMETA, .pressed), (LEFTMETA, .repeated), (LEFTMETA, .released),  // alone: 1
                (LEFTMETA, .pressed), (KEY_1, .pressed), (KEY_1, .released), (LEFTMETA, .released),  // Super+1: workspace
                (LEFTMETA, .pressed), (PAGEDOWN, .pressed), (PAGEDOWN, .released), (LEFTMETA, .released),  // workspace
            ]), until: 5)
        #expect(out[0].1.switches == AppSwitches(superKey: 1, workspace: 2))
    }

    @Test func ctrlTabAndCtrlAltArrows() {
        let out = run(
            keys([
                (LEFTCTRL, .pressed), (TAB, .pressed), (TAB, .released), (PAGEDOWN, .pressed), (PAGEDOWN, .released),
                (LEFTALT, .pressed), (RIGHT, .pressed), (RIGHT, .released), (LEFTALT, .released), (LEFTCTRL, .released),
                (TAB, .pressed), (TAB, .released),  // plain Tab: nothing
            ]), until: 5)
        #expect(out[0].1.switches == AppSwitches(ctrlTab: 2, workspace: 1))
    }

    @Test func pointerScrollClicksAndSwipes() {
        let out = run(
            [
                (0.5, .motion(dx: 3, dy: 4)), (0.6, .motion(dx: -6, dy: 8)), (0.7, .click),
                (1.0, .scroll(v120: 120, distance: 0)), (1.1, .scroll(v120: 60, distance: 0)), (1.2, .scroll(v120: 60, distance: 0)),
                (1.3, .scroll(v120: 0, distance: 30)), (1.4, .scroll(v120: 0, distance: 30)),
                (2.0, .swipe(fingers: 3)), (2.5, .swipe(fingers: 2)),
                (6.0, .scroll(v120: 0, distance: 40)),  // carries the 10 left over from the first window
            ], until: 10)
        #expect(abs(out[0].1.pointerTravel - 15) < 1e-9)
        #expect(out[0].1.clicks == 1)
        #expect(out[0].1.scrollTicks == 3)  // 2 detents + 60 units of finger scrolling (1 tick, 10 over)
        #expect(out[0].1.switches == AppSwitches(swipes: 1))
        #expect(out[1].1.scrollTicks == 1)
    }
}
