/// A status whose changes follow a state machine: `canMove(to:)` is its table of allowed moves, the
/// one place they are written, and `move(to:)` is the one way a status changes.
public protocol StatusMachine: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {
    /// Whether the machine allows a move from this status to `next`.
    func canMove(to next: Self) -> Bool
}

extension StatusMachine {
    /// Moves this status to `next` if the machine allows it; otherwise throws and stays as it is.
    public mutating func move(to next: Self) throws(ForbiddenMove<Self>) {
        guard canMove(to: next) else { throw ForbiddenMove(from: self, to: next) }
        self = next
    }

    /// The statuses the machine moves to `next` from (for a guarded `UPDATE … WHERE status IN`).
    public static func sources(of next: Self) -> [Self] {
        allCases.filter { $0.canMove(to: next) }
    }
}

/// A move a state machine does not allow.
public struct ForbiddenMove<Status: StatusMachine>: Error, Equatable {
    /// The status it was in.
    public let from: Status
    /// The status it was asked to move to.
    public let to: Status
    /// The refused move from `from` to `to`.
    public init(from: Status, to: Status) {
        self.from = from
        self.to = to
    }
}
