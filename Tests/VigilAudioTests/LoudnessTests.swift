import Foundation
import Testing

@testable import VigilAudio

let dataDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data").path

/// A sine at `dBFS` (peak, as EBU Tech 3341 states levels) on every channel.
func sine(frequency: Double = 1000, dBFS: Double, seconds: Double, rate: Double = 48000, channels: Int = 2, phase: inout Double) -> [Float] {
    let amplitude = pow(10, dBFS / 20)
    let frames = Int((seconds * rate).rounded())
    var out = [Float](repeating: 0, count: frames * channels)
    let step = 2 * Double.pi * frequency / rate
    for i in 0..<frames {
        let v = Float(amplitude * sin(phase))
        for c in 0..<channels { out[i * channels + c] = v }
        phase += step
        if phase > 2 * Double.pi { phase -= 2 * Double.pi }
    }
    return out
}

/// Integrated loudness of a sequence of (level, seconds) 1 kHz stereo sine segments.
func integrated(_ segments: [(Double, Double)], rate: Double = 48000) -> Double? {
    var meter = LoudnessMeter(sampleRate: rate, channels: 2)
    var phase = 0.0
    for (level, seconds) in segments { meter.process(sine(dBFS: level, seconds: seconds, rate: rate, phase: &phase)) }
    return meter.integrated
}

@Suite struct KWeightingTests {
    /// The 48 kHz coefficients printed in ITU-R BS.1770-4, Tables 1 and 2.
    @Test func matchesTheBS1770TableAt48kHz() {
        let (shelf, hp) = KWeighting.filters(sampleRate: 48000)
        let table: [(Double, Double)] = [
            (shelf.b0, 1.53512485958697), (shelf.b1, -2.69169618940638), (shelf.b2, 1.19839281085285),
            (shelf.a1, -1.69065929318241), (shelf.a2, 0.73248077421585),
            (hp.b0, 1.0), (hp.b1, -2.0), (hp.b2, 1.0), (hp.a1, -1.99004745483398), (hp.a2, 0.99007225036621),
        ]
        for (got, want) in table { #expect(abs(got - want) < 1e-8, "\(got) vs \(want)") }
    }
}

/// EBU Tech 3341 (2016), test cases 1-5, generated from their description: 1 kHz stereo sines;
/// each must read -23.0 LUFS (case 2: -33.0) within ±0.1 LU.
@Suite struct EBUTech3341Tests {
    @Test func case1SineAtMinus23() throws {
        var meter = LoudnessMeter(sampleRate: 48000, channels: 2)
        var phase = 0.0
        meter.process(sine(dBFS: -23, seconds: 20, phase: &phase))
        #expect(abs(try #require(meter.integrated) + 23) <= 0.1)
        #expect(abs(try #require(meter.momentary) + 23) <= 0.1)
        #expect(abs(try #require(meter.shortTerm) + 23) <= 0.1)
        #expect(abs(meter.maxMomentary + 23) <= 0.1)
    }

    @Test func case2SineAtMinus33() throws {
        #expect(abs(try #require(integrated([(-33, 20)])) + 33) <= 0.1)
    }

    @Test func case3RelativeGateIgnoresTheQuietEnds() throws {
        #expect(abs(try #require(integrated([(-36, 10), (-23, 60), (-36, 10)])) + 23) <= 0.1)
    }

    @Test func case4BothGates() throws {
        #expect(abs(try #require(integrated([(-72, 10), (-36, 10), (-23, 60), (-36, 10), (-72, 10)])) + 23) <= 0.1)
    }

    @Test func case5LevelSteps() throws {
        #expect(abs(try #require(integrated([(-26, 20), (-20, 20.1), (-26, 20)])) + 23) <= 0.1)
    }

    @Test(arguments: [44100.0, 32000.0, 22050.0])
    func otherSampleRatesAgree(_ rate: Double) throws {
        #expect(abs(try #require(integrated([(-23, 10)], rate: rate)) + 23) <= 0.1)
    }
}

@Suite struct MeterTests {
    @Test func nothingBeforeAWholeWindow() {
        var meter = LoudnessMeter(sampleRate: 48000, channels: 1)
        var phase = 0.0
        meter.process(sine(dBFS: -20, seconds: 0.39, channels: 1, phase: &phase))
        #expect(meter.momentary == nil)
        #expect(meter.shortTerm == nil)
        #expect(meter.integrated == nil)
        meter.process(sine(dBFS: -20, seconds: 0.02, channels: 1, phase: &phase))
        #expect(meter.momentary != nil)
    }

    @Test func silenceIsBelowTheAbsoluteGate() {
        var meter = LoudnessMeter(sampleRate: 16000, channels: 1)
        meter.process([Float](repeating: 0, count: 16000 * 5))
        #expect(meter.integrated == nil)
        let levels = meter.takeLevels()
        #expect(levels?.rms == -Double.infinity)
    }

    @Test func rmsAndPeakOfAFullScaleSine() throws {
        var meter = LoudnessMeter(sampleRate: 48000, channels: 1)
        var phase = 0.0
        meter.process(sine(dBFS: 0, seconds: 1, channels: 1, phase: &phase))
        let taken = meter.takeLevels()
        let levels = try #require(taken)
        #expect(abs(levels.rms + 3.0103) < 0.01)
        #expect(abs(levels.peak) < 0.01)
        let again = meter.takeLevels()
        #expect(again == nil, "a new window starts empty")
    }

    @Test func feedingInPiecesEqualsFeedingAtOnce() {
        var phase = 0.0
        let signal = sine(frequency: 440, dBFS: -18, seconds: 5, channels: 2, phase: &phase)
        var whole = LoudnessMeter(sampleRate: 48000, channels: 2)
        whole.process(signal)
        var pieces = LoudnessMeter(sampleRate: 48000, channels: 2)
        var i = 0
        var size = 2
        while i < signal.count {
            let n = min(size, signal.count - i)
            pieces.process(Array(signal[i..<(i + n)]))
            i += n
            size = size * 3 % 4099 + 2
            size -= size % 2
        }
        #expect(whole.integrated == pieces.integrated)
        #expect(whole.shortTerm == pieces.shortTerm)
    }
}

/// Reference files with the values other implementations measured (Data/EXPECTED_VALUES.csv,
/// Data/SOURCE.txt: pyloudnorm's test data, ITU-R BS.2217 compliance signals).
@Suite struct ReferenceFileTests {
    func measure(_ name: String) throws -> Double? {
        let wav = try WAVReader(path: "\(dataDir)/\(name)")
        var meter = LoudnessMeter(sampleRate: Double(wav.sampleRate), channels: wav.channels)
        var buffer: [Float] = []
        while true {
            wav.read(maxFrames: 8192, into: &buffer)
            if buffer.isEmpty { break }
            meter.process(buffer)
        }
        return meter.integrated
    }

    @Test func absoluteGateCompliance() throws {
        #expect(abs(try #require(try measure("1770-2_Comp_AbsGateTest.wav")) + 69.5) <= 0.1)
    }

    @Test func relativeGateCompliance() throws {
        #expect(abs(try #require(try measure("1770-2_Comp_RelGateTest.wav")) + 10.0) <= 0.1)
    }

    @Test func pianoRecordingAgreesWithAnIndependentMeter() throws {
        #expect(abs(try #require(try measure("piano.wav")) + 31.046) <= 0.1)
    }

    @Test func oneSecondSine() throws {
        #expect(abs(try #require(try measure("sine_1000.wav")) + 3.007) <= 0.1)
    }
}
