import Testing

@testable import VigilCore

/// Huge finite numbers (issue 17): `Int(_: Double)` traps on them, `Int(saturating:)` does not.
@Suite struct SaturatingConversionTests {
    @Test func inRangeValuesAreTruncatedTowardZero() {
        #expect(Int(saturating: 0) == 0)
        #expect(Int(saturating: -0.0) == 0)
        #expect(Int(saturating: 1.9) == 1)
        #expect(Int(saturating: -1.9) == -1)
        #expect(Int(saturating: 1e15) == 1_000_000_000_000_000)
        #expect(Int(saturating: .leastNonzeroMagnitude) == 0)
        #expect(Int(saturating: -.leastNormalMagnitude) == 0)
    }

    /// `Double(Int.max)` is 2^63, one more than `Int.max`: `Int(Double(Int.max))` traps.
    @Test func theInt64BoundaryIsExact() {
        let belowTwoTo63 = Double(sign: .plus, exponent: 63, significand: 1).nextDown
        #expect(Int(saturating: belowTwoTo63) == 9_223_372_036_854_774_784)
        #expect(Int(saturating: Double(Int.max)) == .max)
        #expect(Int(saturating: Double(Int.max).nextUp) == .max)
        #expect(Int(saturating: Double(Int.min)) == .min)
        #expect(Int(saturating: Double(Int.min).nextDown) == .min)
        #expect(Int(saturating: Double(Int.min).nextUp) == -9_223_372_036_854_774_784)
        #expect(Int64(saturating: 1e19) == .max)
        #expect(Int64(saturating: -1e19) == .min)
        // Int64 and Int have conversions of their own (the hot paths'): the same bounds.
        #expect(Int64(saturating: belowTwoTo63) == 9_223_372_036_854_774_784)
        #expect(Int64(saturating: Double(Int64.max)) == .max)
        #expect(Int64(saturating: Double(Int64.min)) == .min)
        #expect(Int64(saturating: Double(Int64.min).nextUp) == -9_223_372_036_854_774_784)
        #expect(Int64(saturating: .nan) == 0)
        #expect(Int64(saturating: -.infinity) == .min)
        #expect(Int64(saturating: -1.9) == -1)
    }

    @Test func infinitiesSaturateAndNaNIsZero() {
        #expect(Int(saturating: .infinity) == .max)
        #expect(Int(saturating: -.infinity) == .min)
        #expect(Int(saturating: .nan) == 0)
        #expect(Int(saturating: -.nan) == 0)
        #expect(Int(saturating: .signalingNaN) == 0)
        #expect(Int(saturating: .greatestFiniteMagnitude) == .max)
        #expect(Int(saturating: -.greatestFiniteMagnitude) == .min)
    }

    @Test func narrowerAndUnsignedTypesSaturateAtTheirOwnBounds() {
        #expect(Int32(saturating: 2_147_483_646.9) == 2_147_483_646)
        #expect(Int32(saturating: 2_147_483_647) == .max)
        #expect(Int32(saturating: 3e9) == .max)
        #expect(Int32(saturating: -3e9) == .min)
        #expect(UInt32(saturating: -1) == 0)
        #expect(UInt32(saturating: 1e300) == .max)
        #expect(UInt64(saturating: 1.8446744073709552e19) == .max)
        #expect(UInt8(saturating: 255.5) == .max)
        #expect(UInt8(saturating: -.infinity) == 0)
        #expect(UInt8(saturating: .nan) == 0)
    }

    /// What used to stop `vigil replay` when a reason or the live screen showed such a value.
    @Test func humanWordingOfHugeSpansDoesNotTrap() {
        #expect(humanDuration(1e300).hasSuffix(" min"))
        #expect(humanDuration(-.infinity) == "0 s")
        #expect(humanMinutes(.nan) == "0 s")
        #expect(humanMinutes(1e300) == "\(Int.max) min")
        #expect(clockDuration(.infinity).hasPrefix("2562047788015215:"))
        #expect(clockDuration(-1e300) == "00:00:00")
        #expect(NoiseDetail(level: 1e19, loudness: true, seconds: 60).reason == "noise \(Int.max) LUFS for 1 min")
        #expect(DistanceDetail(metres: -.infinity, place: nil).reason.hasPrefix("\(Int.min) m"))
    }

