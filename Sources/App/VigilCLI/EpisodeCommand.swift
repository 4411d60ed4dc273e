import ArgumentParser
import Foundation
import LogServices
import SessionRuntime
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

            On an episode a distracting application caused, --was work also proposes the rule \
            that would have prevented it: that application, where the rule of your config that \
            called it distracting matches, is work. In a terminal Vigil asks before it learns \
            the rule (--learn: without asking); it goes into learned-rules.yaml beside your \
            config, which is never rewritten. `vigil rules` lists what was learned.

            Examples:
              vigil episode 2 --was meeting
              vigil episode 3 --session 12 --was offline_work
              vigil episode 4 --was work --learn
            """)
    @OptionGroup var common: CommonOptions
    @Argument(help: "The episode's number in its session.") var episode: Int
    @Option(help: ArgumentHelp("break, meeting, offline_work, distracted, work, or none.", valueName: "label")) var was: String
    @Option(help: ArgumentHelp("The session's number (default: the latest with episodes).", valueName: "number")) var session: Int64?
    @Flag(help: "With --was work: learn the rule that would have prevented the episode, without asking.") var learn = false

    func validate() throws {
        guard was == "none" || EpisodeLabel(rawValue: was) != nil else {
            throw ValidationError("--was is one of \(EpisodeLabel.allCases.map(\.rawValue).joined(separator: ", ")), none; got '\(was)'.")
        }
        if episode < 1 { throw ValidationError("episodes are numbered from 1 in their session; got \(episode).") }
    }

    func run() async throws {
        await guarded {
            let history = try history(common)
            guard let id = try session ?? history.latestWithEpisodes() else {
                throw Failure("no session has episodes yet: there is nothing to label.", code: .dataError)
            }
            let label = EpisodeLabel(rawValue: was)
            let e = try historyRequest { try history.label(id, episode: episode, label) }
            let length = e.endedAt.map { humanDuration($0 - e.startedAt) } ?? "open"
            print(
                "Session #\(id), episode \(e.number) (\(e.cause.terminalSafe), \(length)): "
                    + (label.map { "\($0.words)" + PersonsQuestions.consequence($0) + "." } ?? "as judged."))
            if label == .work { try propose(history, session: id) }
        }
    }

    /// The rule that would have prevented a false alarm, learned with the person's consent.
    private func propose(_ history: HistoryService, session id: Int64) throws {
        let today = civilDate(LocalNow(at: history.now, zone: common.zone).day)
        guard let rule = try history.proposedRule(id, episode: episode, as: .work, today: today) else { return }
        let rules = LearnedRules(paths: common.paths)
        if (try? rules.knows(rule)) == true {
            print("Vigil has learned already that \(rule.words.terminalSafe).")
            return
        }
        let question = "The rule that would have prevented it: \(rule.words.terminalSafe). Learn it?"
        guard learn || isatty(0) != 0 else {
            print("\(question) `vigil episode \(episode) --session \(id) --was work --learn` learns it.")
            return
        }
        if !learn {
            print("\(question) [y/N] ", terminator: "")
            fflush(nil)
            guard readLine()?.lowercased().hasPrefix("y") == true else {
                print("Not learned.")
                return
            }
        }
        do { try rules.learn(rule) } catch {
            throw Failure("could not write \(rules.path.terminalSafe): \(error); nothing was learned.", code: .cannotCreate)
        }
        print("Learned: \(rule.words.terminalSafe), from your next session (\(rules.path.terminalSafe)).")
    }
}
