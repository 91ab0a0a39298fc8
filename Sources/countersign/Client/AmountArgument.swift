import ArgumentParser
import CountersignCore
import CountersignServer

/// An amount as typed on the command line, in units of the currency (`500` or `500.50` is ₦500.50
/// for a naira wallet), read once the command knows which currency it works in.
struct AmountArgument: ExpressibleByArgument, Sendable {
    let text: String

    init?(argument: String) { text = argument }

    /// The amount in minor units of `currency`, or a refusal naming `flag` and saying what to type.
    func minor(
        in currency: String, within limits: ClosedRange<Int64> = 1...Currency.largestAmount, flag: String = "--amount"
    ) throws
        -> Int64
    {
        do {
            return try Currency.named(currency).parse(text, within: limits)
        } catch {
            throw ValidationError("\(flag): \(error)")
        }
    }

    /// A price or bid in the marketplace: cents of its currency, within what a listing or a bid may be.
    func marketplaceMinor(flag: String) throws -> Int64 {
        try minor(in: MarketplaceRates.standard.currency, within: 1...MarketplaceService.maximumAmount, flag: flag)
    }
}
