import Foundation
import LogServices
import Testing
import VigilCore
import VigilStats
import VigilStore

/// The report's request: the task and device resolved or refused with what there is, and no log
/// read as an empty report.
@Suite struct ReportServiceTests {
    let noon = parseRFC3339("2026-11-16T12:00:00Z")!
    let utc = TimeZone(identifier: "UTC")!
    var today: Int { civilDay("2026-11-16")! }

    func query(task: String? = nil, device: String? = nil, tag: String? = nil) -> ReportQuery {
        ReportQuery(from: today - 6, to: today, zone: utc, today: today, task: task, tag: tag, device: device, sources: SessionSource.own)
    }

    @Test func theTaskIsResolvedOrRefusedWithTheNamesSessionsHave() throws {
        let store = EventStore()
        let history = HistoryService(store: store, now: noon)
        _ = try history.add(task: "Thesis", tags: ["Deep"], note: nil, from: noon - 7200, to: noon - 3600)
        _ = try history.add(task: "Slides", tags: [], note: nil, from: noon - 3600, to: noon - 1800)
        let service = ReportService(store: store)
        #expect(throws: ReportError.noTask("novel", known: ["Slides", "Thesis"], logExists: true)) { try service.report(query(task: "novel")) }
        let devices = try store.devices().map(\.name)
        #expect(throws: ReportError.noDevice("laptop", known: devices)) { try service.report(query(device: "laptop")) }
        let report = try service.report(query(task: "thesis", tag: "DEEP"))
        #expect(report.task == "Thesis" && report.tag == "deep")
        #expect(report.sources?.sessions.first { $0.source == "added" }?.sessions == 2, "sessions by source are counted whatever the task")
    }

    @Test func withoutALogTheReportIsEmptyAndATaskIsRefused() throws {
        let service = ReportService(store: nil)
        #expect(throws: ReportError.noTask("thesis", known: [], logExists: false)) { try service.report(query(task: "thesis")) }
        let report = try service.report(query())
        #expect(report.sources == nil && report.task == nil)
    }
}
