import DesktopNotifier
import Foundation

/// A question for a session with no terminal to ask at (`vigil start --background`): a desktop
/// notification with a button for each answer (`DesktopNotifier.ask`), waited for on a thread of
/// its own, so that the session goes on meanwhile.
public enum AskByNotification {
    /// The answer's key, nil unanswered; or why the question could not be asked.
    public typealias Answer = Result<String?, NotificationError>

    public static func ask(
        summary: String, body: String, choices: [(key: String, label: String)], timeout: Double,
        answered: @escaping @Sendable (Answer) -> Void
    ) {
        let thread = Thread {
            do throws(NotificationError) {
                answered(.success(try DesktopNotifier().ask(summary: summary, body: body, actions: choices, timeout: timeout)))
            } catch {
                answered(.failure(error))
            }
        }
        thread.name = "vigil-question"
        thread.start()
    }
}
