// The C side of MicroHTTP: libmicrohttpd plus the few non-variadic wrappers Swift needs.
//
// Swift cannot call C-variadic functions (`MHD_start_daemon`, `MHD_get_connection_info`,
// `MHD_set_connection_option`, `MHD_get_daemon_info`), cannot read the unions those return
// comfortably, and does not import the cast macros (`MHD_SIZE_UNKNOWN`,
// `MHD_CONTENT_READER_END_OF_STREAM`). Everything here is `static inline` so no C target
// is needed; callbacks stay typed.
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <microhttpd.h>

static const uint64_t CMHD_SIZE_UNKNOWN = MHD_SIZE_UNKNOWN;
static const ssize_t CMHD_CONTENT_READER_END_OF_STREAM = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t CMHD_CONTENT_READER_END_WITH_ERROR = MHD_CONTENT_READER_END_WITH_ERROR;

/// One internal thread polling with epoll; connections may be suspended (idle event streams,
/// requests waiting for a Swift handler) and resumed from any thread.
static const unsigned int CMHD_FLAGS_DEFAULT =
    MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
static const unsigned int CMHD_FLAG_IPV6 = MHD_USE_IPv6;
static const unsigned int CMHD_FLAG_DUAL_STACK = MHD_USE_DUAL_STACK;
static const unsigned int CMHD_FLAG_TURBO = MHD_USE_TURBO;

/// libmicrohttpd's error log, formatted here (Swift cannot take a `va_list` format) and handed
/// to `fn` as one line.
typedef void (*cmhd_log_fn)(void *context, const char *message);
struct cmhd_logger {
    cmhd_log_fn fn;
    void *context;
};

static inline void cmhd_log_trampoline(void *cls, const char *fmt, va_list ap) {
    char line[512];
    struct cmhd_logger *logger = (struct cmhd_logger *)cls;
    vsnprintf(line, sizeof line, fmt, ap);
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
    if (logger != NULL && logger->fn != NULL) logger->fn(logger->context, line);
}

/// Everything `cmhd_start_daemon` passes to `MHD_start_daemon`, typed.
struct cmhd_daemon_config {
    unsigned int flags;
    uint16_t port;
    /// NULL binds every address of the family in `flags`.
    const struct sockaddr *address;
    unsigned int connection_limit;
    /// Connections one client address may hold (0: no limit).
    unsigned int per_ip_connection_limit;
    unsigned int connection_timeout_seconds;
    size_t connection_memory_limit;
    unsigned int thread_pool_size;
    unsigned int listen_backlog;
    MHD_AccessHandlerCallback access_handler;
    void *access_handler_cls;
    MHD_RequestCompletedCallback request_completed;
    void *request_completed_cls;
    MHD_NotifyConnectionCallback connection_notify;
    void *connection_notify_cls;
    size_t (*unescape)(void *cls, struct MHD_Connection *connection, char *s);
    void *unescape_cls;
    /// Called once the request line is parsed, before the query is split into arguments; what
    /// it returns becomes the request's context (the access handler's `*req_cls`).
    void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *connection);
    void *uri_log_cls;
    struct cmhd_logger *logger;
};

static inline struct MHD_Daemon *cmhd_start_daemon(const struct cmhd_daemon_config *c) {
    struct MHD_OptionItem o[16];
    int n = 0;
    o[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, (intptr_t)c->connection_limit, NULL };
    o[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)c->connection_timeout_seconds, NULL };
    o[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)c->connection_memory_limit, NULL };
    o[n++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_BACKLOG_SIZE, (intptr_t)c->listen_backlog, NULL };
    if (c->per_ip_connection_limit > 0)
        o[n++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)c->per_ip_connection_limit, NULL };
    if (c->request_completed != NULL)
        o[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)c->request_completed, c->request_completed_cls };
    if (c->connection_notify != NULL)
        o[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)c->connection_notify, c->connection_notify_cls };
    if (c->unescape != NULL)
        o[n++] = (struct MHD_OptionItem){ MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)c->unescape, c->unescape_cls };
    if (c->uri_log != NULL)
        o[n++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)c->uri_log, c->uri_log_cls };
    if (c->address != NULL)
        o[n++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *)c->address };
    if (c->thread_pool_size > 1)
        o[n++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)c->thread_pool_size, NULL };
    o[n++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    // The logger must be the very first option, or libmicrohttpd prints to stderr meanwhile.
    if (c->logger != NULL)
        return MHD_start_daemon(c->flags, c->port, NULL, NULL,
                                c->access_handler, c->access_handler_cls,
                                MHD_OPTION_EXTERNAL_LOGGER, cmhd_log_trampoline, c->logger,
                                MHD_OPTION_ARRAY, o, MHD_OPTION_END);
    return MHD_start_daemon(c->flags, c->port, NULL, NULL,
                            c->access_handler, c->access_handler_cls,
                            MHD_OPTION_ARRAY, o, MHD_OPTION_END);
}

