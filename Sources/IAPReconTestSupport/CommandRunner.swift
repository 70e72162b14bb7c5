import Foundation

/// The result of running the built `iap-recon` binary.
public struct ProcessOutput: Sendable {
    public var exitCode: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs the built `iap-recon` executable (next to the test bundle) with `arguments`, as a
/// ``ChildProcess``.
///
/// - Parameters:
///   - environment: extra environment variables.
///   - directory: working directory.
public func runIAPRecon(
    _ arguments: [String], environment: [String: String] = [:], directory: String? = nil
) throws -> ProcessOutput {
    let outcome = try ChildProcess.run(
        productsDirectory().appendingPathComponent("iap-recon").path, arguments,
        environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new },
        directory: directory)
    return ProcessOutput(
        exitCode: outcome.status, stdout: String(decoding: outcome.stdout, as: UTF8.self),
        stderr: String(decoding: outcome.stderr, as: UTF8.self))
}

/// ``runIAPRecon(_:environment:directory:)`` on a thread of its own, awaited: for a test that works while the
/// child runs (stops a server the child reads from), so waiting for the child never holds one of the few threads
/// Swift's tasks share, which the test's own work and in-process servers need meanwhile.
public func runIAPReconOnItsOwnThread(
    _ arguments: [String], environment: [String: String] = [:], directory: String? = nil
) async throws -> ProcessOutput {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(
                with: Result { try runIAPRecon(arguments, environment: environment, directory: directory) })
        }.start()
    }
}

/// The folder holding the built products (`.build/debug`).
public func productsDirectory() -> URL {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0])
    var directory = executable.deletingLastPathComponent()
    if directory.lastPathComponent == "MacOS" || directory.lastPathComponent == "Contents" {
        directory = directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
    if FileManager.default.fileExists(atPath: directory.appendingPathComponent("iap-recon").path) { return directory }
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
    }
    return directory
}
