import Foundation

/// How the web layer behaves; every value has a default fit for `make run`.
public struct WebConfiguration: Sendable {
    /// The directory of static files (`Public/`).
    public var publicDirectory: String
    /// The directory of Mustache templates (`templates/`).
    public var templatesDirectory: String
    /// More template directories, read after ``templatesDirectory`` (an app's own cells; a
    /// template here replaces one of the same name there).
    public var extraTemplatesDirectories: [String] = []
    /// The lists the app serves, at `/demos/<name>`, in the order the index shows them.
    public var demos: [DemoDescriptor]
    /// Where sessions and their lists are saved, so that they outlive a restart (an SQLite file
    /// in this directory); `nil` keeps them in memory only.
    public var stateDirectory: String?
    /// A store made by the caller (the executable's PostgreSQL store, `DiffableWebPostgres`);
    /// when set, ``stateDirectory`` is not used.
    public var sessionStore: (any SessionStore)?
    /// This process's name among several behind a proxy: sent as `X-DiffableWeb-Node` on every
    /// response and in `/healthz` (`nil`: neither).
    public var nodeName: String?
    /// At most this many sessions; the one idle the longest is evicted to make room.
    public var maximumSessions = 10_000
    /// What one session's lists may hold in memory (identifiers, event logs, caches, as
    /// `MemoryCost` reckons them); a write that would pass it is refused
    /// (`422 memory_budget`) and changes nothing. 0: no limit.
    public var sessionMemoryBytes = WebConfiguration.defaultSessionMemoryBytes
    public static let defaultSessionMemoryBytes = 16 << 20
    /// What all sessions' lists together may hold; past it idle sessions are evicted (they stay
    /// saved in the store), then writes that grow a list and new sessions are refused
    /// (`503 memory_full`, `Retry-After`). 0: no limit.
    public var memoryTotalBytes = WebConfiguration.defaultMemoryTotalBytes
    public static let defaultMemoryTotalBytes = 512 << 20
    /// The process's memory limit: as RSS nears it, caches are dropped, idle sessions evicted
    /// and the slowest streams cut, and past that what would grow is refused (`503 memory_full`);
    /// see ProcessMemory's `MemoryGovernor`. The budgets above are shares of it
    /// (``MemoryShares``). 0: none (the app serves without a governor).
    public var memoryLimitBytes = 0
    /// What all event streams together may hold (unsent bytes, deflate states) before new
    /// streams are refused (`503 memory_full`): a quarter of the process limit
    /// (``MemoryShares/streamsHeld``). 0: no cap (the governor still refuses when full).
    public var streamMemoryBytes = 0

    /// The parts of one process memory limit each budget defaults to: at most half for the
    /// sessions' lists (and at most ``defaultMemoryTotalBytes``); a quarter for what the
    /// event streams hold together before new ones are refused (``streamsHeld``), of which
    /// their unsent bytes at most 256 MiB before the furthest behind are cut (``streams``);
    /// and for one session at most ``defaultSessionMemoryBytes``, a quarter of the sessions'
    /// part. The rest is the runtime's, the caches' and the margin the governor sheds in.
    public struct MemoryShares: Sendable, Equatable {
        public var limit: Int
        public var sessions: Int
        public var session: Int
        public var streams: Int
        public var streamsHeld: Int

        public init(limit: Int) {
            self.limit = max(0, limit)
            guard limit > 0 else {
                sessions = WebConfiguration.defaultMemoryTotalBytes
                session = WebConfiguration.defaultSessionMemoryBytes
                streams = 256 << 20
                streamsHeld = 0
                return
            }
            sessions = min(WebConfiguration.defaultMemoryTotalBytes, limit / 2)
            session = min(WebConfiguration.defaultSessionMemoryBytes, sessions / 4)
            streamsHeld = limit / 4
            streams = min(256 << 20, streamsHeld)
        }
    }
    /// Sessions without an open stream for this long are dropped.
    public var sessionIdleTimeout: Duration = .seconds(30 * 60)
    /// Events kept per list for reconnecting clients.
    public var eventLogCapacity = 256
    /// How often each stream gets a comment line, so proxies keep idle streams open (spread
    /// over the interval: MicroHTTP's `HeartbeatSchedule`). 30 s stays under the idle timeouts
    /// of the usual proxies and load balancers (Heroku's router 55 s, nginx's `proxy_read_timeout`
    /// and AWS ALB's 60 s, Cloudflare's 100 s) and costs half the CPU of 15 s at 10,000 idle
    /// streams (docs/benchmarks-history.md, "Idle streams (session 11)").
    public var heartbeatInterval: Duration = .seconds(30)
    /// The viewport assumed until a client reports its own (the page's list is at most 1000 px wide).
    public var defaultViewport = (width: 1000.0, height: 768.0)
    /// Enables `POST /__test/drop-streams` (browser tests kill streams server-side with it).
    public var testHooks = false
    /// When the session cookie is `Secure`.
    public var secureCookies = CookieSecurity.off
    /// Origins (`https://example.org`, lowercase) whose pages may send state-changing requests
    /// besides the server's own (`Origin` equal to the `Host` it was reached by). For a proxy
    /// that rewrites `Host`.
    public var allowedOrigins: Set<String> = []
    /// The URL people reach the server by (`https://lists.example.org`, no trailing slash),
    /// when a proxy in front of it changes the `Host`: the "Script this session" panel's
    /// commands use it. `nil`: the origin each request was sent to (its `Host`).
    public var publicURL: String?

    /// Reads that cost in proportion to a whole list (`GET …/layout`, `GET …/snapshot`) of a list
    /// with at least this many items run on the heavy-work threads, in turns between sessions,
    /// never on the threads every other request runs on (0: every such read does).
    public var heavyReadItems = 2_000
    /// Threads for heavy reads (default: half the cores, at least one: the rest stay for
    /// everything else). Each session has at most one heavy read running.
    public var heavyWorkThreads = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
    /// Heavy reads that may wait for their turn, per session and in all; past either bound a
    /// request is refused `429 too_many_requests` with `Retry-After: 1`.
    public var heavyWorkWaitingPerSession = 8
    public var heavyWorkWaitingTotal = 256

    /// The metrics backend's text exposition (Prometheus' format), served as `GET /metrics`:
    /// given by an executable that bootstrapped a backend that can be scraped (`nil`: `/metrics`
    /// answers 404). The library records through swift-metrics and bootstraps nothing.
    public var metricsExposition: (@Sendable () -> [UInt8])?

    public init(publicDirectory: String, templatesDirectory: String, demos: [DemoDescriptor]) {
        self.publicDirectory = publicDirectory
        self.templatesDirectory = templatesDirectory
        self.demos = demos
    }
}