/// The port the daemon listens on (useful after binding port 0), or 0.
static inline uint16_t cmhd_daemon_port(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

/// The connection's socket, or -1.
static inline int cmhd_connection_fd(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info != NULL ? info->connect_fd : -1;
}

/// The `socket_context` the connection-notify callback stored (our connection id), or NULL.
static inline void *cmhd_connection_socket_context(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info != NULL ? info->socket_context : NULL;
}

/// Writes the peer's numeric address into `buffer` (NUL-terminated); returns 0 on success.
static inline int cmhd_connection_peer(struct MHD_Connection *c, char *buffer, size_t length) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || length == 0) return -1;
    const struct sockaddr *sa = info->client_addr;
    const void *src = NULL;
    if (sa->sa_family == AF_INET) src = &((const struct sockaddr_in *)sa)->sin_addr;
    else if (sa->sa_family == AF_INET6) src = &((const struct sockaddr_in6 *)sa)->sin6_addr;
    else return -1;
    return inet_ntop(sa->sa_family, src, buffer, (socklen_t)length) != NULL ? 0 : -1;
}

/// Whether libmicrohttpd has the connection's whole request head and is parsing or refusing it,
/// or is past that (its header size is known from then on; NULL before and once closed). Only
/// from the thread that runs the connection.
static inline int cmhd_connection_head_parsed(struct MHD_Connection *c) {
    return MHD_get_connection_info(c, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE) != NULL;
}

// MARK: - The query's cost in the connection's pool

/// How many arguments libmicrohttpd will split `uri`'s query into: one per `&`-separated part,
/// empty parts included (`?&&&` is three). Each takes a 64-byte record from the connection's
/// memory pool.
static inline size_t cmhd_query_argument_count(const char *uri) {
    const char *query = strchr(uri, '?');
    if (query == NULL || query[1] == '\0') return 0;
    size_t count = 1;
    for (const char *p = query + 1; *p != '\0'; p++)
        if (*p == '&') count++;
    return count;
}

/// Empties `uri`'s query in place, so that libmicrohttpd parses no argument from it. `uri` is
/// the request line in the connection's read buffer (writable; libmicrohttpd itself writes NULs
/// into it while parsing): only from the URI log callback, which runs before the query is split.
static inline void cmhd_drop_query(const char *uri) {
    char *query = strchr((char *)uri, '?');
    if (query != NULL && query[1] != '\0') query[1] = '\0';
}

/// Sets the idle timeout of one connection (0: none; event streams use this).
static inline int cmhd_set_connection_timeout(struct MHD_Connection *c, unsigned int seconds) {
    return MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT, seconds) == MHD_YES ? 0 : -1;
}

// MARK: - The hang-up watcher's epoll (Glibc's Swift module has no epoll)

static inline int cmhd_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/// Watches `fd` for the peer hanging up (EPOLLRDHUP, plus the implied EPOLLHUP/EPOLLERR),
/// edge-triggered so a dead socket reports once. `token` comes back from `cmhd_epoll_wait`.
/// A descriptor is in an epoll set until removed or closed, so a successful
/// `cmhd_epoll_unwatch` proves the descriptor was still this socket.
static inline int cmhd_epoll_watch_hangup(int epfd, int fd, uint64_t token) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = EPOLLRDHUP | EPOLLET;
    ev.data.u64 = token;
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

/// Stops watching `fd` (call while the socket is still open).
static inline int cmhd_epoll_unwatch(int epfd, int fd) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &ev);
}

/// Watches `fd` for readability (level-triggered): used for the watcher's own wake-up eventfd.
static inline int cmhd_epoll_watch_readable(int epfd, int fd, uint64_t token) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = EPOLLIN;
    ev.data.u64 = token;
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

/// Watches a socket the server writes itself (an event stream taken from libmicrohttpd) for
/// the peer hanging up and for room to write (EPOLLOUT), edge-triggered: room is reported when
/// a send that did not go whole can go on.
static inline int cmhd_epoll_watch_stream(int epfd, int fd, uint64_t token) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = EPOLLRDHUP | EPOLLOUT | EPOLLET;
    ev.data.u64 = token;
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

