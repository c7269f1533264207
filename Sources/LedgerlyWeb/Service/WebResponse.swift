import HTTPTypes
import Hummingbird

/// How pages leave the service: HTML with the headers every response carries (D511).
public enum WebResponse {
    /// On every response, page or asset or error.
    public static func secure(_ headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        if headers[.cacheControl] == nil { headers[.cacheControl] = "no-store" }
    }

    public static func html(_ page: HTML, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page.markup)))
    }

    /// After a form was handled: the browser asks for the result page (Post/Redirect/Get), so a
    /// reload does not send the form again.
    public static func seeOther(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    public static func problem(_ status: HTTPResponse.Status, title: String, _ message: HTML, signedIn: Bool = true) -> Response {
        html(PageLayout.page(title: title, current: "", live: false, signedIn: signedIn, "<p>\(message)</p>"), status: status)
    }
}
