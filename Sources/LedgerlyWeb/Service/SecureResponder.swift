import Hummingbird

/// Wraps the router: every response gets the security headers (`WebResponse.secure`), and what a
/// handler threw becomes a page (not found, body too large, a store that does not answer)
/// instead of a bare status, with the same headers.
struct SecureResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == WebRequestContext {
    let inner: Inner

    func respond(to request: Request, context: WebRequestContext) async throws -> Response {
        var response: Response
        do {
            response = try await inner.respond(to: request, context: context)
        } catch let error as HTTPError {
            response = switch error.status {
            case .notFound: WebResponse.problem(.notFound, title: "Not found", "There is no page at this address. <a href=\"/\">Go to the dashboard</a>.")
            case .contentTooLarge: WebResponse.problem(.contentTooLarge, title: "Too large", "What was sent is larger than this page accepts (\(WebLimits.bodyBytes / 1024) KiB); nothing was saved.")
            default: WebResponse.problem(error.status, title: "Refused", "\(error.body ?? error.status.reasonPhrase)")
            }
        } catch {
            let (page, _) = WebResponse.internalError(error, path: request.uri.path, logger: context.logger)
            response = WebResponse.html(page, status: .internalServerError)
        }
        WebResponse.secure(&response.headers)
        return response
    }
}
