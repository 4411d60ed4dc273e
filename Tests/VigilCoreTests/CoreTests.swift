import Testing
import VigilTesting

@testable import VigilCore

@Suite struct TimeTests {
    @Test func rfc3339() {
        #expect(parseRFC3339("1970-01-01T00:00:00Z") == Timestamp(nanoseconds: 0))
        #expect(parseRFC3339("2026-03-02T09:00:00Z") == Timestamp(nanoseconds: 1_772_442_000_000_000_000))
        #expect(parseRFC3339("2026-03-02T10:00:00+01:00") == parseRFC3339("2026-03-02T09:00:00Z"))
        #expect(parseRFC3339("2026-03-02T09:00:00.25Z") == Timestamp(nanoseconds: 1_772_442_000_250_000_000))
        #expect(parseRFC3339("2026-13-02T09:00:00Z") == nil)
        // Only the supported dates, 1970 to 2199, well inside what 64-bit nanoseconds since 1970
        // hold (1677-09-21 to 2262-04-11; a fuzzer found that year 1013 crashed the reader with an
        // arithmetic overflow, and a date at the edge crashed the first sum with a duration).
        #expect(parseRFC3339("1013-03-10T13:00:00Z") == nil)
        #expect(parseRFC3339("6791-03-10T13:00:00Z") == nil)
        #expect(parseRFC3339("2262-04-11T23:47:16Z") == nil)
        #expect(parseRFC3339("1677-09-21T00:12:44Z") == nil)
        #expect(parseRFC3339("2199-12-31T23:59:59Z") == Timestamp(nanoseconds: 7_258_118_399_000_000_000))
        #expect(parseRFC3339("2200-01-01T00:00:00Z") == nil)
        #expect(parseRFC3339("1970-01-01T00:00:00Z") == Timestamp(nanoseconds: 0))
        #expect(parseRFC3339("1969-12-31T23:59:59Z") == nil)
        #expect(parseRFC3339("1970-01-01T00:30:00+01:00") == nil, "1969 in UTC")
        #expect(civilDay("2199-12-31") == 84_005 && civilDay("2200-01-01") == nil && civilDay("9999-12-31") == nil)
        #expect(parseRFC3339("2026-03-02 09:00") == nil)
        #expect(parseRFC3339("2026-03-02T09:00:00") == nil, "a time without a zone is ambiguous")
    }

    /// Each way a text can fail to be a time has its own words: a real time outside the dates is
    /// not called "not RFC 3339", and an impossible one (February 30, an offset of +99:99) is not
    /// moved to a possible one (2026-02-30 was read as 2026-03-02).
    @Test func rfc3339SaysWhyATextIsNotATime() {
        #expect(readRFC3339("2026-02-30T10:00:00Z") == .failure(.impossible))
        #expect(readRFC3339("2024-02-29T10:00:00Z") == .success(parseRFC3339("2024-03-01T10:00:00Z")! - 86_400))
        #expect(readRFC3339("2023-02-29T10:00:00Z") == .failure(.impossible), "not a leap year")
        #expect(readRFC3339("2026-04-31T10:00:00Z") == .failure(.impossible))
        #expect(readRFC3339("2026-01-01T10:00:00+99:99") == .failure(.impossible))
        #expect(readRFC3339("2026-01-01T10:00:00+24:00") == .failure(.impossible))
        #expect(readRFC3339("2026-01-01T10:00:00-23:59") == .success(parseRFC3339("2026-01-02T09:59:00Z")!))
        #expect(readRFC3339("2026-01-01T24:00:00Z") == .failure(.impossible))
        #expect(readRFC3339("2300-01-01T00:00:00Z") == .failure(.unsupported))
        #expect(readRFC3339("9999-12-31T00:00:00Z") == .failure(.unsupported))
        #expect(readRFC3339("yesterday") == .failure(.notRFC3339))
        #expect(
            TimeTextProblem.unsupported.describe("2300-01-01T00:00:00Z").contains("outside the dates Vigil supports, from 1970-01-01 to 2199-12-31"))
        #expect(!TimeTextProblem.unsupported.describe("x").contains("not an RFC 3339"))
    }

    /// Days and instants an older Vigil stored before it checked them are read as the nearest
    /// supported ones; calendar dates of any day are computed without an instant (which traps).
    @Test func storedDatesOutsideTheRangeReadAsTheNearest() {
        let last = civilDay("2199-12-31")!
        #expect(SupportedDates.nearest(day: civilDay("2199-12-31")! + 2_000_000) == last)
        #expect(SupportedDates.nearest(day: -5) == 0)
        #expect(SupportedDates.nearest(day: 20_000) == 20_000)
        #expect(SupportedDates.nearest(milliseconds: .max) == 7_258_118_399_999)
        #expect(SupportedDates.nearest(milliseconds: .min) == 0)
        #expect(Timestamp(milliseconds: SupportedDates.nearest(milliseconds: 253_402_214_400_000)).description == "2199-12-31T23:59:59.999Z")
        #expect(civilDate(2_932_896) == "9999-12-31")
        #expect(civilDate(Int.max) != "", "any day has words, none traps")
        #expect(civilDate(Int.min) != "")
    }

    @Test func civilTimeRoundTrips() {
        for s in ["2024-02-29T23:59:59Z", "2000-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "2026-11-21T12:34:56.789Z"] {
            #expect(parseRFC3339(s).map { CivilTime($0).iso8601 } == s)
        }
        // Before 1970 (not taken in, but the arithmetic holds).
        #expect(CivilTime(Timestamp(nanoseconds: -1_000_000_000)).iso8601 == "1969-12-31T23:59:59Z")
    }

    @Test func humanDurations() {
        #expect(humanDuration(45) == "45 s")
        #expect(humanDuration(240) == "4 min")
        #expect(humanDuration(200) == "3 min 20 s")
        #expect(humanDuration(3900) == "1 h 05 min")
        #expect(humanMinutes(259) == "4 min")
        #expect(clockDuration(3725.9) == "01:02:05")
    }
}

