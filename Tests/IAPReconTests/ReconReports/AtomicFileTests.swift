import Foundation
import IAPReconTestSupport
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// Every report file is written through ``AtomicFile``: all or nothing under its name, mode 0640.
@Suite struct AtomicFileTests {
    let dir = TemporaryDirectory("atomic-file")

    @Test func streamedPiecesAppearOnlyAtCommitWithMode0640() throws {
        let path = dir.file("report.csv")
        try dir.write("report.csv", "the old report")
        let file = try AtomicFile(path: path)
        try file.write(Array("a,b\r\n".utf8))
        try file.write(Array("1,2\r\n".utf8))
        #expect(try dir.read("report.csv") == "the old report")
        #expect(file.temporaryPath.hasPrefix(dir.file(".report.csv.tmp-")))
        try file.commit()
        #expect(try dir.read("report.csv") == "a,b\r\n1,2\r\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["report.csv"])
    }

    @Test func aFileDroppedBeforeCommitLeavesNothing() throws {
        do {
            let file = try AtomicFile(path: dir.file("report.csv"))
            try file.write(Array("half a report".utf8))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func twoWritersOfOnePathGetTheirOwnTemporaryFiles() throws {
        let first = try AtomicFile(path: dir.file("run.json"))
        let second = try AtomicFile(path: dir.file("run.json"))
        #expect(first.temporaryPath != second.temporaryPath)
    }

    @Test func aMissingFolderNamesTheFileAndTheStep() throws {
        let path = dir.file("missing/report.csv")
        let error = #expect(throws: AtomicFileError.self) { try AtomicFile.write([1], to: path) }
        #expect(error?.path == path)
        #expect(error?.operation == "creating a temporary file")
        #expect(
            ReportError(try #require(error)).errorDescription
                == "cannot write report '\(path)': No such file or directory")
    }
}
