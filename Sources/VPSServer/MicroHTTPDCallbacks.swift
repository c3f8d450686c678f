import CMicroHTTPD
import Glibc

// libmicrohttpd calls back through C function pointers: non-capturing closures stored as
// globals. The daemon's closure argument is the `RequestHandler` (retained by `VPSServer`
// while the daemon runs); each request's `RequestState` is retained on the first callback
// and released in the completion callback; each connection's `ConnectionRecord` is
// retained when the connection opens and released when it closes.

/// Collects request headers into a dictionary keyed by lower-cased name.
private final class HeaderCollector {
    var headers: [String: String] = [:]
}

private let collectHeader: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<HeaderCollector>.fromOpaque(cls).takeUnretainedValue()
    let name = String(cString: key).lowercased()
    if collector.headers.count < 100 {
        collector.headers[name] = value.map { String(cString: $0) } ?? ""
    }
    return .YES
}

private func requestHeaders(_ connection: OpaquePointer) -> [String: String] {
    let collector = HeaderCollector()
    let ref = Unmanaged.passRetained(collector)
    _ = MHD_get_connection_values(connection, .HEADER_KIND, collectHeader, ref.toOpaque())
    ref.release()
    return collector.headers
}

/// Queues `response` on the connection; returns false when libmicrohttpd refused (e.g. the
/// connection is mid-upload and cannot take a response yet).
private func queue(_ response: HTTPResponseMessage, on connection: OpaquePointer, state: RequestState,
                   handler: RequestHandler, closeConnection: Bool) -> Bool {
    let made = response.body.withUnsafeBytes { buf in
        MHD_create_response_from_buffer(buf.count, UnsafeMutableRawPointer(mutating: buf.baseAddress),
                                        .RESPMEM_MUST_COPY)
    }
    guard let r = made else { return false }
    defer { MHD_destroy_response(r) }
    for (name, value) in response.headers { _ = MHD_add_response_header(r, name, value) }
    if closeConnection || state.closeAfterAnswer { _ = MHD_add_response_header(r, "Connection", "close") }
    guard MHD_queue_response(connection, UInt32(response.status), r) == .YES else { return false }
    state.responseQueued = true
    state.status = response.status
    handler.responded(state)
    return true
}

let accessHandlerCallback: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadDataSize, context in
    guard let cls, let connection, let context, let uploadDataSize else { return .NO }
    let handler = Unmanaged<RequestHandler>.fromOpaque(cls).takeUnretainedValue()

    guard let existing = context.pointee else {
        // First call: headers only.
        let state = handler.begin(method: method.map { String(cString: $0) } ?? "",
                                  path: url.map { String(cString: $0) } ?? "",
                                  headers: requestHeaders(connection))
        context.pointee = Unmanaged.passRetained(state).toOpaque()
        let hasBody = state.headers["content-length"].map { $0.trimmingSpaces != "0" } ?? (state.headers["transfer-encoding"] != nil)
        if let record = cmhd_socket_context(connection) {
            let c = Unmanaged<ConnectionRecord>.fromOpaque(record).takeUnretainedValue()
            state.connection = c
            handler.connections.headReceived(c, expectsBody: hasBody)
        }
        if let early = state.earlyResponse {
            // The body (if any) will not be read: close the connection after answering.
            return queue(early, on: connection, state: state, handler: handler, closeConnection: hasBody) ? .YES : .NO
        }
        return .YES
    }

    let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
    let size = uploadDataSize.pointee
    if size > 0 {
        if let uploadData {
            handler.receive(state, UnsafeRawBufferPointer(start: uploadData, count: size))
        }
        if let c = state.connection { handler.connections.bodyReceived(c, bytes: size) }
        uploadDataSize.pointee = 0
        // Over the limit mid-stream (chunked): libmicrohttpd 0.9 cannot queue a response
        // in the middle of a body, so the rest is discarded and the 413 goes out when the
        // body ends; a body that goes on past twice the limit (+1 MiB) closes the connection.
        if state.earlyResponse != nil, state.bodyBytesSeen > 2 * state.bodyLimit + (1 << 20) { return .NO }
        return .YES
    }

    // Final call: the whole body is in.
    if state.responseQueued { return .YES }
    if let c = state.connection { handler.connections.requestReceived(c) }
    switch handler.decide(state) {
    case .answer(let response):
        return queue(response, on: connection, state: state, handler: handler, closeConnection: false) ? .YES : .NO
    case .localize(let job):
        // This connection has a thread of its own: it may wait here for the answer.
        let answer = handler.localize(job)
        state.outcome = answer.outcome
        return queue(answer.response, on: connection, state: state, handler: handler, closeConnection: false) ? .YES : .NO
    }
}

let requestCompletedCallback: MHD_RequestCompletedCallback = { cls, _, context, reason in
    guard let cls, let context, let raw = context.pointee else { return }
    context.pointee = nil
    let handler = Unmanaged<RequestHandler>.fromOpaque(cls).takeUnretainedValue()
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
    let ended: String?
    switch reason {
    case .REQUEST_TERMINATED_COMPLETED_OK: ended = nil
    case .REQUEST_TERMINATED_TIMEOUT_REACHED: ended = "timeout"
    case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: ended = "shutdown"
    default: ended = "aborted"
    }
    handler.complete(state, endedEarly: ended)
}

let connectionNotifyCallback: MHD_NotifyConnectionCallback = { cls, connection, socketContext, event in
    guard let cls, let socketContext else { return }
    let handler = Unmanaged<RequestHandler>.fromOpaque(cls).takeUnretainedValue()
    switch event {
    case .CONNECTION_NOTIFY_STARTED:
        guard let connection else { return }
        let record = ConnectionRecord(fd: cmhd_connection_fd(connection))
        handler.connections.opened(record)
        socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
    case .CONNECTION_NOTIFY_CLOSED:
        guard let raw = socketContext.pointee else { return }
        socketContext.pointee = nil
        let record = Unmanaged<ConnectionRecord>.fromOpaque(raw).takeRetainedValue()
        handler.connections.closed(record)
    default:
        break
    }
}

/// libmicrohttpd's own messages. It answers some requests itself, before any callback of
/// ours (malformed Content-Length, oversized request target or headers, unsupported HTTP
/// versions); this message is the only trace of them, so they are logged and counted from it.
let libraryLogCallback: MHD_LogCallback = { cls, format, arguments in
    guard let cls, let format, let arguments else { return }
    let handler = Unmanaged<RequestHandler>.fromOpaque(cls).takeUnretainedValue()
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    // vsnprintf always terminates the buffer; the message is the bytes before that.
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    handler.libraryMessage(String(decoding: bytes, as: UTF8.self))
}
