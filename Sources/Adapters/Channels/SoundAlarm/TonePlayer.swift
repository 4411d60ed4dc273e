import CPulseSimple
import Foundation
import SystemCalls

/// Why a sound could not be played.
public struct SoundError: Error, CustomStringConvertible {
    public var detail: String
    public init(detail: String) { self.detail = detail }
    public var description: String { detail }
}

/// An alarm tone: short beeps of a sine, with 5 ms fades so they click neither on nor off.
public struct AlarmTone: Sendable, Equatable {
    public var frequency: Double
    /// Peak level of the sine, dBFS (its RMS is 3 dB lower).
    public var level: Double
    public var beeps: Int
    public var beepSeconds: Double
    public var gapSeconds: Double

    public init(frequency: Double = 880, level: Double = -12, beeps: Int = 3, beepSeconds: Double = 0.25, gapSeconds: Double = 0.15) {
        self.frequency = frequency
        self.level = level
        self.beeps = beeps
        self.beepSeconds = beepSeconds
        self.gapSeconds = gapSeconds
    }

    /// The samples at `rate`, mono.
    public func samples(rate: Int) -> [Float] {
        let amplitude = pow(10, level / 20)
        let beep = Int(beepSeconds * Double(rate))
        let gap = Int(gapSeconds * Double(rate))
        let fade = max(1, Int(0.005 * Double(rate)))
        var out = [Float](repeating: 0, count: beeps * beep + max(0, beeps - 1) * gap)
        for b in 0..<beeps {
            let start = b * (beep + gap)
            for i in 0..<beep {
                let envelope = Double(min(i, beep - 1 - i, fade)) / Double(fade)
                out[start + i] = Float(amplitude * min(1, envelope) * sin(2 * .pi * frequency * Double(i) / Double(rate)))
            }
        }
        return out
    }
}

/// Plays sounds through PulseAudio (or pipewire-pulse) with libpulse-simple. The only module that
/// imports `CPulseSimple`. Blocking: call it off the session's path (the alarm dispatcher's queue).
public struct TonePlayer: Sendable {
    /// Server address as libpulse takes it; nil is the default ($PULSE_SERVER, then the session's).
    public var server: String?
    public var rate: Int

    public init(server: String? = nil, rate: Int = 48_000) {
        self.server = server
        self.rate = rate
    }

    public func play(_ tone: AlarmTone) throws(SoundError) {
        try play(samples: tone.samples(rate: rate), rate: rate)
    }

    /// Plays mono float samples and returns when they have been played.
    public func play(samples: [Float], rate: Int) throws(SoundError) {
        // libpulse-simple is opened now, not at Vigil's start (CSensorLibraries).
        if let problem = SensorLibrary.pulseSimple.open(vigil_load_libpulse_simple) { throw SoundError(detail: "cannot play a sound: \(problem)") }
        var buffer = [CChar](repeating: 0, count: 256)
        let rc = samples.withUnsafeBufferPointer { p in
            vigil_pulse_play(server, "Vigil", p.baseAddress, p.count, UInt32(rate), &buffer, buffer.count)
        }
        guard rc == 0 else {
            let reason = cText(buffer)
            throw SoundError(detail: "cannot play through the PulseAudio server (\(reason)); is PulseAudio or pipewire-pulse running (`pactl info`)?")
        }
    }
}
