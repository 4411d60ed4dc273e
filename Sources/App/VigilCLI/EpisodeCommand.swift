import ArgumentParser
import Foundation
import LogServices
import VigilCore

/// `vigil episode N --was LABEL`: the person's word on a distraction episode, after the fact.
struct EpisodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "episode",
        abstract: "Say what a distraction episode really was: a break, a meeting, work, or a distraction.",
        discussion: """
            Vigil judges from signals; you know. The label changes no measurement: it moves the \
            episode's time in the statistics. break and meeting: neither focus nor distraction, as \
            a pause is. offline_work (working away from the computer) and work: focus. distracted: \
            it stays a distraction. none: as judged again. The episode is one of the latest session \
            with episodes unless --session names another (`vigil session show N` lists them). A \
            label reaches your other devices at the next `vigil sync`; `vigil undo` takes it back.

            Examples:
              vigil episode 2 --was meeting
              vigil episode 3 --session 12 --was offline_work
            """)
    @OptionGroup var common: CommonOptions
    @Argument(help: "The episode's number in its session.") var episode: Int
    @Option(help: ArgumentHelp("break, meeting, offline_work, distracted, work, or none.", valueName: "label")) var was: String
    @Option(help: ArgumentHelp("The session's number (default: the latest with episodes).", valueName: "number")) var session: Int64?

    func validate() throws {
        guard was == "none" || EpisodeLabel(rawValue: was) != nil else {
            throw ValidationError("--was is one of \(EpisodeLabel.allCases.map(\.rawValue).joined(separator: ", ")), none; got '\(was)'.")
        }
        if episode < 1 { throw ValidationError("episodes are numbered from 1 in their session; got \(episode).") }
    }

    func run() async throws {
        await guarded {
            let history = try history(common)
            guard let id = try session ?? history.latestWithEpisodes()?.id else {
                throw Failure("no session has episodes yet: there is nothing to label.", code: .dataError)
            }
            let label = EpisodeLabel(rawValue: was)
            let e = try historyRequest { try history.label(id, episode: episode, label) }
            let length = e.endedAt.map { humanDuration($0 - e.startedAt) } ?? "open"
            print(
                "Session #\(id), episode \(e.number) (\(e.cause.terminalSafe), \(length)): "
                    + (label.map { "\($0.words)" + PersonsQuestions.consequence($0) + "." } ?? "as judged."))
        }
    }
}
