import CountersignAPI
import CountersignCore
import Hummingbird

/// `GET /sim/sms?phone=<E.164>`: what the SMS simulator sent to a number, newest first. Registered
/// only while the simulator is the SMS provider (test mode); with a live provider the path is 404.
/// It needs no session: it stands for the phone itself, and the server says it is in test mode
/// (`/health`, and its start-up log).
package struct SimulatedSMSController {
    let simulator: SimulatedSMSSender
    let phoneRegion: PhoneRegion

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.on(.simulatedSMS, use: messages)
    }

    /// `GET /sim/sms?phone=` → `{messages: [{to, body, sentAt}]}`.
    @Sendable func messages(_ request: Request, context: AppRequestContext) async throws -> SimulatedSMSList {
        guard let text = FormQuery(request)["phone"], let phone = PhoneNumber(text, region: phoneRegion) else {
            throw APIError(.invalidPhone, "phone must be a phone number, e.g. +2348031234567.")
        }
        return SimulatedSMSList(messages: try await simulator.messages(to: phone.value))
    }
}

extension SimulatedSMSList: ResponseEncodable {}
