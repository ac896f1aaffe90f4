import MicroHTTP

// What a browser is told and asked, in one place: the headers every response carries, the
// Content-Security-Policy of pages, the session cookie's attributes, and the origin check
// every state-changing request passes (cross-site request forgery).

extension WebApp {
    /// The client is ES modules and stylesheets from this origin: no inline script, no eval,
    /// no plug-ins, no framing. Inline `style` *attributes* are allowed (server-rendered cells
    /// are positioned with them, so the page reads before and without JavaScript); `<style>`
    /// elements are not.
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:", "connect-src 'self'", "font-src 'self'", "object-src 'none'",
        "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// Adds the headers every response carries, and a page's (HTML) headers to pages: a page
    /// shows the session's share id, which drives the session, so it is never cached.
    func secured(_ response: Response) -> Response {
        var response = response
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        if let node = configuration.nodeName { response.headers["X-DiffableWeb-Node"] = node }
        if response.headers["Content-Type"]?.hasPrefix("text/html") == true {
            response.headers["Content-Security-Policy"] = Self.contentSecurityPolicy
            response.headers["X-Frame-Options"] = "DENY"
            response.headers["Cache-Control"] = "no-store"
        }
        return response
    }

    /// Refuses a state-changing request that a browser sent from another origin (a page of
    /// another site, or of the same site on another port, driving the visitor's session with
    /// their cookie). Browsers say where a request comes from in `Sec-Fetch-Site` and `Origin`;
    /// scripts (curl, the API's users) send neither and are not refused: the API is addressed
    /// by a share id, not by a cookie.
    /// - Throws: `403 cross_origin`.
    func checkOrigin(_ request: Request) throws(HTTPError) {
        guard request.method != .get, request.method != .head, request.method != .options else { return }
        if let site = request.headers["Sec-Fetch-Site"]?.lowercased(), site != "same-origin", site != "none" {
            throw Self.crossOrigin("Sec-Fetch-Site: \(site)")
        }
        guard let origin = request.headers["Origin"] else { return }
        if isAllowed(origin: origin, host: request.headers["Host"]) { return }
        throw Self.crossOrigin("Origin \(origin.prefix(100))")
    }

    private func isAllowed(origin: String, host: String?) -> Bool {
        let origin = origin.lowercased()
        if configuration.allowedOrigins.contains(origin) { return true }
        guard let host = host?.lowercased(), !host.isEmpty else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    private static func crossOrigin(_ what: String) -> HTTPError {
        HTTPError(.forbidden, code: "cross_origin",
                  message: "Refused a state-changing request from another origin (\(what)); send it from the page, or from a script without browser headers")
    }

    /// The session cookie: `HttpOnly; SameSite=Lax`, and `Secure` as configured.
    func sessionCookie(_ session: Session, for request: Request) -> SetCookie {
        let secure = switch configuration.secureCookies {
        case .off: false
        case .on: true
        case .forwarded: request.headers["X-Forwarded-Proto"]?.lowercased() == "https"
        }
        return SetCookie(name: Self.cookieName, value: session.id.value, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}

/// When the session cookie carries `Secure` (sent over HTTPS only).
public enum CookieSecurity: String, Sendable, CaseIterable {
    /// Never: the server is reached over plain HTTP (the default, for `make run`).
    case off
    /// Always: the server is reached over HTTPS only.
    case on
    /// When the request came through a proxy that says `X-Forwarded-Proto: https`. Turn this on
    /// only behind a proxy that sets (or strips) that header itself.
    case forwarded
}
