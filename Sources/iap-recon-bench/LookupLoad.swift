import AsyncHTTPClient
import Foundation
import NIOCore

/// `iap-recon-bench lookups`: the support page's lookups per second under a steady load, as support staff make them.
///
/// `clients` tasks each ask, one after another, `GET /api/lookup?user=…` (or `transaction=`) of the ids in turn, spread
/// over the `serve` processes at `urls`, for `seconds`. Every answer must be 200 with a body; anything else is counted
/// as an error.
enum LookupLoad {
    struct Result {
        var lookups: Int
        var errors: Int
        var seconds: Double
        var p50: Double
        var p99: Double
    }

    static func run(urls: [String], queries: [String], clients: Int, seconds: Double) async throws -> Result {
        let client = HTTPClient.shared
        let deadline = Date().addingTimeInterval(seconds)
        let started = Date()
        let perClient = try await withThrowingTaskGroup(of: ([Double], Int).self) { group in
            for index in 0..<clients {
                group.addTask {
                    var latencies: [Double] = []
                    var errors = 0
                    var next = index
                    while Date() < deadline {
                        let url = urls[next % urls.count] + "/api/lookup?" + queries[next % queries.count]
                        next += clients
                        let start = Date()
                        do {
                            let response = try await client.execute(
                                HTTPClientRequest(url: url), timeout: .seconds(30))
                            let body = try await response.body.collect(upTo: 16 << 20)
                            if response.status != .ok || body.readableBytes == 0 { errors += 1 }
                        } catch {
                            errors += 1
                        }
                        latencies.append(Date().timeIntervalSince(start))
                    }
                    return (latencies, errors)
                }
            }
            var all: [([Double], Int)] = []
            for try await result in group { all.append(result) }
            return all
        }
        let elapsed = Date().timeIntervalSince(started)
        let latencies = perClient.flatMap(\.0).sorted()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        return Result(
            lookups: latencies.count, errors: perClient.map(\.1).reduce(0, +), seconds: elapsed,
            p50: percentile(0.50), p99: percentile(0.99))
    }
}
