import Foundation
import Testing

@testable import ReconModel

/// ISO 4217 codes and their decimals, looked up by three capital letters or as the ledger spells them.
@Suite struct CurrencyTests {
    @Test func theDecimalsAreISO4217s() {
        #expect(Currency.lookup("USD") == Currency(code: "USD", decimals: 2))
        #expect(Currency.lookup("JPY") == Currency(code: "JPY", decimals: 0))
        #expect(Currency.lookup("KWD") == Currency(code: "KWD", decimals: 3))
        #expect(Currency.lookup("ZWL") == Currency(code: "ZWL", decimals: 2))
        #expect(Currency.lookup("AED") == Currency(code: "AED", decimals: 2))
        #expect(Currency.lookup("XPF") == Currency(code: "XPF", decimals: 0))
        #expect(Currency.lookup(" jpy ") == Currency(code: "JPY", decimals: 0))
        #expect(Currency.lookup("eur") == Currency(code: "EUR", decimals: 2))
        for code in ["XBT", "CLF", "UYW", "US", "USDX", "", "U$D", "ÜSD"] {
            #expect(Currency.lookup(code) == nil, "\(code)")
        }
    }

    @Test func everyThreeLetterCodeIsLookedUpOnce() {
        var known = 0
        for a in UInt8(0x41)...0x5A {
            for b in UInt8(0x41)...0x5A {
                for c in UInt8(0x41)...0x5A {
                    let code = String(decoding: [a, b, c], as: UTF8.self)
                    guard let currency = Currency.lookup(code) else { continue }
                    known += 1
                    #expect(currency.code == code && [0, 2, 3].contains(currency.decimals))
                    #expect(Currency.lookup(code.lowercased()) == currency)
                }
            }
        }
        // The table: 143 codes with two decimals, 24 with none or three.
        #expect(known == 167)
    }
}
