import Foundation
import VigilCore

extension CalendarEvent {
    /// The task or tag a scheduled focus block is for: the summary after "focus:" (any case), or,
    /// for an event with the category FOCUS, its other category, else its summary. Nil for any
    /// other event (a meeting, a reminder).
    public var focusSubject: String? {
        let trimmedSummary = summary.trimmingCharacters(in: .whitespaces)
        if trimmedSummary.lowercased().hasPrefix("focus:") {
            let rest = trimmedSummary.dropFirst("focus:".count).trimmingCharacters(in: .whitespaces)
            return rest.isEmpty ? nil : rest
        }
        guard categories.contains(where: { $0.lowercased() == "focus" }) else { return nil }
        if let other = categories.first(where: { $0.lowercased() != "focus" }) { return other }
        return trimmedSummary.isEmpty ? nil : trimmedSummary
    }
}
