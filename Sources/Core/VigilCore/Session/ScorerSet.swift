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
    /// Each scorer's sensor and weight, read once.
    let sensors: [SensorKind]
    let weights: [Double]
    private let routes: [Route]
    /// Scorers that said they score 0 until their next sample (`SignalScorer.isQuiet`): skipped.
    private var quiet: [Bool]
    private var owner = Owner()

    private final class Owner {}

    init(_ scorers: [any SignalScorer]) {
        cells = scorers.map { Self.cell($0) }
        hot = cells.map { Unmanaged.passUnretained($0) }
        sensors = scorers.map(\.sensor)
        weights = scorers.map(\.weight)
        quiet = Array(repeating: false, count: scorers.count)
        routes = scorers.map { s in
            switch s.sensor {
            case .input: .input
            case .audio: .audio
            case .location: .location
            default: .other
            }
        }
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
        case .reading(let r):
            for i in hot.indices where routes[i] == .other && sensors[i] == r.sensor {
                quiet[i] = hot[i]._withUnsafeGuaranteedRef { $0.observe(payload, at: t, judging: judging) }
            }
            return
        case .status, .control: return
        }
        for i in hot.indices where routes[i] == route {
            quiet[i] = hot[i]._withUnsafeGuaranteedRef { $0.observe(payload, at: t, judging: judging) }
        }
    }

    private enum Route { case input, audio, location, other }

    mutating func sensorChanged(_ status: SensorStatus, at t: Timestamp) {
        for i in cells.indices where sensors[i] == status.sensor {
            cells[i].sensorChanged(to: status.state, at: t)
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
        if quiet[i] { return 0 }
        let (score, isQuiet) = hot[i]._withUnsafeGuaranteedRef { $0.judge(at: now) }
        quiet[i] = isQuiet
        return score
    }

    /// Scorer `i`'s assessment at `now`, as it stands.
    func assess(_ i: Int, at now: Timestamp) -> Assessment? { hot[i]._withUnsafeGuaranteedRef { $0.assess(at: now) } }
}

/// One scorer behind a reference (see `ScorerSet`). A class rather than a protocol so that the hot
/// calls can go through `Unmanaged`; only `Cell` is ever made, and it overrides every method.
class ScorerCell {
    fileprivate init() {}
    func observe(_ payload: SamplePayload, at t: Timestamp, judging: Bool) -> Bool { false }
    func sensorChanged(to state: SensorState, at t: Timestamp) {}
    func restart(at now: Timestamp) {}
    func judge(at now: Timestamp) -> (score: Double, quiet: Bool) { (0, false) }
    func assess(at now: Timestamp) -> Assessment? { nil }
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
    override func sensorChanged(to state: SensorState, at t: Timestamp) { scorer.sensorChanged(to: state, at: t) }
    override func restart(at now: Timestamp) { scorer.restart(at: now) }
    // Only the scorer's mutating requirements are called here: they run on it in place, where a
    // getter called from this generic code copied the whole scorer (a third of the replay's time).
    override func judge(at now: Timestamp) -> (score: Double, quiet: Bool) { scorer.judge(at: now) }
    override func assess(at now: Timestamp) -> Assessment? { scorer.assess(at: now) }
    override func copy() -> ScorerCell { Cell(scorer) }
}
