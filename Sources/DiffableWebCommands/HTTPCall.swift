import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP call of the client commands. A server that cannot be reached, and a non-2xx
/// answer, become a ``ClientFailure``: one line that says what happened.
enum HTTPCall {
    static func send(_ method: String, _ url: URL, body: Data? = nil) async throws -> Data {
        var request = URLRequest(url: url, timeoutInterval: 30)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw ClientFailure.unreachable(url, error)
        }
        guard let status = (response as? HTTPURLResponse)?.statusCode else {
            throw ClientFailure("\(ServerAddress.origin(url)) did not answer HTTP")
        }
        guard (200..<300).contains(status) else { throw ClientFailure.refused(status: status, body: data) }
        return data
    }
}

/// What went wrong talking to the server, as the one line the commands print.
public struct ClientFailure: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }

    /// The server could not be reached: which one, why in a few words, and what to do.
    static func unreachable(_ url: URL, _ error: any Error) -> ClientFailure {
        ClientFailure("cannot reach \(ServerAddress.origin(url)) (\(reason(error))); is the server running? "
                      + "Use --base URL or \(ServerAddress.environmentVariable)")
    }

    /// The server answered with an error status: its `{"error", "message"}` in one line.
    static func refused(status: Int, body: Data) -> ClientFailure {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        let code = object?["error"] as? String
        let message = object?["message"] as? String
            ?? String(decoding: body.prefix(300), as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return ClientFailure("the server answered \(status)\(code.map { " \($0)" } ?? ""): \(message)")
    }

    /// URLSession's error in a few words (Foundation's own text is a multi-line dump on Linux).
    static func reason(_ error: any Error) -> String {
        let error = error as NSError
        guard error.domain == NSURLErrorDomain else { return error.localizedDescription }
        switch error.code {
        case NSURLErrorCannotConnectToHost: return "connection refused"
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return "unknown host"
        case NSURLErrorTimedOut: return "timed out"
        case NSURLErrorNetworkConnectionLost: return "the connection was lost"
        case NSURLErrorNotConnectedToInternet: return "no network"
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate,
             NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorServerCertificateNotYetValid:
            return "TLS failed"
        case NSURLErrorBadServerResponse: return "not an HTTP answer"
        case NSURLErrorUnsupportedURL: return "unsupported URL"
        default: return "network error \(error.code)"
        }
    }

    /// Runs a command's body; a failure is printed as `diffable-web: <line>` on standard
    /// error and the command exits with status 1 (no usage text: the command was right).
    static func reporting(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let failure as ClientFailure {
            FileHandle.standardError.write(Data("diffable-web: \(failure.description)\n".utf8))
            throw ExitCode.failure
        }
    }
}
