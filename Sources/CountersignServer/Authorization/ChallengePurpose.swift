/// What a ceremony's challenge was issued for.
package enum ChallengePurpose: String, Sendable {
    case registration
    case authentication
}
