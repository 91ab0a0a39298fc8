import Testing

@testable import CountersignServer

@Suite("JSON content type")
struct JSONContentTypeTests {
    @Test(
        "application/json in any case, with parameters and optional white space, is JSON",
        arguments: [
            "application/json", "Application/JSON", "APPLICATION/JSON", "application/json; charset=utf-8",
            "application/json;charset=UTF-8", " application/json ", "\tapplication/json\t;x=y", "application/json;",
        ])
    func json(_ contentType: String) {
        #expect(JSONBody.isJSON(contentType: contentType))
    }

    @Test(
        "anything else is not: other types, a longer or shorter name, a parameter before it, other white space",
        arguments: [
            "", ";", "text/plain", "application/jsonp", "application/jso", "xapplication/json", "application/ json",
            "application/json x", "charset=utf-8; application/json", "application\u{0}json", "application/json\r",
            "\u{A0}application/json", "application/\u{212A}son", "application/j\u{0130}son", "multipart/form-data",
            "application/x-www-form-urlencoded", "application/json-patch+json", "text/json",
        ])
    func notJSON(_ contentType: String) {
        #expect(!JSONBody.isJSON(contentType: contentType))
    }

    @Test("no header is not JSON")
    func missing() {
        #expect(!JSONBody.isJSON(contentType: nil))
    }
}
