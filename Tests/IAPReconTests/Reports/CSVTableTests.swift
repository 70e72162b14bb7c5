import Testing

@testable import IAPRecon

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
}