@Suite struct GeodesyTests {
    // Reference values independent of this code: one degree of longitude on the WGS 84 equator is
    // a·π/180; one degree of latitude from the equator is the meridian arc 110 574.389 m; and the
    // Flinders Peak–Buninyong line from Vincenty's 1975 paper is 54 972.271 m.
    @Test func knownDistances() {
        #expect(abs(Geodesy.distance(latitude: 0, longitude: 0, latitude: 0, longitude: 1) - 111_319.491) < 0.01)
        #expect(abs(Geodesy.distance(latitude: 0, longitude: 0, latitude: 1, longitude: 0) - 110_574.389) < 0.01)
        let flinders = (lat: -(37 + 57 / 60.0 + 3.72030 / 3600), lon: 144 + 25 / 60.0 + 29.52440 / 3600)
        let buninyong = (lat: -(37 + 39 / 60.0 + 10.15610 / 3600), lon: 143 + 55 / 60.0 + 35.38390 / 3600)
        let d = Geodesy.distance(latitude: flinders.lat, longitude: flinders.lon, latitude: buninyong.lat, longitude: buninyong.lon)
        #expect(abs(d - 54_972.271) < 0.01)
        #expect(Geodesy.distance(latitude: 52, longitude: 0.1, latitude: 52, longitude: 0.1) == 0)
    }

    @Test func haversineIsTheFallbackForAntipodes() {
        let d = Geodesy.distance(latitude: 0, longitude: 0, latitude: 0.5, longitude: 179.7)
        #expect(d > 19_900_000 && d < 20_040_000)
    }
}

@Suite struct ConfigurationProblemTests {
    @Test func defaultsAreValid() {
        #expect(VigilConfiguration.default.problems().isEmpty)
    }

    @Test func relationsAreChecked() {
        var c = VigilConfiguration.default
        c.scoring.driftExit = 0.5
        c.input.idleFull = 60
        c.alarms.escalation = [30, 20]
        let keys = c.problems().map(\.key)
        #expect(keys.contains("scoring.drift_exit"))
        #expect(keys.contains("input.idle_full"))
        #expect(keys.contains("alarms.escalation"))
    }
}

@Suite struct ScorerTests {
    @Test func switchingCountsInASlidingWindow() {
        var s = SwitchingScorer(config: .init())
        s.observe(InputActivity(window: 5, switches: AppSwitches(altTab: 4, superKey: 2, swipes: 1), idle: 0), at: at(10))
        s.observe(InputActivity(window: 5, switches: AppSwitches(ctrlTab: 7), idle: 0), at: at(60))
        #expect(s.assess(at: at(60))?.reason == "14 app switches in 2 min")
        #expect(s.assess(at: at(60))?.score == 1)
        s.advance(to: at(131))
        #expect(s.assess(at: at(131))?.reason == "7 app switches in 2 min")
        #expect(s.assess(at: at(131))?.score == 1.0 / 8)
    }

    @Test func inputWithoutAnyInputSampleScoresNothing() {
        let s = PresenceScorer(config: .init())
        #expect(s.assess(at: at(1000)) == nil)
    }

    @Test func noiseUsesRMSWhenLoudnessIsUnknown() {
        var s = NoiseScorer(config: .init())
        for t in stride(from: 0.0, through: 120, by: 1) { s.observe(AudioLevel(rms: -25, peak: -10), at: at(t)) }
        #expect(s.assess(at: at(120))?.reason == "noise -25 dBFS for 2 min")
        #expect(s.assess(at: at(120))?.score == 0.5)
    }
}
