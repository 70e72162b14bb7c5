import Foundation
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

extension XLSXWriterTests {
    @Test func sameDocumentAndCreationTimeGiveIdenticalBytes() throws {
        try withTemporaryDirectory { directory in
            let first = (directory as NSString).appendingPathComponent("first.xlsx")
            let second = (directory as NSString).appendingPathComponent("second.xlsx")
            try XLSXWriter.write(Self.document, to: first, createdAt: Self.createdAt)
            try XLSXWriter.write(Self.document, to: second, createdAt: Self.createdAt)
            let firstData = try Data(contentsOf: URL(fileURLWithPath: first))
            let secondData = try Data(contentsOf: URL(fileURLWithPath: second))
            #expect(!firstData.isEmpty)
            #expect(firstData == secondData)

            let core = try XLSXArchive(path: first).entry("docProps/core.xml")
            #expect(
                core.contains(#"<dcterms:created xsi:type="dcterms:W3CDTF">2025-01-02T03:04:05Z</dcterms:created>"#))
        }
    }

    @Test func fileModeIs0640EvenWhenReplacingAFile() throws {
        try withTemporaryDirectory { directory in
            let path = (directory as NSString).appendingPathComponent("report.xlsx")
            #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
            #expect(chmod(path, 0o644) == 0)
            try XLSXWriter.write(Self.document, to: path, createdAt: Self.createdAt)
            var info = stat()
            #expect(stat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o640)
            #expect(try XLSXArchive(path: path).entryNames().contains("xl/workbook.xml"))
            #expect(try leftovers(in: directory) == ["report.xlsx"])
        }
    }

    @Test func unwritablePathThrowsOneLineErrorNamingThePath() throws {
        try withTemporaryDirectory { directory in
            // Tests may run as root, which ignores permission bits: use paths no one can write.
            let missing = (directory as NSString).appendingPathComponent("missing/report.xlsx")
            let file = (directory as NSString).appendingPathComponent("plain-file")
            #expect(FileManager.default.createFile(atPath: file, contents: Data()))
            let underFile = (file as NSString).appendingPathComponent("report.xlsx")
            for path in [missing, underFile] {
                let error = #expect(throws: XLSXError.self) { try XLSXWriter.write(Self.document, to: path) }
                let message = try #require(error?.errorDescription)
                #expect(message.contains("'\(path)'"))
                #expect(!message.contains("\n"))
                #expect(message.contains("creating a temporary file"))
            }
            #expect(try leftovers(in: directory) == ["plain-file"])
        }
    }

    @Test func failedRenameRemovesTheTemporaryFile() throws {
        try withTemporaryDirectory { directory in
            // The target is a non-empty directory: everything succeeds up to the rename.
            let path = (directory as NSString).appendingPathComponent("report.xlsx")
            try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
            let error = #expect(throws: XLSXError.self) { try XLSXWriter.write(Self.document, to: path) }
            let message = try #require(error?.errorDescription)
            #expect(message.hasPrefix("cannot write XLSX file '\(path)': renaming the temporary file into place:"))
            #expect(try leftovers(in: directory) == ["report.xlsx"])
        }
    }

    @Test func workbookIsFreedWithoutWritingWhenNotClosed() throws {
        try withTemporaryDirectory { directory in
            let path = (directory as NSString).appendingPathComponent("dropped.xlsx")
            do {
                let workbook = try XLSXWorkbook(filePath: path, displayPath: path)
                let sheet = try workbook.addWorksheet(named: "S")
                try workbook.writeString("x", row: 0, column: 0, in: sheet, format: .init(style: .header))
            }
            #expect(!FileManager.default.fileExists(atPath: path))

            let workbook = try XLSXWorkbook(filePath: path, displayPath: path)
            _ = try workbook.addWorksheet(named: "S")
            try workbook.close()
            #expect(FileManager.default.fileExists(atPath: path))
            // A second close is refused instead of freeing twice.
            #expect(throws: XLSXError.invalidDocument(path: path, location: "workbook", reason: "already closed")) {
                try workbook.close()
            }
        }
    }
}
