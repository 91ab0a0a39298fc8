/// Where the device PIN is typed: a terminal, a SwiftUI sheet, a test script.
public protocol PINPrompt: Sendable {
    /// Asks for the PIN for the `attempt`-th time (from 1); `nil` means the user cancelled.
    func requestPIN(reason: String, attempt: Int) async -> String?
}
