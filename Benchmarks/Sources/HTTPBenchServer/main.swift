// The server `scripts/bench-http` measures: MicroHTTP with the routes the benchmark needs.
//
//   GET  /hello            a small text response
//   GET  /static/<file>    files from --static DIR (StaticFiles)
//   GET  /events           an idle event stream (registered in the hub until it closes)
//   POST /push             one event to every open stream; answers {"streams": n, "micros": t}
//   GET  /streams          {"streams": n} (the server's own count of open streams)
//
// Usage: HTTPBenchServer [--port N] [--static DIR] [--threads N]; prints "listening <port>".
import Foundation
import Logging
import MicroHTTP
import Synchronization

final class Hub: Sendable {
    private let streams = Mutex<[UInt64: EventStream]>([:])

    func add(_ stream: EventStream) {
        streams.withLock { $0[stream.id] = stream }
        stream.onClose { [weak self] _ in self?.remove(stream.id) }
    }

    private func remove(_ id: UInt64) { _ = streams.withLock { $0.removeValue(forKey: id) } }

    /// Sends to every stream; returns how many and how long the sends took (microseconds).
    func push(_ data: String, id: String) -> (Int, Int) {
        let clock = ContinuousClock()
        let start = clock.now
        let targets = streams.withLock { Array($0.values) }
        for stream in targets { stream.send(event: "push", id: id, data: data) }
        let elapsed = clock.now - start
        return (targets.count, Int(elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000))
    }
}

var port = 0
var staticDirectory = FileManager.default.currentDirectoryPath
var threads = HTTPServer.Configuration.defaultThreads
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--port": port = arguments.next().flatMap { Int($0) } ?? port
    case "--static": staticDirectory = arguments.next() ?? staticDirectory
    case "--threads": threads = arguments.next().flatMap { Int($0) } ?? threads
    default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
        exit(2)
    }
}

let hub = Hub()
let files = StaticFiles(root: staticDirectory, urlPrefix: "/static")
let pushes = Atomic<Int>(0)
let running = Mutex<HTTPServer?>(nil)
var logger = Logger(label: "HTTPBenchServer")
logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
var limits = Limits()
limits.maxConnections = 30_000
// Every benchmark client comes from 127.0.0.1: no per-address cap.
limits.maxConnectionsPerAddress = 0

var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: port, limits: limits, threads: threads)
// Static files are answered on libmicrohttpd's thread (no task hop); everything else is async.
configuration.immediateHandler = { request in request.path.hasPrefix("/static/") ? files.response(for: request) : nil }
let server = try HTTPServer(configuration: configuration, logger: logger) { request in
    switch (request.method, request.path) {
    case (.get, "/hello"):
        return .text("Hello, world!\n")
    case (.get, "/events"):
        return .eventStream { stream in FileHandle.standardError.write(Data("open \(stream.id)\n".utf8)); hub.add(stream) }
    case (.post, "/push"):
        let n = pushes.wrappingAdd(1, ordering: .relaxed).newValue
        let (count, micros) = hub.push(#"{"push":\#(n)}"#, id: "\(n)")
        return .json(["streams": count, "micros": micros])
    case (.get, "/streams"):
        return .json(["streams": running.withLock { $0?.openEventStreamCount ?? 0 }])
    default:
        if let response = files.response(for: request) { return response }
        return HTTPError(.notFound).response
    }
}
try server.start()
FileHandle.standardOutput.write(Data("listening \(server.port)\n".utf8))
running.withLock { $0 = server }

let stop = DispatchSemaphore(value: 0)
signal(SIGTERM, SIG_IGN)
signal(SIGINT, SIG_IGN)
let sources = [SIGTERM, SIGINT].map { signalNumber in
    let source = DispatchSource.makeSignalSource(signal: signalNumber)
    source.setEventHandler { stop.signal() }
    source.resume()
    return source
}
stop.wait()
server.stop()
_ = sources
