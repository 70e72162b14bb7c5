import ReconModel

/// An App Store Server Notification V2, named as Apple's `ResponseBodyV2DecodedPayload`.
///
/// Enumerations stay raw; dates are epoch milliseconds. The nested `signedTransactionInfo` and
/// `signedRenewalInfo` are JWS of their own: verify them with ``SignedDataVerifier`` too.
/// See https://developer.apple.com/documentation/appstoreservernotifications/responsebodyv2decodedpayload
public struct ResponseBodyV2DecodedPayload: Codable, Hashable, Sendable {
    /// Raw notification type (`SUBSCRIBED`, `DID_RENEW`, `REFUND`, `TEST`, ...).
    public var notificationType: String?
    /// Raw subtype (`INITIAL_BUY`, `VOLUNTARY`, ...).
    public var subtype: String?
    /// The notification's unique id (dedupe retries with it).
    public var notificationUUID: String?
    /// The app and transaction the notification is about.
    public var data: NotificationData?
    /// A summary, for notifications about a subscription-renewal-date extension request.
    public var summary: NotificationSummary?
    /// The external purchase token, for `EXTERNAL_PURCHASE_TOKEN` (Notifications 2.10).
    public var externalPurchaseToken: ExternalPurchaseToken? = nil
    /// The app, for notifications about the app rather than a transaction (`RESCIND_CONSENT`, Notifications 2.19).
    public var appData: AppData? = nil
    /// The notification format version (`2.0`).
    public var version: String?
    /// When the App Store signed this notification (epoch ms).
    public var signedDate: Int64?

    /// A notification with the given members.
    public init(
        notificationType: String? = nil, subtype: String? = nil, notificationUUID: String? = nil,
        data: NotificationData? = nil, summary: NotificationSummary? = nil, version: String? = nil,
        signedDate: Int64? = nil
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.data = data
        self.summary = summary
        self.version = version
        self.signedDate = signedDate
    }

    /// Decodes leniently (fractional milliseconds, unknown members ignored).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        notificationType = try c.lenientString(.notificationType)
        subtype = try c.lenientString(.subtype)
        notificationUUID = try c.lenientString(.notificationUUID)
        data = try c.decodeIfPresent(NotificationData.self, forKey: .data)
        summary = try c.decodeIfPresent(NotificationSummary.self, forKey: .summary)
        externalPurchaseToken = try c.decodeIfPresent(ExternalPurchaseToken.self, forKey: .externalPurchaseToken)
        appData = try c.decodeIfPresent(AppData.self, forKey: .appData)
        version = try c.lenientString(.version)
        signedDate = try c.lenientInt64(.signedDate)
    }

    /// The app, environment and signed payloads of a notification (Apple's `Data`).
    public struct NotificationData: Codable, Hashable, Sendable {
        /// The app's Apple id (absent in Sandbox).
        public var appAppleId: Int64?
        /// The app's bundle id.
        public var bundleId: String?
        /// The app's build version.
        public var bundleVersion: String?
        /// Raw environment: `Production`, `Sandbox`, `Xcode`, `LocalTesting`.
        public var environment: String?
        /// A signed transaction (JWS).
        public var signedTransactionInfo: String?
        /// A signed renewal info (JWS).
        public var signedRenewalInfo: String?
        /// Raw subscription status: `1` active to `5` revoked.
        public var status: Int32?
        /// Raw reason of a consumption request.
        public var consumptionRequestReason: String?

        /// Data with the given members.
        public init(
            appAppleId: Int64? = nil, bundleId: String? = nil, bundleVersion: String? = nil,
            environment: String? = nil, signedTransactionInfo: String? = nil, signedRenewalInfo: String? = nil,
            status: Int32? = nil, consumptionRequestReason: String? = nil
        ) {
            self.appAppleId = appAppleId
            self.bundleId = bundleId
            self.bundleVersion = bundleVersion
            self.environment = environment
            self.signedTransactionInfo = signedTransactionInfo
            self.signedRenewalInfo = signedRenewalInfo
            self.status = status
            self.consumptionRequestReason = consumptionRequestReason
        }

        /// Decodes leniently.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            appAppleId = try c.lenientInt64(.appAppleId)
            bundleId = try c.lenientString(.bundleId)
            bundleVersion = try c.lenientString(.bundleVersion)
            environment = try c.lenientString(.environment)
            signedTransactionInfo = try c.lenientString(.signedTransactionInfo)
            signedRenewalInfo = try c.lenientString(.signedRenewalInfo)
            status = try c.lenientInt32(.status)
            consumptionRequestReason = try c.lenientString(.consumptionRequestReason)
        }
    }

    /// The summary of a renewal-date extension request (Apple's `Summary`).
    public struct NotificationSummary: Codable, Hashable, Sendable {
        /// Raw environment.
        public var environment: String?
        /// The app's Apple id.
        public var appAppleId: Int64?
        /// The app's bundle id.
        public var bundleId: String?
        /// The subscription product id.
        public var productId: String?
        /// The request's id.
        public var requestIdentifier: String?
        /// Storefronts the request covered.
        public var storefrontCountryCodes: [String]?
        /// How many subscriptions were extended.
        public var succeededCount: Int64?
        /// How many could not be.
        public var failedCount: Int64?

        /// A summary with the given members.
        public init(
            environment: String? = nil, appAppleId: Int64? = nil, bundleId: String? = nil,
            productId: String? = nil, requestIdentifier: String? = nil, storefrontCountryCodes: [String]? = nil,
            succeededCount: Int64? = nil, failedCount: Int64? = nil
        ) {
            self.environment = environment
            self.appAppleId = appAppleId
            self.bundleId = bundleId
            self.productId = productId
            self.requestIdentifier = requestIdentifier
            self.storefrontCountryCodes = storefrontCountryCodes
            self.succeededCount = succeededCount
            self.failedCount = failedCount
        }

        /// Decodes leniently.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            environment = try c.lenientString(.environment)
            appAppleId = try c.lenientInt64(.appAppleId)
            bundleId = try c.lenientString(.bundleId)
            productId = try c.lenientString(.productId)
            requestIdentifier = try c.lenientString(.requestIdentifier)
            storefrontCountryCodes = try c.decodeIfPresent([String].self, forKey: .storefrontCountryCodes)
            succeededCount = try c.lenientInt64(.succeededCount)
            failedCount = try c.lenientInt64(.failedCount)
        }
    }

    /// How many of `data`, `summary`, `externalPurchaseToken` and `appData` the notification carries: Apple sends
    /// exactly one (https://developer.apple.com/documentation/appstoreservernotifications/responsebodyv2decodedpayload).
    public var bodyCount: Int {
        [data != nil, summary != nil, externalPurchaseToken != nil, appData != nil].count { $0 }
    }

    /// The environment stated in `data`, `summary` or `appData`, or a token's (``ExternalPurchaseToken/environment``),
    /// parsed.
    public var storeEnvironment: StoreEnvironment? {
        payloadEnvironment.map(StoreEnvironment.init(raw:))
    }
}

extension ResponseBodyV2DecodedPayload: SignedPayload {
    package var signedDateMillis: Int64? { signedDate }
    package var payloadBundleID: String? {
        data?.bundleId ?? summary?.bundleId ?? externalPurchaseToken?.bundleId ?? appData?.bundleId
    }
    package var payloadEnvironment: String? {
        data?.environment ?? summary?.environment ?? appData?.environment ?? externalPurchaseToken?.environment
    }
}
