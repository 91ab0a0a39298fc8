import CountersignAPI
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The HTML of the payment simulator's hosted page: what a payer sees at their bank's 3-D Secure step
/// or at iDEAL or Bancontact, in the simulator's own look, readable on a phone, with "TEST MODE" on
/// every page. Small on purpose: no script, no outside resources, one stylesheet allowed by its hash,
/// not frameable (an authorize button must not be clickjacked).
enum HostedPaymentPage {
    /// The page for an intent: what is paid and, while it requires action, the two answers.
    static func payment(_ intent: ProviderPaymentIntent) -> Response {
        let amount = "\(intent.amount / 100).\(String(format: "%02lld", intent.amount % 100)) \(intent.currency)"
        let method = label(intent.method.rawValue)
        var body = """
            <p class="lead">Paying <strong>\(escape(amount))</strong> by \(escape(method)) for order <code>\(escape(intent.orderId))</code>.</p>
            <p class="amount" aria-hidden="true">\(escape(amount))</p>
            """
        if intent.status == .requiresAction {
            body += """

                <p>\(escape(prompt(intent.method.rawValue)))</p>
                <form method="post" action="\(escape(Endpoint.authorizeSimulatedPayment.path([intent.id])))"><button type="submit" class="approve">Authorize payment</button></form>
                <form method="post" action="\(escape(Endpoint.failSimulatedPayment.path([intent.id])))"><button type="submit" class="decline">Fail payment</button></form>
                """
        } else {
            body +=
                "\n<p class=\"done\">This payment is <code>\(intent.status.rawValue)</code>: there is nothing to answer.</p>"
        }
        return html(.ok, title: "Pay \(amount)", heading: heading(intent.method.rawValue), body: body)
    }

    /// After an answer: 303 to the return URL with `payment_intent` and `redirect_status`, or a
    /// closing page when the intent has no return URL.
    static func finished(_ intent: ProviderPaymentIntent, returnURL: String?, redirectStatus: String) -> Response {
        guard let returnURL else {
            return html(
                .ok, title: "Payment \(redirectStatus)", heading: "Payment \(redirectStatus)",
                body: "<p>Payment \(redirectStatus). You can close this page.</p>")
        }
        let separator = returnURL.contains("?") ? "&" : "?"
        let location = returnURL + separator + "payment_intent=\(intent.id)&redirect_status=\(redirectStatus)"
        var response = html(
            .seeOther, title: "Payment \(redirectStatus)", heading: "Payment \(redirectStatus)",
            body: "<p><a href=\"\(escape(location))\">Continue</a></p>")
        response.headers[.location] = location
        return response
    }

    /// A refusal, with its status and stable code.
    static func refusal(_ error: ProviderError) -> Response {
        html(
            error.code.status, title: "Payment simulator", heading: "This payment cannot be answered",
            body:
                "<p>\(escape(error.message))</p>\n<p class=\"small\">Error \(error.code.status.code) <code>\(escape(error.code.rawValue))</code>. Go back to the shop and try again.</p>"
        )
    }

    static func html(_ status: HTTPResponse.Status, title: String, heading: String, body: String) -> Response {
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title)) · TEST MODE</title><style>\(stylesheet)</style></head>
            <body>
            <div class="test-mode" role="note">TEST MODE · a simulator, not a bank: no money moves here</div>
            <main><div class="brand">Countersign Pay <span>simulator</span></div>
            <h1>\(escape(heading))</h1>
            \(body)
            <p class="small secure">Secured page of the payment simulator. Never type a real card or bank password here.</p>
            </main>
            </body></html>

            """
        let headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            .contentSecurityPolicy: "default-src 'none'; style-src '\(stylesheetHash)'; frame-ancestors 'none'",
            HTTPField.Name("X-Frame-Options")!: "DENY",
        ]
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    /// The page's one stylesheet: large type and 48 px buttons on a phone, the TEST MODE band on top.
    static let stylesheet = """
        *{box-sizing:border-box}body{margin:0;font:17px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;\
        color:#1d2433;background:#eef1f6}.test-mode{background:#ffd43b;color:#3b2f00;font-weight:700;\
        text-align:center;padding:10px 12px;letter-spacing:.04em;font-size:15px}main{max-width:460px;\
        margin:24px auto;background:#fff;border-radius:16px;padding:24px 20px;box-shadow:0 2px 12px rgba(20,33,61,.12)}\
        .brand{font-weight:700;color:#14213d;font-size:15px}.brand span{font-weight:400;color:#5b6475}\
        h1{font-size:24px;margin:12px 0 16px}.lead{margin:0 0 8px}.amount{font-size:34px;font-weight:700;\
        margin:8px 0 16px;font-variant-numeric:tabular-nums}code{font-size:14px;overflow-wrap:anywhere}\
        form{margin:0 0 12px}button{display:block;width:100%;min-height:52px;font:inherit;font-weight:700;\
        border-radius:12px;cursor:pointer;padding:12px 16px}.approve{background:#0b5fff;color:#fff;border:0}\
        .decline{background:#fff;color:#b3261e;border:2px solid #b3261e}button:focus-visible,a:focus-visible{\
        outline:3px solid #14213d;outline-offset:2px}.small{font-size:14px;color:#5b6475}.secure{margin-top:20px}\
        a{color:#0b5fff}@media (max-width:480px){main{margin:0;border-radius:0;box-shadow:none;min-height:100vh}}
        """

    /// The Content-Security-Policy source that allows `stylesheet` and no other style.
    static let stylesheetHash = "sha256-" + Data(SHA256.hash(data: Data(stylesheet.utf8))).base64EncodedString()

    static func label(_ method: String) -> String {
        switch method {
        case "ideal": "iDEAL"
        case "bancontact": "Bancontact"
        default: "card"
        }
    }

    /// What the payer's bank or scheme would call this step.
    static func heading(_ method: String) -> String {
        switch method {
        case "ideal": "iDEAL: approve in your bank"
        case "bancontact": "Bancontact: confirm the payment"
        default: "3-D Secure: confirm it is you"
        }
    }

    /// What the payer is asked to do.
    static func prompt(_ method: String) -> String {
        switch method {
        case "ideal": "Your bank asks you to approve this payment. In test mode, choose the outcome."
        case "bancontact": "Confirm this payment as in the Bancontact app. In test mode, choose the outcome."
        default: "Your card's bank asks you to confirm this payment. In test mode, choose the outcome."
        }
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