    /// An instant moved by a span beyond 64-bit nanoseconds stops at the last one there is.
    @Test func timestampArithmeticSaturates() {
        let t = Timestamp(nanoseconds: 1_000)
        #expect((t + 1e300).nanoseconds == .max)
        #expect((t - 1e300).nanoseconds == .min + 1_000)
        #expect((Timestamp(nanoseconds: -1_000) - 1e300).nanoseconds == .min)
        #expect((t + .infinity).nanoseconds == .max)
        #expect((t + .nan) == t)
        #expect((Timestamp(nanoseconds: .max - 5) + 1).nanoseconds == .max)
        #expect(Timestamp(seconds: 1e19).nanoseconds == .max)
        #expect(Timestamp(seconds: -.infinity).nanoseconds == .min)
        #expect((t + 1.5).nanoseconds == 1_500_001_000)
    }
}

@Suite struct SampleLimitsTests {
    /// A live reading is brought into the ranges a recording holds; one already inside is kept.
    @Test func liveReadingsAreClampedIntoTheRanges() {
        let input = InputActivity(
            window: 0, keyPresses: Int.max, pointerTravel: .infinity, clicks: -5, scrollTicks: 2_000_000_000,
            switches: AppSwitches(altTab: .min, superKey: 1, ctrlTab: 2, workspace: 3, swipes: .max), idle: 1.8e16)
        guard case .input(let a) = SampleLimits.clamped(.input(input)) else {
            Issue.record("not input")
            return
        }
        #expect(a.window == SampleLimits.longestWindow)
        #expect(a.keyPresses == 999_999_999 && a.clicks == 0 && a.scrollTicks == 999_999_999)
        #expect(a.switches == AppSwitches(altTab: 0, superKey: 1, ctrlTab: 2, workspace: 3, swipes: 999_999_999))
        #expect(a.pointerTravel == 1e12)
        #expect(a.idle < 3.15e9 && a.idle > 3.1e9)

        #expect(
            SampleLimits.clamped(.audio(AudioLevel(rms: .infinity, peak: .nan, shortTermLUFS: -1e300, momentaryLUFS: .nan)))
                == .audio(AudioLevel(rms: 20, peak: -200, shortTermLUFS: -200, momentaryLUFS: nil)))
        #expect(
            SampleLimits.clamped(
                .location(
                    LocationFix(latitude: 91, longitude: -1e19, horizontalAccuracy: .nan, speed: -3, mode: .threeD, distanceFromWorkplace: 1e19)))
                == .location(
                    LocationFix(
                        latitude: 90, longitude: -180, horizontalAccuracy: 20_037_509, speed: 0, mode: .threeD, distanceFromWorkplace: 20_037_509)))
        #expect(SampleLimits.clamped(.desktop(.idle(-.infinity))) == .desktop(.idle(0)))
        #expect(SampleLimits.clamped(.media(MediaActivity(calls: -1, playing: .max))) == .media(MediaActivity(calls: 0, playing: 999_999_999)))
        let reading = SignalReading(sensor: SensorKind(rawValue: "heart"), value: .nan, label: "x")
        #expect(SampleLimits.clamped(.reading(reading)) == .reading(SignalReading(sensor: reading.sensor, value: nil, label: "x")))

        let ordinary: [SamplePayload] = [
            .input(InputActivity(window: 5, keyPresses: 12, pointerTravel: 340.5, idle: 0.8)),
            .audio(AudioLevel(rms: -52.1, peak: -40.25, shortTermLUFS: -48)),
            .location(
                LocationFix(latitude: 48.855, longitude: 2.295, horizontalAccuracy: 8, mode: .threeD, distanceFromWorkplace: 212.4, cellSize: 0.01)),
            .desktop(.idle(12.25)), .desktop(.locked), .control(.snooze),
        ]
        for p in ordinary { #expect(SampleLimits.clamped(p) == p) }
    }
}

@Suite struct DistanceConfigurationTests {
    /// Distances in the config are metres up to half the Earth's circumference; a workplace's
    /// radius was checked as a duration ("at most 1 day (86400 s)").
    @Test func radiiAreMetresOnTheEarth() {
        var c = VigilConfiguration.default
        c.location.workplace = VigilConfiguration.Workplace(name: "campus", latitude: 52.2, longitude: 0.12, radius: 100_000)
        #expect(c.problems().isEmpty, "\(c.problems())")
        c.location.workplace?.radius = 1e19
        c.location.radius = .infinity
        c.location.maxAccuracy = 0
        let problems = c.problems().map(\.description)
        for key in ["location.workplace.radius", "location.radius", "location.max_accuracy"] {
            #expect(
                problems.contains { $0.hasPrefix("\(key): must be greater than 0 and at most 20037509 m (half the Earth's circumference)") },
                "\(problems)")
        }
    }
}