/// What an event reported: the peer hung up or the socket failed.
static inline int cmhd_epoll_is_hangup(uint32_t events) {
    return (events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0;
}

/// What an event reported: there is room to write.
static inline int cmhd_epoll_is_writable(uint32_t events) { return (events & EPOLLOUT) != 0; }

/// Waits for events and copies their tokens and event masks out; returns how many (or -1 with
/// errno).
static inline int cmhd_epoll_wait(int epfd, uint64_t *tokens, uint32_t *masks, int capacity, int timeout_ms) {
    struct epoll_event events[128];
    if (capacity > 128) capacity = 128;
    int n = epoll_wait(epfd, events, capacity, timeout_ms);
    for (int i = 0; i < n; i++) {
        tokens[i] = events[i].data.u64;
        masks[i] = events[i].events;
    }
    return n;
}

// MARK: - Taking a stream's socket from libmicrohttpd

/// A TCP socket connected to itself on 127.0.0.1 (bound to a free port, then connected to it:
/// TCP's simultaneous open), non-blocking, closed with a reset (`SO_LINGER` 0: no TIME_WAIT).
/// What is sent to it lands in its own receive queue. Returns -1 on failure.
static inline int cmhd_self_connected_socket(void) {
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) return -1;
    struct linger reset = { 1, 0 };
    struct sockaddr_in address;
    socklen_t length = sizeof address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (setsockopt(s, SOL_SOCKET, SO_LINGER, &reset, sizeof reset) != 0
        || bind(s, (struct sockaddr *)&address, sizeof address) != 0
        || getsockname(s, (struct sockaddr *)&address, &length) != 0
        || connect(s, (struct sockaddr *)&address, sizeof address) != 0
        || fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK) != 0) {
        close(s);
        return -1;
    }
    return s;
}

/// Makes a socket of our own out of a suspended connection's descriptor `fd`: returns a
/// duplicate of it (the client's socket, ours from now on), and puts a dummy under the same
/// number, so that what libmicrohttpd still does with `fd` (send its last response, set TCP
/// options, `shutdown`, `close`) goes to the dummy and succeeds (nothing is logged): a TCP
/// socket connected to itself (`cmhd_self_connected_socket`; a Unix socket would fail
/// libmicrohttpd's TCP_NODELAY/TCP_CORK and be logged three times). Returns -1 (nothing
/// changed) on failure. Call only while `fd` is out of every epoll set that holds it by number.
///
/// The socket keeps whatever TCP options libmicrohttpd left on it, which may be Nagle's
/// algorithm on (or a cork): each event is written as it is ready, and under Nagle a write that
/// follows one not yet acknowledged waits for the client's delayed ACK (40 ms on Linux). So the
/// stream's socket is set `TCP_NODELAY`, uncorked (a socket that is not TCP ignores both).
static inline int cmhd_take_socket(int fd) {
    int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (own < 0) return -1;
    int on = 1, off = 0;
    (void)setsockopt(own, IPPROTO_TCP, TCP_CORK, &off, sizeof off);
    (void)setsockopt(own, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    int dummy = cmhd_self_connected_socket();
    if (dummy < 0) {
        close(own);
        return -1;
    }
    if (dup3(dummy, fd, O_CLOEXEC) < 0) {
        close(own);
        close(dummy);
        return -1;
    }
    close(dummy);
    return own;
}

/// Whether libmicrohttpd has the connection suspended (1), or not (0). 0.9.75's
/// `internal_suspend_connection_` returns without suspending a connection still marked as
/// resuming; only a suspended connection is out of libmicrohttpd's epoll set.
static inline int cmhd_connection_is_suspended(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_SUSPENDED);
    return info != NULL && info->suspended == MHD_YES;
}

/// Connections libmicrohttpd holds now (suspended ones included), or -1.
static inline int cmhd_daemon_connection_count(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info != NULL ? (int)info->num_connections : -1;
}

static inline int cmhd_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

/// Sets the calling thread's niceness (Linux schedules threads: `setpriority` with who 0 is
/// this thread), once per thread: later calls on the same thread cost one thread-local read.
/// Returns 1 when it was set now, 0 when it was already tried, -1 when it failed (no
/// `CAP_SYS_NICE`).
static inline int cmhd_set_thread_niceness_once(int niceness) {
    static __thread int tried = 0;
    if (tried) return 0;
    tried = 1;
    return setpriority(PRIO_PROCESS, 0, niceness) == 0 ? 1 : -1;
}

#endif /* CMICROHTTPD_SHIM_H */
