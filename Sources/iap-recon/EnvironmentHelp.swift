import IAPRecon

/// The environment variables a command reads, named in its `--help`.
enum EnvironmentHelp {
    /// verifyReceipt's password and the App Store Server API key (`verify`, `run`).
    static let apple = ["IAP_RECON_SHARED_SECRET"] + serverAPI
    /// The App Store Server API key alone (`lookup --order-id`, `serve`).
    static let serverAPI = ["IAP_RECON_API_KEY_FILE", "IAP_RECON_API_KEY_ID", "IAP_RECON_ISSUER_ID"]
    /// A `postgresql://` store's or source's password, when its URL holds none (libpq's names).
    static let postgres = ["PGPASSWORD", "PGPASSFILE"]

    static let meanings: [String: String] = [
        "IAP_RECON_SHARED_SECRET": "verifyReceipt's shared secret",
        "IAP_RECON_API_KEY_FILE": "the App Store Server API key, a .p8 file",
        "IAP_RECON_API_KEY_ID": "its key id",
        "IAP_RECON_ISSUER_ID": "its issuer id: with the other two and --bundle-id, the Server API is on",
        ReconConfig.serveTokenVariable: "the token every request must carry",
        "PGPASSWORD": "the PostgreSQL password when the URL holds none",
        "PGPASSFILE": "else this password file, by default ~/.pgpass: host:port:db:user:password, mode 0600",
    ]

    /// The paragraph that ends a command's `--help`: each variable with what it holds.
    static func paragraph(_ names: [String]) -> String {
        guard !names.isEmpty else { return "\n\nEnvironment: none read." }
        let items = names.map { name in meanings[name].map { "\(name) (\($0))" } ?? name }
        return "\n\nEnvironment: " + items.joined(separator: "; ") + "."
    }
}
