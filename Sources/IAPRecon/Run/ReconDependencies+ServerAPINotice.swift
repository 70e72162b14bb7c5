import Logging

extension ReconConfig {
    /// One line saying that the App Store Server API is off and why, when credentials are given but cannot be used
    /// (a part of the key missing, or no `--bundle-id`: every Server API token names the app's bundle id); nil when
    /// none is given or they are complete.
    public var serverAPINotice: String? {
        let parts = [
            ("IAP_RECON_API_KEY_FILE", apiKeyFile), ("IAP_RECON_API_KEY_ID", apiKeyID),
            ("IAP_RECON_ISSUER_ID", issuerID),
        ]
        guard parts.contains(where: { $0.1 != nil }) else { return nil }
        var missing = parts.filter { $0.1 == nil }.map(\.0)
        if bundleIDs.isEmpty { missing.append("--bundle-id") }
        guard !missing.isEmpty else { return nil }
        let why =
            bundleIDs.isEmpty
            ? "every Server API token names the app's bundle id"
            : "a Server API token needs the key, its id and the issuer id"
        return "App Store Server API off: credentials are set but \(missing.joined(separator: ", ")) "
            + "\(missing.count == 1 ? "is" : "are") not (\(why)); the notification-history sweep, subscription "
            + "statuses and Get Transaction Info are skipped until \(missing.count == 1 ? "it is" : "they are") given"
    }
}

extension ReconDependencies {
    /// Logs ``ReconConfig/serverAPINotice`` as a warning, once, when the command would ask the Server API.
    package func warnWhenServerAPIIsOff() {
        if let line = settings.config.serverAPINotice { logger.warning("\(line)") }
    }
}
