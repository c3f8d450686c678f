import Foundation
import VPSModel
import VPSClient
import Support

/// One load-generating client of `POST /v1/localize`: a kept-alive connection and the
/// frames' whole HTTP requests, built once, so that sending a frame costs the client one
/// `send` and reading the answer a few `recv` calls and a byte search. A benchmark whose
/// client shares the machine with the server then measures the server, not the client.
///
/// Use it from one thread at a time (it is a blocking socket). `VPSLoadGenerator` runs
/// several, each on its own thread.
public final class VPSLoadConnection: @unchecked Sendable {   // one thread at a time, by contract
    /// What one request came to.
    public struct Outcome: Sendable {
        /// The HTTP status, 0 when no answer arrived.
        public var status: Int
        /// A 200 whose answer says `"status":"localized"`.
        public var localized: Bool
        /// Why the request failed (no answer, or a status other than 200), else nil.
        public var failure: String?
    }

    private let connection: KeepAliveHTTPConnection
    private let requests: [[UInt8]]

    /// Connects to `baseURL` (`http://host:port`) and prepares one request per frame.
    public init(baseURL: String, token: String, frames: [VPSLoadGenerator.Frame],
                timeout: Duration = .seconds(120)) throws(VPSClientError) {
        let target: (host: String, port: UInt16)
        do { target = try KeepAliveHTTPConnection.hostAndPort(of: baseURL) } catch {
            throw .invalidRequest(error.description)
        }
        var prepared: [[UInt8]] = []
        for f in frames {
            do { prepared.append(try Self.localizeRequest(f, host: target.host, port: target.port, token: token)) } catch {
                throw .invalidRequest("cannot encode the request: \(error)")
            }
        }
        requests = prepared
        do {
            connection = try KeepAliveHTTPConnection(host: target.host, port: target.port,
                                                     timeoutSeconds: max(1, Int(timeout.seconds)))
        } catch {
            throw .transport(.init(kind: .connectionRefused, curlCode: -1, message: error.description))
        }
    }

    /// Frames prepared (the valid `frame` indices of `localize(frame:)`).
    public var frameCount: Int { requests.count }

    /// Sends frame `frame`'s request and waits for its answer.
    public func localize(frame: Int) -> Outcome {
        do {
            let answer = try connection.exchange(requests[frame])
            guard answer.status == 200 else {
                return Outcome(status: answer.status, localized: false,
                               failure: "HTTP \(answer.status): \(String(decoding: answer.body.prefix(200), as: UTF8.self))")
            }
            let localized = KeepAliveHTTPConnection.find(Self.localizedMarker, in: answer.body, from: answer.body.startIndex) != nil
            return Outcome(status: 200, localized: localized, failure: nil)
        } catch {
            return Outcome(status: 0, localized: false, failure: error.description)
        }
    }

    /// The server encodes answers with sorted keys and no spaces.
    private static let localizedMarker = Array(#""status":"localized""#.utf8)

    /// The whole `POST /v1/localize` request of one frame: the same multipart form as
    /// `VPSClient.localize`.
    static func localizeRequest(_ frame: VPSLoadGenerator.Frame, host: String, port: UInt16,
                                token: String) throws -> [UInt8] {
        let json = try JSONEncoder().encode(frame.request)
        let format = ImageHeader.sniffFormat(frame.image)
        let boundary = "arcloud-load-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        var body: [UInt8] = []
        body.reserveCapacity(frame.image.count + json.count + 512)
        body += Array(("--\(boundary)\r\nContent-Disposition: form-data; name=\"request\"\r\n"
                       + "Content-Type: application/json\r\n\r\n").utf8)
        body += json
        body += Array(("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; "
                       + "filename=\"frame.\(format?.rawValue ?? "bin")\"\r\n"
                       + "Content-Type: \(format?.mimeType ?? "application/octet-stream")\r\n\r\n").utf8)
        body += frame.image
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let head = "POST /v1/localize HTTP/1.1\r\nHost: \(hostHeader)\r\nAuthorization: Bearer \(token)\r\n"
            + "Accept: application/json\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\n"
            + "Content-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }
}
