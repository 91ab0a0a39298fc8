/// One line of a ledger transaction: an amount, in minor units, moved into (positive) or out of
/// (negative) an account.
public struct Posting: Sendable, Hashable {
    /// The account the amount lands on.
    public let accountId: String
    /// Signed minor units: positive credits the account, negative debits it.
    public let amount: Int64

    /// A posting of `amount` on `accountId`.
    public init(accountId: String, amount: Int64) {
        self.accountId = accountId
        self.amount = amount
    }
}

/// A balanced set of postings: the only way money moves in Countersign.
public struct LedgerEntry: Sendable, Hashable {
    /// Why the money moved.
    public let kind: LedgerEntryKind
    /// The business object this entry belongs to (a top-up id, a funding reference).
    public let reference: String
    /// The postings; they sum to zero.
    public let postings: [Posting]

    /// Builds an entry, refusing one whose postings do not sum to zero, that has fewer than two
    /// postings, or that carries a zero posting.
    public init(kind: LedgerEntryKind, reference: String, postings: [Posting]) throws(LedgerError) {
        guard postings.count >= 2 else { throw .unbalanced }
        var sum: Int64 = 0
        for posting in postings {
            guard posting.amount != 0 else { throw .zeroPosting }
            let (next, overflow) = sum.addingReportingOverflow(posting.amount)
            guard !overflow else { throw .overflow }
            sum = next
        }
        guard sum == 0 else { throw .unbalanced }
        self.kind = kind
        self.reference = reference
        self.postings = postings
    }

    /// A two-legged transfer of a positive `amount` from one account to another.
    public static func transfer(
        kind: LedgerEntryKind, reference: String, amount: Int64, from debit: String, to credit: String
    )
        throws(LedgerError) -> LedgerEntry
    {
        guard amount > 0 else { throw .zeroPosting }
        return try LedgerEntry(
            kind: kind, reference: reference,
            postings: [
                Posting(accountId: debit, amount: -amount),
                Posting(accountId: credit, amount: amount),
            ])
    }
}

/// Why a ledger entry was refused.
public enum LedgerError: Error, Sendable, Equatable {
    /// The postings do not sum to zero, or there are fewer than two.
    case unbalanced
    /// A posting of zero, which would record nothing.
    case zeroPosting
    /// The amounts overflow 64 bits.
    case overflow
    /// A debit would take an account that may not go negative below zero.
    case insufficientFunds(accountId: String)
}
