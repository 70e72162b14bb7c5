/// Transaction ids that are one purchase: a restore, or the same purchase seen on a second device.
///
/// Apple gives a restored non-consumable a new transaction id with the purchase's `original_transaction_id`, and
/// every transaction of one subscription period, on any device, the same `web_order_line_item_id`: "a unique
/// identifier for purchase events across devices, including subscription-renewal events"
/// (https://developer.apple.com/documentation/appstorereceipts/web_order_line_item_id;
/// https://developer.apple.com/documentation/appstoreserverapi/originaltransactionid). One purchase is one sale:
/// it is counted once (under its primary id) and is never `MISSING_RECORD` when the ledger books it under any of
/// its ids.
public struct SamePurchaseIndex: Sendable, Hashable {
    /// What ties the ids of one purchase together.
    public enum Link: Sendable, Hashable {
        /// A non-consumable's original transaction id.
        case originalTransaction(String)
        /// A subscription period's web order line item id.
        case webOrderLineItem(String)
    }

    /// The purchase another transaction id belongs to.
    public struct Purchase: Sendable, Hashable {
        /// The purchase's primary id: a non-consumable's original transaction, else the earliest id the ledger
        /// books (by purchase date, then id), else the smallest id.
        public var primaryID: String
        /// When the ledger books the primary id as revenue (its earliest booked row's purchase date); nil: it
        /// does not.
        public var bookedAt: Int64?
        public var link: Link
    }

    /// Non-primary transaction id → its purchase.
    ///
    /// Only ids that share a purchase with another id are here.
    public private(set) var purchases: [String: Purchase] = [:]

    /// No ids tied together.
    public init() {}

    /// One id of a purchase, as the store reads it.
    public struct Member: Sendable, Hashable {
        public var link: Link
        public var transactionID: String
        /// When the ledger books this id as revenue (the earliest such row's purchase date); nil: it does not.
        public var bookedAt: Int64?

        public init(link: Link, transactionID: String, bookedAt: Int64?) {
            self.link = link
            self.transactionID = transactionID
            self.bookedAt = bookedAt
        }
    }

    /// The index of `members`, grouped by their link (each group two or more distinct ids).
    public init(_ members: [Member]) {
        var groups: [Link: [Member]] = [:]
        for member in members { groups[member.link, default: []].append(member) }
        for link in groups.keys.sorted(by: { "\($0)" < "\($1)" }) {
            let group = groups[link] ?? []
            let ids = Set(group.map(\.transactionID))
            guard ids.count > 1 else { continue }
            var booked: [String: Int64] = [:]
            for member in group {
                if let at = member.bookedAt {
                    booked[member.transactionID] = min(booked[member.transactionID] ?? at, at)
                }
            }
            let earliestBooked = booked.min { ($0.value, $0.key) < ($1.value, $1.key) }?.key
            let primary: String
            if case .originalTransaction(let original) = link, ids.contains(original) {
                primary = original
            } else {
                primary = earliestBooked ?? ids.min() ?? ""
            }
            let purchase = Purchase(primaryID: primary, bookedAt: booked[primary], link: link)
            for id in ids where id != primary {
                // A transaction id in two purchases (never in Apple's data): the first link read wins.
                if purchases[id] == nil { purchases[id] = purchase }
            }
        }
    }

    /// The purchase `transactionID` is a second id of, when the ledger books that purchase (under its primary id)
    /// as revenue by `asOf`; nil otherwise.
    public func bookedPurchase(of transactionID: String, asOf: Int64) -> Purchase? {
        guard let purchase = purchases[transactionID], let booked = purchase.bookedAt, booked <= asOf else {
            return nil
        }
        return purchase
    }

    /// The purchase `transactionID` is a second id of, booked or not; nil when it is a purchase's only or primary
    /// id.
    public func purchase(of transactionID: String) -> Purchase? {
        purchases[transactionID]
    }
}
