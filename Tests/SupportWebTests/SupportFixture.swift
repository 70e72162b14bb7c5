import Foundation
import IAPReconTestSupport
import Logging

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// The support desk's store (``SupportDeskStore``) for the web view, plus a user and a product whose ids, as the
/// backend exported them, hold markup.
struct SupportFixture {
    static let t0 = SupportDeskStore.t0
    static let markupUser = "<b onmouseover=alert(1)>eve</b>"
    static let markupProduct = "<img src=x onerror=alert(2)>"

    let dir: TemporaryDirectory
    let config: ReconConfig
    let logger = Logger.quiet

    /// - Parameter store: the store (a `postgresql://` URL); an SQLite file in the fixture's folder when nil.
    init(_ label: String, store: String? = nil) async throws {
        dir = TemporaryDirectory(label)
        config = try await SupportDeskStore.build(
            in: dir, extraLedgerRows: ["r7,\(Self.markupUser),\(Self.markupProduct),t7,\(Self.t0),1.99,USD,pending,,,"],
            store: store)
    }

    /// What `lookup --format json` prints for `subject` (stdout bytes).
    func lookupJSON(_ subject: LookupSubject) async throws -> String {
        try await config.dependencies(opening: .readOnly).lookup(subject, json: true).lines.joined(separator: "\n")
            + "\n"
    }

    /// The first line `lookup` prints for `subject`.
    func answerLine(_ subject: LookupSubject) async throws -> String {
        try await config.dependencies(opening: .readOnly).lookup(subject, json: false).lines.first?
            .split(separator: "\n").first.map(String.init) ?? ""
    }
}
