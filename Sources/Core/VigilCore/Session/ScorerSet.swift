/// The scorers of one session, each in a class cell of its own concrete type.
///
/// Why not `[any SignalScorer]`: every mutating call through a boxed existential projects the box
/// and checks that it is unique, and with five such calls for every sample that cost the replay a
/// quarter of its speed. A cell is reached through one witness call and calls its scorer's own code
/// directly. The set is copied on write, so a `FocusSession` stays a value: a copy shares the cells
/// until one of the two is stepped, and that one first copies every scorer.
struct ScorerSet: @unchecked Sendable {
    // @unchecked: the cells are classes, reached only through the mutating methods below after
    // `makeUnique()`. As with Array's buffer, a copy is made before the shared owner is released,
    // so a set stepped on another thread never sees a scorer another set is changing.
    private var cells: [ScorerCell]
    /// The same cells, unretained, for the calls made for every sample: the loop then retains and
    /// releases nothing (`cells` keeps them alive).
    private var hot: [Unmanaged<ScorerCell>]
    /// Each scorer's weight, read once.
    let weights: [Double]
    /// Each scorer's sensors: for plug-in readings and status changes, matched by name.
    private let reads: [[SensorKind]]
    /// Each scorer's built-in sensors as bits of `Route`: one AND per scorer and sample.
    private let routes: [UInt8]
    /// Scorers that said they score 0 until their next sample (`SignalScorer.isQuiet`): skipped.
    private var quiet: [Bool]
    /// Each scorer's score at its last `judge`.
    private(set) var lastScores: [Double]
    private var owner = Owner()

    private final class Owner {}

    init(_ scorers: [any SignalScorer]) {
        cells = scorers.map { Self.cell($0) }
        hot = cells.map { Unmanaged.passUnretained($0) }
        weights = scorers.map(\.weight)
        quiet = Array(repeating: false, count: scorers.count)
        lastScores = Array(repeating: 0, count: scorers.count)
        reads = scorers.map(\.sensors)
        routes = scorers.map { s in s.sensors.reduce(0) { $0 | Route($1).rawValue } }
    }

    private static func cell<S: SignalScorer>(_ scorer: S) -> ScorerCell { Cell(scorer) }

    var indices: Range<Int> { cells.indices }

    /// Gives this set scorers of its own if it shares them with a copy.
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&owner) {
            cells = cells.map { $0.copy() }
            hot = cells.map { Unmanaged.passUnretained($0) }
            owner = Owner()
        }
    }

    /// Hands a sample to the scorers of its sensor (all of them while the session is judged, else
    /// those that observe while paused). The built-in sensors' scorers are found by the payload's
    /// case, without building or comparing names for every sample.
    mutating func observe(_ payload: SamplePayload, at t: Timestamp, judging: Bool) {
        let route: Route
        switch payload {
        case .input: route = .input
        case .audio: route = .audio
        case .location: route = .location
        case .desktop: route = .desktop
        case .app: route = .app
        case .media: route = .media
        case .reading(let r):
            for i in hot.indices where reads[i].contains(r.sensor) {
                quiet[i] = hot[i]._withUnsafeGuaranteedRef { $0.observe(payload, at: t, judging: judging) }
            }
            return
        case .status, .control: return
        }
        for i in hot.indices where routes[i] & route.rawValue != 0 {
            quiet[i] = hot[i]._withUnsafeGuaranteedRef { $0.observe(payload, at: t, judging: judging) }
        }
    }

    /// The built-in sensors, one bit each; a plug-in sensor has none.
    private struct Route: OptionSet {
        let rawValue: UInt8
        static let input = Route(rawValue: 1)
        static let audio = Route(rawValue: 2)
        static let location = Route(rawValue: 4)
        static let desktop = Route(rawValue: 8)
        static let app = Route(rawValue: 16)
        static let media = Route(rawValue: 32)

        init(rawValue: UInt8) { self.rawValue = rawValue }
        init(_ sensor: SensorKind) {
            switch sensor {
            case .input: self = .input
            case .audio: self = .audio
            case .location: self = .location
            case .desktop: self = .desktop
            case .app: self = .app
            case .media: self = .media
            default: self = []
            }
        }
    }

    mutating func sensorChanged(_ status: SensorStatus, at t: Timestamp) {
        for i in cells.indices where reads[i].contains(status.sensor) {
            cells[i].sensorChanged(status, at: t)
            quiet[i] = false
        }
    }

    mutating func restart(at now: Timestamp) {
        for cell in cells { cell.restart(at: now) }
        for i in quiet.indices { quiet[i] = false }
    }

    /// Scorer `i`'s score at `now`, after moving it forward to `now`; 0 without asking it when it
    /// is quiet.
    mutating func judge(_ i: Int, at now: Timestamp) -> Double {
        if quiet[i] {
            lastScores[i] = 0
            return 0
        }
        let (score, isQuiet) = hot[i]._withUnsafeGuaranteedRef { $0.judge(at: now) }
        quiet[i] = isQuiet
        lastScores[i] = score
        return score
    }

    /// After every scorer was judged at `now`, with no input since: their outlooks together (a
    /// quiet one is steady until a sample).
    func outlook(after now: Timestamp) -> ScoreOutlook {
        var all = ScoreOutlook.steady(until: nil)
        for i in hot.indices where !quiet[i] { all = all.combined(with: hot[i]._withUnsafeGuaranteedRef { $0.outlook(after: now) }) }
        return all
    }

    /// Scorer `i`'s score at `t` without moving it (`SignalScorer.score(at:)`): 0 when quiet, as
    /// `judge` gives. Equal to a judgement at `t` while its outlook holds.
    func score(_ i: Int, at t: Timestamp) -> Double {
        quiet[i] ? 0 : hot[i]._withUnsafeGuaranteedRef { $0.score(at: t) }
    }

    /// Scorer `i`'s cause's specificity at `now` (see `Specificity`).
    func specificity(_ i: Int, at now: Timestamp) -> Int { hot[i]._withUnsafeGuaranteedRef { $0.specificity(at: now) } }

    /// Scorer `i`'s assessment at `now`, as it stands.
    func assess(_ i: Int, at now: Timestamp) -> Assessment? { hot[i]._withUnsafeGuaranteedRef { $0.assess(at: now) } }
}

