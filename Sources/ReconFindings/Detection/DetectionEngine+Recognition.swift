import Foundation
import ReconModel
import ReconStorage

extension DetectionEngine {
    /// Revenue recognition (CONTRACT §5.1) over every counted sale in the store at `asOf`, for a report that judged
    /// only the transactions that changed: the schedule of every sale, priced as the revenue lines price it.
    func recognizeEverySale(_ stage: DetectStage, pricer: ProceedsPricer, asOf: Int64) throws
        -> DeferredRevenueRollForward
    {
        var roll = DeferredRevenueRollForward(timeZone: settings.timeZone, asOf: asOf)
        let (basis, zone, context) = (settings.recognitionBasis, settings.timeZone, stage.context)
        try ledger.forEachTransactionGroup { whole in
            let group = whole.asOf(asOf)
            guard !group.records.isEmpty else { return }
            let facts = TransactionFacts(group, in: context)
            if let sale = RecognitionSale.of(facts, basis: basis, pricer: pricer, timeZone: zone) { roll.add(sale) }
        }
        return roll
    }
}
