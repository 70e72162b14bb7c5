import Foundation
import IAPReconTestSupport
import Testing

/// The golden-file helper: recording writes the file and fails; comparing passes only on equal text.
@Suite struct SnapshotTests {
    let dir = TemporaryDirectory("snapshot")

    /// A stand-in for a test file, so the snapshots land in this test's own directory.
    var testFile: String { dir.file("SomeTests.swift") }

    var snapshotPath: String { dir.file("Snapshots/example.csv") }

    @Test func recordingWritesTheFileAndFails() throws {
        let message = snapshotMismatch("a,b\r\n1,2\r\n", named: "example.csv", testFile: testFile, record: true)
        #expect(message?.hasPrefix("recorded snapshot ") == true)
        #expect(try String(contentsOfFile: snapshotPath, encoding: .utf8) == "a,b\r\n1,2\r\n")
        // Once recorded, the same text compares equal.
        #expect(snapshotMismatch("a,b\r\n1,2\r\n", named: "example.csv", testFile: testFile, record: false) == nil)
    }

    @Test func aDifferenceNamesTheFirstDifferingLine() throws {
        _ = snapshotMismatch("a\nb\nc\n", named: "example.csv", testFile: testFile, record: true)
        let message = snapshotMismatch("a\nB\nc\n", named: "example.csv", testFile: testFile, record: false)
        #expect(message == "snapshot example.csv differs at line 2:\n  expected: b\n  actual:   B")
    }

    @Test func aMissingSnapshotSaysHowToRecordIt() {
        let message = snapshotMismatch("x", named: "absent.txt", testFile: testFile, record: false)
        #expect(message?.contains("run with RECORD_SNAPSHOTS=1 to record it") == true)
    }

    @Test func aRecordingThatCannotBeWrittenSaysSo() throws {
        // `Snapshots` is a file here, so the directory cannot be created.
        _ = try dir.write("Snapshots", "not a directory")
        let message = snapshotMismatch("x", named: "example.csv", testFile: testFile, record: true)
        #expect(message?.hasPrefix("could not record snapshot ") == true)
    }
}