/// One scorer behind a reference (see `ScorerSet`). A class rather than a protocol so that the hot
/// calls can go through `Unmanaged`; only `Cell` is ever made, and it overrides every method.
class ScorerCell {
    fileprivate init() {}
    func observe(_ payload: SamplePayload, at t: Timestamp, judging: Bool) -> Bool { false }
    func sensorChanged(_ status: SensorStatus, at t: Timestamp) {}
    func restart(at now: Timestamp) {}
    func judge(at now: Timestamp) -> (score: Double, quiet: Bool) { (0, false) }
    func outlook(after now: Timestamp) -> ScoreOutlook { .steady(until: now) }
    func score(at t: Timestamp) -> Double { 0 }
    func assess(at now: Timestamp) -> Assessment? { nil }
    func specificity(at now: Timestamp) -> Int { 0 }
    func copy() -> ScorerCell { self }
}

private final class Cell<S: SignalScorer>: ScorerCell {
    // Reached only by its ScorerSet, one call at a time: no dynamic exclusivity checks.
    @exclusivity(unchecked) var scorer: S

    init(_ scorer: S) {
        self.scorer = scorer
        super.init()
    }

    /// Observes and says whether the scorer is quiet now.
    override func observe(_ payload: SamplePayload, at t: Timestamp, judging: Bool) -> Bool {
        scorer.observe(payload, at: t, judging: judging)
    }
    override func sensorChanged(_ status: SensorStatus, at t: Timestamp) { scorer.sensorChanged(status, at: t) }
    override func restart(at now: Timestamp) { scorer.restart(at: now) }
    // Only the scorer's mutating requirements are called here: they run on it in place, where a
    // getter called from this generic code copied the whole scorer (a third of the replay's time).
    override func judge(at now: Timestamp) -> (score: Double, quiet: Bool) { scorer.judge(at: now) }
    override func outlook(after now: Timestamp) -> ScoreOutlook { scorer.outlook(after: now) }
    override func score(at t: Timestamp) -> Double { scorer.score(at: t) }
    override func assess(at now: Timestamp) -> Assessment? { scorer.assess(at: now) }
    override func specificity(at now: Timestamp) -> Int { scorer.specificity(at: now) }
    override func copy() -> ScorerCell { Cell(scorer) }
}
