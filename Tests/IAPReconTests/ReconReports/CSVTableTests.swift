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

@Suite struct CSVTableTests {
    @Test func quotesAndNeutralizesFormulas() {
        let table = CSVTable(
            header: ["a", "b"],
            rows: [
                [.text("=HYPERLINK(\"x\")"), .number("-4.99")], [.text("+1"), .text("-2")],
                [.text("@SUM"), .text("a,b")],
                [.text("line\nbreak"), .text(" padded")], [.text("\tTab"), .text("ok")],
            ])
        let text = String(decoding: table.encoded(), as: UTF8.self)
        #expect(
            text
                == "a,b\r\n\"'=HYPERLINK(\"\"x\"\")\",-4.99\r\n'+1,'-2\r\n'@SUM,\"a,b\"\r\n\"line\nbreak\",\" padded\"\r\n'\tTab,ok\r\n"
        )
    }

    @Test func quotesFieldsByTheirBytesAndEdgeBlanksByCharacter() {
        let table = CSVTable(
            header: ["a"],
            rows: [
                [.text("trailing ")], [.text("日本,語")], [.text("\"ünïcode\"")], [.text("\r")],
                // A space that a combining mark follows is another character, not a blank.
                [.text(" \u{301}accent")], [.text("accent \u{301}")], [.text("plain")],
            ])
        let text = String(decoding: table.encoded(), as: UTF8.self)
        #expect(
            text
                == "a\r\n\"trailing \"\r\n\"日本,語\"\r\n\"\"\"ünïcode\"\"\"\r\n\"'\r\"\r\n \u{301}accent\r\naccent \u{301}\r\nplain\r\n"
        )
    }
}
