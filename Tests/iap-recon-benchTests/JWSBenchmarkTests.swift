import Foundation
import Testing

@testable import iap_recon_bench

@Suite struct JWSBenchmarkTests {
    @Test func benchmarkRunsAndEverythingVerifies() async throws {
        let measurement = try await JWSBenchmark.run(count: 200, tasks: 2, distinct: 8)
        #expect(measurement.count == 200)
        #expect(measurement.valid == 200)
        #expect(measurement.perSecond > 0)
    }
}
