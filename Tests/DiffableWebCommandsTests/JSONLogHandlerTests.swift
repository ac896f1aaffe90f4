import ArgumentParser
@testable import DiffableWebCommands
import Foundation
import Logging
import MicroHTTP
import Testing

/// `--log-format json`: one JSON object a line, whatever the metadata.
@Suite("JSON log lines")
struct JSONLogHandlerTests {
    /// The lines `body` logs through a `JSONLogHandler` on a pipe, parsed one by one.
    private func lines(level: Logger.Level = .trace, provider: Logger.MetadataProvider? = nil,
                       _ body: (inout Logger) -> Void) throws -> [[String: Any]] {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let output = JSONLogHandler.Output(fileDescriptor: descriptors[1])
        var logger = Logger(label: "test.json") { label in
            var handler = JSONLogHandler(label: label, output: output, metadataProvider: provider)
            handler.logLevel = level
            return handler
        }
        body(&logger)
        close(descriptors[1])
        let data = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true).readDataToEndOfFile()
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.isEmpty || text.hasSuffix("\n"))
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "\(line)")
        }
    }

    @Test("the fixed fields: time (RFC 3339, UTC, milliseconds), level, label, message, source")
    func fixedFields() throws {
        let parsed = try lines { $0.info("hello") }
        let line = try #require(parsed.first)
        #expect(parsed.count == 1)
        #expect(line["level"] as? String == "info")
        #expect(line["label"] as? String == "test.json")
        #expect(line["message"] as? String == "hello")
        #expect(line["source"] as? String == "DiffableWebCommandsTests")
        let time = try #require(line["time"] as? String)
        #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(time)")
        #expect(JSONLogHandler.rfc3339(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(JSONLogHandler.rfc3339(milliseconds: 1_767_225_599_999) == "2025-12-31T23:59:59.999Z")
    }

    @Test("metadata of every shape is JSON: strings, arrays, objects, descriptions; escapes per RFC 8259", arguments: [
        "plain", "quote \" and backslash \\", "new\nline and \r\t tab", "control \u{0}\u{1}\u{1F}\u{7F}",
        "unicode: é 日本 🏔️ \u{2028}", "", "}{\"],[",
    ])
    func metadataShapes(text: String) throws {
        let parsed = try lines { logger in
            logger[metadataKey: "fromLogger"] = .string(text)
            logger.warning("message \(text)", metadata: [
                "text": .string(text),
                "number": .stringConvertible(42),
                "list": .array([.string(text), .array([]), .dictionary(["k": .string(text)])]),
                "nested": .dictionary(["a": .dictionary(["b": .array([.string(text)])]), text: .string("key escaped too")]),
            ])
        }
        let line = try #require(parsed.first)
        #expect(line["message"] as? String == "message \(text)")
        #expect(line["fromLogger"] as? String == text)
        #expect(line["text"] as? String == text)
        #expect(line["number"] as? String == "42")
        let list = try #require(line["list"] as? [Any])
        #expect(list.first as? String == text)
        #expect((list[1] as? [Any])?.isEmpty == true)
        #expect((list[2] as? [String: Any])?["k"] as? String == text)
        let nested = try #require(line["nested"] as? [String: Any])
        #expect(((nested["a"] as? [String: Any])?["b"] as? [Any])?.first as? String == text)
        #expect(nested[text] as? String == "key escaped too")
    }

    @Test("the call's metadata wins over the provider's, which wins over the logger's; reserved names get a _")
    func precedence() throws {
        let provider = Logger.MetadataProvider { ["shared": "provider", "fromProvider": "yes"] }
        let parsed = try lines(provider: provider) { logger in
            logger[metadataKey: "shared"] = "logger"
            logger[metadataKey: "onlyLogger"] = "yes"
            logger.info("one")
            logger.info("two", metadata: ["shared": "call", "message": "not the message"])
        }
        #expect(parsed.count == 2)
        #expect(parsed[0]["shared"] as? String == "provider")
        #expect(parsed[0]["fromProvider"] as? String == "yes" && parsed[0]["onlyLogger"] as? String == "yes")
        #expect(parsed[1]["shared"] as? String == "call")
        #expect(parsed[1]["message"] as? String == "two" && parsed[1]["_message"] as? String == "not the message")
    }

    @Test("a line logged inside a request's handler carries its request_id (RequestID.metadataProvider)")
    func requestID() throws {
        let parsed = try lines(provider: RequestID.metadataProvider) { logger in
            logger.info("outside")
            let inner = logger
            RequestID.$current.withValue("abc123") { inner.info("inside") }
        }
        #expect(parsed.count == 2)
        #expect(parsed[0]["request_id"] == nil)
        #expect(parsed[1]["request_id"] as? String == "abc123")
    }

    @Test("lines below the handler's level are not written")
    func levelFiltering() throws {
        let parsed = try lines(level: .warning) { logger in
            logger.debug("no")
            logger.info("no")
            logger.warning("yes")
            logger.error("yes too")
        }
        #expect(parsed.map { $0["level"] as? String } == ["warning", "error"])
    }

    @Test("lines from many tasks at once never interleave")
    func concurrentLines() async throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let output = JSONLogHandler.Output(fileDescriptor: descriptors[1])
        let readEnd = descriptors[0]
        let reader = Task.detached { @Sendable in
            FileHandle(fileDescriptor: readEnd, closeOnDealloc: true).readDataToEndOfFile()
        }
        let logger = Logger(label: "many") { JSONLogHandler(label: $0, output: output) }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for line in 0..<200 { logger.info("line", metadata: ["task": "\(task)", "n": "\(line)", "pad": .string(String(repeating: "x", count: 300))]) }
                }
            }
        }
        close(descriptors[1])
        let text = try #require(String(data: await reader.value, encoding: .utf8))
        let lines = text.split(separator: "\n")
        #expect(lines.count == 1600)
        for line in lines { _ = try JSONSerialization.jsonObject(with: Data(line.utf8)) }
    }

    @Test("--log-format takes text or json; anything else is refused, naming the flag")
    func logFormatFlag() throws {
        #expect(try ServeOptions.parse(["--log-format", "json"]).format() == .json)
        #expect(try ServeOptions.parse([]).format() == .text)
        #expect { try ServeOptions.parse(["--log-format", "yaml"]) } throws: { error in
            ServeOptions.message(for: error).contains("--log-format")
        }
        var options = try ServeOptions.parse([])
        options.logFormat = "yaml"
        #expect { try options.bootstrapLogging() } throws: { error in
            (error as? ValidationError)?.message.contains("--log-format") == true
        }
        #expect(throws: (any Error).self) { try ServeOptions.parse(["--log-level", "loud"]) }
    }
}
