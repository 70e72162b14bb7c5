import Foundation

/// Golden-file comparison: `actual` must equal `Snapshots/<name>` beside the calling test file.
///
/// With `RECORD_SNAPSHOTS=1` the file is (re)written and the check fails, so a recording never
/// passes silently.
///
/// - Returns: nil when equal, else a message describing the first difference.
/// - Parameter record: whether to (re)write the file instead of comparing; `RECORD_SNAPSHOTS=1` by default.
public func snapshotMismatch(
    _ actual: String, named name: String, testFile: String = #filePath,
    record: Bool = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
) -> String? {
    let directory = URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("Snapshots")
    let url = directory.appendingPathComponent(name)
    if record {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url, options: .atomic)
        } catch {
            return "could not record snapshot \(url.path): \(error.localizedDescription)"
        }
        return "recorded snapshot \(url.path); unset RECORD_SNAPSHOTS and rerun"
    }
    guard let data = try? Data(contentsOf: url) else {
        return "missing snapshot \(url.path); run with RECORD_SNAPSHOTS=1 to record it"
    }
    let expected = String(decoding: data, as: UTF8.self)
    if expected == actual { return nil }
    let a = actual.components(separatedBy: "\n")
    let e = expected.components(separatedBy: "\n")
    for index in 0..<max(a.count, e.count) {
        let left = index < e.count ? e[index] : "<end>"
        let right = index < a.count ? a[index] : "<end>"
        if left != right {
            return "snapshot \(name) differs at line \(index + 1):\n  expected: \(left)\n  actual:   \(right)"
        }
    }
    return "snapshot \(name) differs"
}
