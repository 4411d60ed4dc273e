/// A field an edit may leave alone, set, or clear (`none` on the command line): the one edit idiom
/// of tasks, habits and sessions.
public enum FieldChange<Value: Hashable & Sendable>: Hashable, Sendable {
    case keep
    case set(Value)
    case clear

    public func applied(to value: Value?) -> Value? {
        switch self {
        case .keep: value
        case .set(let v): v
        case .clear: nil
        }
    }
}
