import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL server of its own for tests: a new cluster in a temporary folder, on a free
/// loopback port, password (SCRAM) authentication; stopped with ``stop()`` (and, as a safety net,
/// when the process exits).
///
/// Runs as the `postgres` user when the tests run as root (the server refuses to run as root).
public final class ThrowawayPostgres: @unchecked Sendable {
    /// The superuser the cluster is made with.
    public let user = "recon"
    public let password: String
    public let port: Int
    /// The folder holding the cluster (`data/`), its log and its socket.
    public let directory: String
    private let binaries: String
    /// Whether the server speaks TLS (``init(certificate:)``).
    private let tls: Bool
    /// Server settings beside the defaults (`name=value`, each passed as `-c`).
    private let settings: [String]
    private let lock = NSLock()
    private var running = false

    /// Why a server could not be started.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Makes and starts a new cluster; with `certificate` (the server's PEM certificate chain and
    /// PEM private key) it accepts TLS as well as plain connections.
    ///
    /// - Parameters:
    ///   - password: the superuser's password; a new random one by default.
    ///   - settings: server settings beside the defaults (`name=value`), e.g. an extension to preload.
    /// - Throws: ``StartError`` when PostgreSQL's server programs are not installed
    ///   (`apt-get install postgresql`) or the server does not start.
    public init(
        certificate: (chainPEM: String, keyPEM: String)? = nil, password: String? = nil, settings: [String] = []
    ) throws {
        guard let binaries = Self.findBinaries() else {
            throw StartError(description: "no initdb under /usr/lib/postgresql/*/bin: apt-get install postgresql")
        }
        self.binaries = binaries
        self.settings = settings
        self.password = password ?? "pw-" + UUID().uuidString.prefix(12).lowercased()
        port = try Self.freePort()
        directory = NSTemporaryDirectory() + "iap-recon-pg-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let passwordFile = directory + "/pwfile"
        try Data((self.password + "\n").utf8).write(to: URL(fileURLWithPath: passwordFile))
        tls = certificate != nil
        if let certificate {
            // The server refuses a key file that others can read.
            try Data(certificate.chainPEM.utf8).write(to: URL(fileURLWithPath: directory + "/server.crt"))
            try Data(certificate.keyPEM.utf8).write(to: URL(fileURLWithPath: directory + "/server.key"))
            chmod(directory + "/server.key", 0o600)
        }
        if getuid() == 0 {
            try Self.run("/bin/chown", ["-R", "postgres:postgres", directory])
        }
        try runServerProgram(
            "initdb",
            [
                "-D", directory + "/data", "-U", user, "--pwfile=" + passwordFile, "-A", "scram-sha-256", "-E", "UTF8",
                "--no-sync",
            ])
        try start()
    }

    /// Starts the server (again, after ``stop()``) on the same port and data.
    public func start() throws {
        var options = "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
        if tls {
            options += " -c ssl=on -c ssl_cert_file=\(directory)/server.crt -c ssl_key_file=\(directory)/server.key"
        }
        for setting in settings { options += " -c " + setting }
        try runServerProgram(
            "pg_ctl", ["-D", directory + "/data", "-l", directory + "/log", "-w", "-t", "30", "-o", options, "start"])
        lock.withLock { running = true }
        Self.register(self)
    }

    /// Stops the server at once (`-m immediate`: connections are cut).
    public func stop() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        try? runServerProgram("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
    }

    /// Stops the server and removes its folder.
    public func destroy() {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `postgresql://recon:PASSWORD@HOST:PORT/DB?sslmode=…`; `host` is a name for the loopback address
    /// (`127.0.0.1` or `localhost`).
    public func url(
        database: String = "postgres", withPassword: Bool = true, sslmode: String = "disable",
        host: String = "127.0.0.1"
    ) -> String {
        let secret = withPassword ? ":" + password : ""
        return "postgresql://\(user)\(secret)@\(host):\(port)/\(database)?sslmode=\(sslmode)"
    }

    /// Runs SQL with `psql` (stops at the first error).
    ///
    /// - Throws: ``StartError`` with psql's message when the SQL fails.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        let psql =
            FileManager.default.isExecutableFile(atPath: binaries + "/psql") ? binaries + "/psql" : "/usr/bin/psql"
        return try Self.run(
            psql,
            ["-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-d", url(database: database, withPassword: false)],
            input: sql, environment: ["PGPASSWORD": password])
    }

    /// Runs `initdb` or `pg_ctl` (as `postgres` when root) and waits for it alone: the server it
    /// starts keeps running, and must not be waited for (``ChildProcess`` hands it no descriptor).
    private func runServerProgram(_ name: String, _ arguments: [String]) throws {
        var command = [binaries + "/" + name] + arguments
        if getuid() == 0 { command = ["/usr/sbin/runuser", "-u", "postgres", "--"] + command }
        try Self.run(command[0], Array(command.dropFirst()), timeout: 120, name: name)
    }

    /// The newest installed PostgreSQL's `bin` folder.
    static func findBinaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap { Int($0) }.sorted().reversed().map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }

    /// A loopback port nothing listens on now.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StartError(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound else { throw StartError(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a program to its end (``ChildProcess``), for at most `timeout` seconds.
    ///
    /// - Parameter name: the program as its errors name it; the executable's file name by default.
    /// - Throws: ``StartError`` with the program's message (its standard error, else its output) when it fails or
    ///   outlives `timeout`.
    @discardableResult
    static func run(
        _ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
        timeout: TimeInterval = 60, name: String? = nil
    ) throws -> String {
        let name = name ?? (executable as NSString).lastPathComponent
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(
                executable, arguments, input: input.map { Data($0.utf8) },
                environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new },
                timeout: timeout)
        } catch let failure as ChildProcess.Failure {
            throw StartError(description: "cannot run \(name): \(failure.description)")
        }
        guard outcome.status == 0 else {
            let message = String(decoding: outcome.stderr.isEmpty ? outcome.stdout : outcome.stderr, as: UTF8.self)
            throw StartError(description: "\(name) failed: \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return String(decoding: outcome.stdout, as: UTF8.self)
    }

    // MARK: Safety net

    nonisolated(unsafe) private static var started: [ThrowawayPostgres] = []
    private static let registry = NSLock()
    nonisolated(unsafe) private static var hooked = false

    /// Remembers a started server, so that it is stopped when the process exits.
    private static func register(_ server: ThrowawayPostgres) {
        registry.withLock {
            if !started.contains(where: { $0 === server }) { started.append(server) }
            if !hooked {
                hooked = true
                atexit { ThrowawayPostgres.stopAll() }
            }
        }
    }

    /// Stops every server this process started.
    public static func stopAll() {
        let servers = registry.withLock { started }
        for server in servers { server.destroy() }
    }
}
