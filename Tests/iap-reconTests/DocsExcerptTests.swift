import Foundation
import IAPReconTestSupport
import Testing

/// The demo output the docs show is what the demo prints.
///
/// Every block marked `<!-- demo-output: ARGS -->` in README.md and docs/ is run, as `iap-recon ARGS`, in the folder
/// where `make demo` ran (`demo --out reports`), and each of its lines must be a line of the output, in order (a `…`
/// line stands for lines left out). The path the binary was started by is not compared.
@Suite struct DocsExcerptTests {
    let dir = TemporaryDirectory("docs-excerpts")

    /// One marked block: where it is, the command it shows (or the report file) and the lines it shows.
    struct Excerpt: CustomStringConvertible {
        var file: String
        var line: Int
        var arguments: [String]
        var reportFile: String?
        var lines: [String]
        var description: String { "\(file):\(line)" }
    }

    static var packageRoot: URL {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
            folder.path != "/"
        {
            folder.deleteLastPathComponent()
        }
        return folder
    }

    static let marker = "<!-- demo-output: "
    static let fileMarker = "<!-- demo-file: "

    static func excerpts() throws -> [Excerpt] {
        let docs = packageRoot.appendingPathComponent("docs")
        let pages =
            ["README.md"]
            + (try FileManager.default.contentsOfDirectory(atPath: docs.path)).filter { $0.hasSuffix(".md") }.sorted()
            .map { "docs/" + $0 }
        var found: [Excerpt] = []
        for page in pages {
            let text = try String(contentsOf: packageRoot.appendingPathComponent(page), encoding: .utf8)
            let lines = text.components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.hasPrefix(marker) || line.hasPrefix(fileMarker) {
                let isFile = line.hasPrefix(fileMarker)
                let words = line.dropFirst(isFile ? fileMarker.count : marker.count)
                    .replacingOccurrences(of: " -->", with: "").split(separator: " ").map(String.init)
                let block = lines[(index + 1)...].dropFirst().prefix { !$0.hasPrefix("```") }
                found.append(
                    Excerpt(
                        file: page, line: index + 1, arguments: isFile ? [] : words,
                        reportFile: isFile ? words.first : nil, lines: block.filter { !$0.hasPrefix("$ ") }))
            }
        }
        return found
    }

    /// A line as compared: the binary's path left out.
    static func normalized(_ line: some StringProtocol) -> String {
        var line = String(line)
        if let range = line.range(of: #"[^ ]*/iap-recon "#, options: .regularExpression) {
            line.replaceSubrange(range, with: "iap-recon ")
        }
        return line
    }

    @Test func theDocsShowWhatTheDemoPrints() throws {
        let excerpts = try Self.excerpts()
        #expect(excerpts.count >= 2, "no marked demo output in the docs")
        let demo = try runIAPRecon(["demo", "--out", "reports"], directory: dir.path)
        #expect([0, 3].contains(demo.exitCode), "\(demo.stderr)")
        // The commands the demo suggests work as printed, from the folder it ran in.
        let hints = demo.stdout.split(separator: "\n").filter { $0.hasPrefix("try") }
        #expect(hints.count >= 4, "\(demo.stdout)")
        for hint in hints {
            let command = hint.components(separatedBy: ": ").dropFirst().joined(separator: ": ")
            let words = command.split(separator: " ").map(String.init)
            #expect(words.first?.hasSuffix("/iap-recon") == true, "\(hint)")
            let result = try ChildProcess.run(words[0], Array(words.dropFirst()), directory: dir.path)
            #expect(result.status == 0, "\(hint): \(String(decoding: result.stderr, as: UTF8.self))")
        }
        for excerpt in excerpts {
            let text: String
            if let name = excerpt.reportFile {
                text = try dir.read("reports/" + name).replacingOccurrences(of: "\r\n", with: "\n")
            } else if excerpt.arguments == ["demo", "--out", "reports"] {
                text = demo.stdout
            } else {
                text = try runIAPRecon(excerpt.arguments, directory: dir.path).stdout
            }
            let printed = text.split(separator: "\n", omittingEmptySubsequences: false).map(Self.normalized)
            var rest = printed[...]
            for line in excerpt.lines where line != "…" {
                let wanted = Self.normalized(line)
                guard let at = rest.firstIndex(of: wanted) else {
                    let shown: String = printed.joined(separator: "\n")
                    Issue.record(
                        "\(excerpt): the demo does not print, in this order, the line\n\(line)\nit printed:\n\(shown)")
                    break
                }
                rest = rest[(at + 1)...]
            }
        }
    }
}
