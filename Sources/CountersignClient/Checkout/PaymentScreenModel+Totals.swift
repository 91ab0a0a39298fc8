import CountersignAPI
import CountersignCore

extension PaymentScreenModel {
    /// Waits until every totals refresh started so far has answered (or was dropped), and returns the
    /// totals shown then. A terminal prompt calls it before printing the totals.
    @discardableResult
    public func settledTotals() async -> Checkout.Totals? {
        while let work = totalsWork.values.first {
            await work.value
        }
        return screen.value.checkout?.totals
    }

    /// Fetches the totals of the current choices once they have stayed unchanged for the debounce.
    /// Every older refresh is cancelled: N quick changes send one request.
    func scheduleTotals() {
        cancelTotals()
        guard let request = screen.value.checkout?.totalsRequest else { return }
        let revision = self.revision
        totalsWork[revision] = Task { await self.refreshTotals(request, revision: revision) }
    }

    /// Stops the pending refreshes; one already sent still answers, and is dropped as stale.
    func cancelTotals() {
        for work in totalsWork.values { work.cancel() }
    }

    private func refreshTotals(_ request: CheckoutTotalsRequest, revision: UInt64) async {
        defer { totalsWork[revision] = nil }
        guard (try? await timing.sleep(timing.debounce)) != nil, !Task.isCancelled, revision == self.revision else {
            return
        }
        let totals: Checkout.Totals
        do {
            totals = .ready(try await client.totals(request))
        } catch {
            totals = .failed(CountersignClientError(error))
        }
        // The choices changed while this request was out: its answer is for choices no longer shown.
        guard revision == self.revision, case .ready(var checkout) = screen.value else { return }
        checkout.totals = totals
        screen.set(.ready(checkout))
    }
}
