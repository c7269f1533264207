import HTTPTypes
import Hummingbird
import Logging

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

    /// A failure no handler expected: the error goes to the log under a short random reference,
    /// the page shows only the reference (D597): an error's text can name files, queries and
    /// store internals that are not the browser's to see.
    static func internalError(_ error: any Error, path: String, logger: Logger) -> (page: HTML, reference: String) {
        let reference = String(RandomToken.make().prefix(8))
        logger.error("request failed", metadata: ["path": "\(path)", "reference": "\(reference)", "error": "\(error)"])
        let page = PageLayout.page(title: "Something went wrong", current: "", live: false,
                                   "<p>The page could not be made. The service's log says why, under the reference <code>\(reference)</code>.</p>")
        return (page, reference)
    }
}
