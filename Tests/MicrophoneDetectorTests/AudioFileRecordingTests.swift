import Foundation
import Testing
import VigilCore

@testable import SensorFiles

/// WAV files read into level samples by the code that measures the live microphone.
@Suite struct AudioFileRecordingTests {
    static let audioData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("VigilAudioTests/Data").path

    /// piano.wav (44.1 kHz stereo, 10 s, from pyloudnorm's tests): integrated loudness against
    /// ffmpeg's ebur128 of the same file and pyloudnorm's independent value (-31.046 LUFS,
    /// Data/EXPECTED_VALUES.csv).
    @Test func aRealRecordingMeasuresAsIndependentMetersDo() throws {
        let path = Self.audioData + "/piano.wav"
        let r = try AudioFileRecording.read(path: path, window: 1, start: Timestamp(seconds: 1_700_000_000))
        let integrated = try #require(r.summary.integrated)
        #expect(abs(integrated - (-31.046)) < 0.1)
        #expect(abs(integrated - (try ffmpegIntegratedLoudness(path))) < 0.1)
        #expect(r.summary.sampleRate == 44_100 && r.summary.channels == 2)
        #expect(abs(r.summary.duration - 10) < 0.01)
        // One level per whole second, stamped at the window's end, after an `available` status.
        let levels = r.samples.compactMap { s -> (Double, AudioLevel)? in
            if case .audio(let l) = s.payload { (s.time - r.start, l) } else { nil }
        }
        #expect(levels.map(\.0) == Array(1...10).map(Double.init))
        #expect(levels.first?.1.shortTermLUFS == nil)  // short-term needs 3 s
        #expect(levels.last?.1.shortTermLUFS != nil)
        if case .status(let s)? = r.samples.first?.payload { #expect(s.state == .available) } else { Issue.record("no status first") }
    }

    /// Without a `bext` chunk the file ends at its modification time.
    @Test func theStartIsTheFileTimeMinusTheDuration() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-wav-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let copy = dir + "/piano.wav"
        try FileManager.default.copyItem(atPath: Self.audioData + "/piano.wav", toPath: copy)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_100)], ofItemAtPath: copy)
        let r = try AudioFileRecording.read(path: copy)
        #expect(abs(r.start.secondsSinceEpoch - (1_700_000_100 - 10)) < 0.01)
    }

    /// A header that claims more audio than the file holds (a truncated copy; here 10 s of audio
    /// with a data size claiming hours) places the file by the audio there is: it ended at
    /// its modification time and began 5 s before, not hours earlier.
    @Test func aHeaderOverstatingTheLengthDoesNotMoveTheStart() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-wav-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.audioData + "/piano.wav")))
        // Find "data" and its size, then cut the audio to its first half and overstate the size.
        let data = try #require((0..<(bytes.count - 8)).first { bytes[$0..<($0 + 4)] == [0x64, 0x61, 0x74, 0x61] })
        let size = Int(bytes[data + 4]) | Int(bytes[data + 5]) << 8 | Int(bytes[data + 6]) << 16 | Int(bytes[data + 7]) << 24
        bytes = Array(bytes.prefix(data + 8 + size / 2))
        for (i, b) in [0x00, 0x00, 0x00, 0xF0].enumerated() { bytes[data + 4 + i] = UInt8(b) }
        let copy = dir + "/cut.wav"
        try Data(bytes).write(to: URL(fileURLWithPath: copy))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_100)], ofItemAtPath: copy)
        let r = try AudioFileRecording.read(path: copy)
        #expect(abs(r.start.secondsSinceEpoch - (1_700_000_100 - 5)) < 0.01, "\(r.start)")
        #expect(r.summary.declaredDuration > 3600, "the header's claim is still reported (inspect shows it)")
        #expect(abs(r.summary.duration - 5) < 0.01)
    }

    /// Huge numbers (issue 17): a float WAV may hold 1e38, infinities and NaNs. Its levels stay in
    /// the range a recording holds (-200 to 20 dB), as a live microphone's do, and the summary
    /// keeps only finite figures, so neither the scorer, the live screen nor `inspect --json`
    /// meets an infinity.
    @Test func aFloatFileOfHugeSamplesGivesLevelsInRange() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vigil-wav-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rate = 8_000
        let seconds: [Float] = [1e38, .infinity, -.infinity, .nan, 0.5, 0]
        let frames = seconds.flatMap { Array(repeating: $0, count: rate) }
        var wav = Data("RIFF".utf8)
        func le(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { wav.append(contentsOf: $0) } }
        func le(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { wav.append(contentsOf: $0) } }
        le(UInt32(36 + frames.count * 4))
        wav.append(contentsOf: Array("WAVEfmt ".utf8))
        le(UInt32(16))
        le(UInt16(3))  // IEEE float
        le(UInt16(1))
        le(UInt32(rate))
        le(UInt32(rate * 4))
        le(UInt16(4))
        le(UInt16(32))
        wav.append(contentsOf: Array("data".utf8))
        le(UInt32(frames.count * 4))
        for f in frames { le(f.bitPattern) }
        let path = dir + "/huge.wav"
        try wav.write(to: URL(fileURLWithPath: path))

        let r = try AudioFileRecording.read(path: path, window: 1, start: Timestamp(seconds: 1_700_000_000))
        let levels = r.samples.compactMap { s -> AudioLevel? in if case .audio(let l) = s.payload { l } else { nil } }
        #expect(levels.count == seconds.count)
        for l in levels {
            for v in [l.rms, l.peak] + [l.shortTermLUFS, l.momentaryLUFS].compactMap({ $0 }) {
                #expect(SampleLimits.level.contains(v), "\(l)")
            }
        }
        #expect(levels.first?.rms == 20, "1e38 is far above full scale: the ceiling")
        for v in [r.summary.integrated, r.summary.maxMomentary, r.summary.maxShortTerm, r.summary.samplePeak].compactMap({ $0 }) {
            #expect(v.isFinite)
        }
    }
}
