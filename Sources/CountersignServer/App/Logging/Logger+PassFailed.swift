import Logging

extension Logger {
    /// Logs a failed pass of a background worker (a sweeper, the webhook sender, the purger) with its
    /// error. A pass cut short by shutdown (`CancellationError`, or any error once its task is
    /// cancelled) is not a failure anyone must act on: it is logged at debug, not error.
    func passFailed(_ message: Logger.Message, _ error: any Error, metadata: Logger.Metadata = [:]) {
        var metadata = metadata
        metadata["error"] = "\(error)"
        if error is CancellationError || Task.isCancelled {
            debug(message, metadata: metadata)
        } else {
            self.error(message, metadata: metadata)
        }
    }
}
