import ArgumentParser
import Logging
import MicroHTTP

/// `--log-format`: how log lines are written on standard error.
public enum LogFormat: String, CaseIterable, Sendable {
    /// swift-log's `StreamLogHandler`: one line for people.
    case text
    /// ``JSONLogHandler``: one JSON object a line, for log collectors.
    case json
}

extension ServeOptions {
    /// Starts logging as `--log-level` and `--log-format` say, with every line written inside
    /// a request's handler carrying its `request_id` (``RequestID/metadataProvider``).
    ///
    /// For an executable's `main`, once, before ``serve(customize:)``: swift-log's bootstrap
    /// may run once per process (a second is undefined behaviour), so the library never calls it.
    /// ```swift
    /// func run() async throws {
    ///     try options.bootstrapLogging()
    ///     try await options.serve()
    /// }
    /// ```
    /// - Throws: `ValidationError` for an unknown level or format.
    public func bootstrapLogging() throws {
        let (level, format) = (try level(), try format())
        switch format {
        case .text:
            LoggingSystem.bootstrap({ label, provider in
                var handler = StreamLogHandler.standardError(label: label, metadataProvider: provider)
                handler.logLevel = level
                return handler
            }, metadataProvider: RequestID.metadataProvider)
        case .json:
            LoggingSystem.bootstrap({ label, provider in
                var handler = JSONLogHandler(label: label, metadataProvider: provider)
                handler.logLevel = level
                return handler
            }, metadataProvider: RequestID.metadataProvider)
        }
    }

    /// `--log-level`.
    func level() throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: logLevel.lowercased()) else {
            throw ValidationError("--log-level takes trace, debug, info, notice, warning, error or critical: \(logLevel)")
        }
        return level
    }

    /// `--log-format`.
    func format() throws -> LogFormat {
        guard let format = LogFormat(rawValue: logFormat.lowercased()) else {
            throw ValidationError("--log-format takes text or json: \(logFormat)")
        }
        return format
    }
}
