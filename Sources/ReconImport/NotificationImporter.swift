import AppleData
import Foundation
import ReconModel
import ReconStorage

/// Imports App Store Server Notifications V2 as the backend's webhook stored them (CONTRACT §1.4):
/// one `{"signedPayload": …, "received_at": …}` a line.
///
/// Each is verified with ``NotificationCheck`` before anything is kept; one that fails (bad JSON,
/// bad signature, untrusted chain, another bundle id) is a rejected row with its line and reason.
/// A notification already kept (same `notificationUUID`) counts as accepted and changes nothing.
public struct NotificationImporter: Sendable {
    public var check: NotificationCheck

    public init(check: NotificationCheck) {
        self.check = check
    }

    /// Imports one file, each notification learned as `run` says.
    ///
    /// - Throws: ``ImportFileError`` when the file cannot be opened or read, ``StoreError``.
    package func importFile(_ path: String, into store: any ImportStore, run: RunContext) async throws
        -> ImportFileSummary
    {
        var lines: [JSONLLine] = []
        var reader = try LineReader(path: path)
        try reader.forEach { lines.append($0) }
        try store.notifications.clearNotificationRejections(file: path)
        var summary = ImportFileSummary(
            kind: InputKind.notifications.rawValue, file: path, read: 0, accepted: 0, rejected: 0)
        for line in lines {
            summary.read += 1
            if try await importLine(line, source: path, into: store, run: run) {
                summary.accepted += 1
            } else {
                summary.rejected += 1
            }
        }
        return summary
    }

    /// Verifies and keeps one notification (a file's line, or a query's row as a JSON object);
    /// false when it is rejected (and kept as a rejected row of `source`).
    package func importLine(_ line: JSONLLine, source: String, into store: any ImportStore, run: RunContext)
        async throws
        -> Bool
    {
        switch Self.parse(line.text) {
        case .failure(let rejection):
            try reject(line, path: source, reason: rejection.reason, store: store)
            return false
        case .success(let (signedPayload, receivedAt)):
            switch await check.verify(signedPayload) {
            case .failure(let rejection):
                try reject(line, path: source, reason: rejection.reason, store: store)
                return false
            case .success(let notification):
                let now = run.nowMillis()
                try store.notifications.recordNotification(
                    notification, origin: .file(path: source, line: line.line, receivedAt: receivedAt), at: now,
                    learnedAt: run.learnedAt(now))
                return true
            }
        }
    }

    private func reject(_ line: JSONLLine, path: String, reason: String, store: any ImportStore) throws {
        try store.notifications.rejectNotification(
            RejectedRow(
                kind: .notifications, source: path, line: line.line, recordID: nil, reason: reason, raw: line.text))
    }

    /// The `signedPayload` and `received_at` of one line, or why the line is not a notification.
    package static func parse(_ text: String) -> Result<(String, Int64?), NotificationRejection> {
        guard let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data, options: [])
        else { return .failure(NotificationRejection("bad JSON")) }
        guard let fields = object as? [String: Any] else {
            return .failure(NotificationRejection("bad JSON: a line must be one JSON object"))
        }
        guard let signed = fields["signedPayload"] as? String, !signed.isEmpty else {
            return .failure(NotificationRejection("missing field 'signedPayload' (the JWS Apple posted)"))
        }
        var receivedAt: Int64?
        switch fields["received_at"] {
        case nil, is NSNull: break
        case let text as String where text.isEmpty: break
        case let text as String:
            guard let millis = Timestamp.parse(text) else {
                return .failure(NotificationRejection("bad timestamp in 'received_at': '\(text)'"))
            }
            receivedAt = millis
        case let number as NSNumber:
            guard let millis = Timestamp.parse(number.stringValue) else {
                return .failure(NotificationRejection("bad timestamp in 'received_at': \(number)"))
            }
            receivedAt = millis
        default:
            return .failure(NotificationRejection("bad JSON: field 'received_at' must be a string or a number"))
        }
        return .success((signed, receivedAt))
    }
}
