import ArgumentParser
import Foundation
import SessionRuntime
import VigilCore

/// `vigil rules`: the rules Vigil learned from the person ("this was work"), and forgetting one.
struct RulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "The rules Vigil learned from you: list them, or forget one.",
        discussion: """
            When you say an episode was work (w on the live screen, `vigil episode N --was work`), \
            Vigil proposes the rule that would have prevented it and, with your consent, keeps it \
            in learned-rules.yaml beside your config (your config is never rewritten). Each rule \
            outranks the one rule of your config it names, for that application only, in live \
            sessions and in replays.

            Examples:
              vigil rules
              vigil rules forget 2
            """,
        subcommands: [List.self, Forget.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the rules Vigil learned, numbered.", discussion: "Examples:\n  vigil rules\n  vigil rules list --json")
        @OptionGroup var common: CommonOptions
        @Flag(help: "Print a JSON array of rules (docs/json.md).") var json = false

        func run() async throws {
            await guarded {
                let rules = LearnedRules(paths: common.paths)
                let list = try mended { try rules.list() }
                if json {
                    printJSON(
                        .array(
                            list.enumerated().map { i, r in
                                .object([
                                    ("number", .int(i + 1)), ("class", .string(r.appClass)), ("instead_of", .string(r.insteadOf)),
                                    ("category", .string(r.category.rawValue)), ("learned", .string(r.learned)), ("from", .string(r.from)),
                                ])
                            }))
                    return
                }
                guard !list.isEmpty else {
                    print("Vigil has learned no rules from you yet (\(rules.path.terminalSafe)).")
                    return
                }
                for (i, r) in list.enumerated() {
                    print(
                        "\(String(i + 1).leftPadded(toWidth: 3))  \(r.words.terminalSafe)  (learned \(r.learned)\(r.from.map { ", " + $0.terminalSafe } ?? ""))"
                    )
                }
            }
        }
    }

    struct Forget: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget a learned rule.", discussion: "Example:\n  vigil rules forget 2")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The rule's number (`vigil rules`).") var number: Int

        func run() async throws {
            await guarded {
                let rules = LearnedRules(paths: common.paths)
                guard let gone = try mended({ try rules.forget(number) }) else {
                    throw Failure("there is no learned rule \(number). `vigil rules` lists them.", code: .dataError)
                }
                print("Forgot: \(gone.words.terminalSafe).")
            }
        }
    }
}

/// A learned-rules file Vigil cannot read (edited by hand, damaged): the problem, and the remedy.
private func mended<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as any PersonFacingError {
        throw Failure(
            error.description + "\nMend that line, or remove the file to forget every learned rule (Vigil writes it again at the next one).",
            code: .dataError)
    }
}
