import AppleData
import ReconFindings
import ReconImport
import ReconLookup
import ReconModel
import ReconReports
import ReconStorage
import ReconVerify

/// The environment layer: secrets, credentials and the `serve` token, each read from one variable.
extension ReconConfig {
    /// An environment variable and the setting it fills.
    public struct EnvironmentVariable: Sendable {
        public let name: String
        package let setting: WritableKeyPath<ReconConfig, String?> & Sendable
    }

    /// The variable holding the `serve` token.
    public static let serveTokenVariable = "IAP_RECON_SERVE_TOKEN"

    /// Every environment variable a command reads; each overrides the config file, and a flag overrides it.
    public static let environmentVariables: [EnvironmentVariable] = [
        EnvironmentVariable(name: "IAP_RECON_SHARED_SECRET", setting: \.sharedSecret),
        EnvironmentVariable(name: "IAP_RECON_API_KEY_FILE", setting: \.apiKeyFile),
        EnvironmentVariable(name: "IAP_RECON_API_KEY_ID", setting: \.apiKeyID),
        EnvironmentVariable(name: "IAP_RECON_ISSUER_ID", setting: \.issuerID),
        EnvironmentVariable(name: serveTokenVariable, setting: \.serveToken),
    ]

    /// The names of the environment variables a command reads.
    public static var environmentKeys: [String] { environmentVariables.map(\.name) }

    /// Applies every variable `environment` sets to a non-empty value.
    public mutating func applyEnvironment(_ environment: [String: String]) {
        for variable in Self.environmentVariables {
            if let value = environment[variable.name], !value.isEmpty { self[keyPath: variable.setting] = value }
        }
    }
}
