import CountersignAPI
import Foundation
import HTTPTypes
import Hummingbird

/// The HTML of the payment simulator's hosted page. Small on purpose: no script, no outside
/// resources, not frameable (an authorize button must not be clickjacked).
enum HostedPaymentPage {
    /// The page for an intent: what is paid and, while it requires action, the two answers.
    static func payment(_ intent: ProviderPaymentIntent) -> Response {
        let amount = "\(intent.amount / 100).\(String(format: "%02lld", intent.amount % 100)) \(intent.currency)"
        var body = """
            <h1>Countersign payment simulator</h1>
            <p>This is a simulator, not a bank: no money moves here.</p>
            <p>Paying <strong>\(escape(amount))</strong> by \(escape(label(intent.method.rawValue))) for order <code>\(escape(intent.orderId))</code>.</p>
            """
        if intent.status == .requiresAction {
            body += """

                <form method="post" action="\(escape(Endpoint.authorizeSimulatedPayment.path([intent.id])))"><button type="submit">Authorize payment</button></form>
                <form method="post" action="\(escape(Endpoint.failSimulatedPayment.path([intent.id])))"><button type="submit">Fail payment</button></form>
                """
        } else {
            body += "\n<p>This payment is <code>\(intent.status.rawValue)</code>: there is nothing to answer.</p>"
        }
        return html(.ok, title: "Pay \(amount)", body: body)
    }

    /// After an answer: 303 to the return URL with `payment_intent` and `redirect_status`, or a
    /// closing page when the intent has no return URL.
    static func finished(_ intent: ProviderPaymentIntent, returnURL: String?, redirectStatus: String) -> Response {
        guard let returnURL else {
            return html(
                .ok, title: "Payment \(redirectStatus)",
                body: "<p>Payment \(redirectStatus). You can close this page.</p>")
        }
        let separator = returnURL.contains("?") ? "&" : "?"
        let location = returnURL + separator + "payment_intent=\(intent.id)&redirect_status=\(redirectStatus)"
        var response = html(
            .seeOther, title: "Payment \(redirectStatus)", body: "<p><a href=\"\(escape(location))\">Continue</a></p>")
        response.headers[.location] = location
        return response
    }

    /// A refusal, with its status and stable code.
    static func refusal(_ error: ProviderError) -> Response {
        html(
            error.code.status, title: "Payment simulator",
            body:
                "<h1>\(error.code.status.code)</h1>\n<p><code>\(escape(error.code.rawValue))</code>: \(escape(error.message))</p>"
        )
    }

    static func html(_ status: HTTPResponse.Status, title: String, body: String) -> Response {
        let page =
            "<!doctype html>\n<html><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>\(escape(title))</title></head>\n<body>\n\(body)\n</body></html>\n"
        let headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            .contentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'",
            HTTPField.Name("X-Frame-Options")!: "DENY",
        ]
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    static func label(_ method: String) -> String {
        switch method {
        case "ideal": "iDEAL"
        case "bancontact": "Bancontact"
        default: "card"
        }
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
