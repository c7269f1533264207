import HTTPTypes
import Hummingbird
import NIOCore

extension WebApp {
    /// The routes of /import (issue 47): the upload is multipart and has its own size limit
    /// (`WebLimits.uploadBytes`, D600); the confirm and undo are ordinary forms.
    func addImportRoutes(to router: Router<Context>) {
        router.get("/import") { request, _ in try await guarded(request) { session in try await ImportPage(store: store, previews: .shared, now: now()).show(session: session) } }
        router.post("/import") { request, _ in
            try await uploaded(request) { session, upload in try await ImportPage(store: store, previews: .shared, now: now()).preview(upload, session: session) }
        }
        router.post("/import/confirm") { request, _ in
            try await posted(request, needsSetup: true) { session, form in try await ImportPage(store: store, previews: .shared, now: now()).confirm(form, session: session) }
        }
        router.get("/import/done") { request, _ in
            try await guarded(request) { session in ImportPage(store: store, previews: .shared, now: now()).done(query: FormFields(encoded: request.uri.query ?? ""), session: session) }
        }
        router.post("/import/undo") { request, _ in
            try await posted(request, needsSetup: true) { session, form in try await ImportPage(store: store, previews: .shared, now: now()).undo(form, session: session) }
        }
    }

    /// A multipart upload: signed in, set up, within `WebLimits.uploadBytes`, well-formed, and
    /// carrying this session's CSRF token (refused with a page saying so otherwise, nothing done).
    func uploaded(_ request: Request, _ body: (WebSession, MultipartForm) async throws -> Response) async throws -> Response {
        try await guarded(request) { session in
            var request = request
            guard let boundary = MultipartForm.boundary(contentType: request.headers[.contentType] ?? "") else {
                return WebResponse.problem(.unsupportedMediaType, title: "Refused", "This page takes a file sent by its own form (multipart/form-data); nothing was imported.")
            }
            let bytes: ByteBuffer
            do {
                bytes = try await request.collectBody(upTo: WebLimits.uploadBytes + WebLimits.bodyBytes)
            } catch is NIOTooManyBytesError {
                return WebResponse.problem(.contentTooLarge, title: "Too large", "The file is larger than this page accepts (\(WebLimits.uploadBytes / 1024 / 1024) MiB); nothing was imported. Import it with <code>ledgerly import</code>.")
            }
            guard let upload = MultipartForm(body: Array(bytes.readableBytesView), boundary: boundary) else {
                return WebResponse.problem(.badRequest, title: "Refused", "What was sent is not a well-formed upload; nothing was imported.")
            }
            guard SessionBook.csrfMatches(upload[FormSupport.csrfField], session) else {
                return WebResponse.problem(.forbidden, title: "Refused", "This form was not sent by a Ledgerly page of this session (its security token is missing or wrong); nothing was saved. Go back, reload the page and send it again.")
            }
            if let file = upload.file("file"), file.bytes.count > WebLimits.uploadBytes {
                return WebResponse.problem(.contentTooLarge, title: "Too large", "The file is larger than this page accepts (\(WebLimits.uploadBytes / 1024 / 1024) MiB); nothing was imported. Import it with <code>ledgerly import</code>.")
            }
            return try await body(session, upload)
        }
    }
}
