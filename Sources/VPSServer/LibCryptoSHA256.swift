import CCrypto
import Foundation

/// SHA-256 from OpenSSL's libcrypto (the EVP digest API): token hashes in the token store
/// and the content version of map files.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash<C: Collection<UInt8>>(_ bytes: C) -> [UInt8] {
        var digest = Digest()
        digest.update(bytes)
        return digest.finalize()
    }

    /// The digest of a file's content, read in 1 MiB pieces so a large map file is never
    /// held in memory twice.
    public static func hash(fileAt path: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        var digest = Digest()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { digest.update(chunk) }
        return digest.finalize()
    }

    /// Lowercase hexadecimal of a digest.
    public static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(digest.count * 2)
        for b in digest { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// An incremental digest: feed input with `update`, read the result once with `finalize`.
    /// Non-copyable because it owns an OpenSSL context.
    public struct Digest: ~Copyable {
        private let context: OpaquePointer

        /// SHA-256 fetched from the default provider once. `EVP_sha256()` makes OpenSSL 3
        /// fetch it again on every init (a provider lookup under a lock), and every request
        /// hashes its token.
        /// An `EVP_MD` is immutable and shared by any number of threads.
        private nonisolated(unsafe) static let sha256: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

        public init() {
            // Allocation failure of a few hundred bytes is not recoverable here.
            guard let md = Self.sha256, let c = EVP_MD_CTX_new(), EVP_DigestInit_ex(c, md, nil) == 1 else {
                fatalError("libcrypto cannot set up SHA-256")
            }
            context = c
        }

        /// Feeds more input.
        public mutating func update<C: Collection<UInt8>>(_ bytes: C) {
            let fed = bytes.withContiguousStorageIfAvailable { buffer in
                EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
            } ?? Array(bytes).withUnsafeBufferPointer { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
            precondition(fed == 1, "EVP_DigestUpdate failed")
        }

        /// Feeds the bytes of `data`.
        public mutating func update(_ data: Data) {
            let fed = data.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
            precondition(fed == 1, "EVP_DigestUpdate failed")
        }

        /// The 32-byte digest of everything fed.
        public consuming func finalize() -> [UInt8] {
            var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            precondition(EVP_DigestFinal_ex(context, &out, &length) == 1, "EVP_DigestFinal_ex failed")
            return Array(out.prefix(Int(length)))
        }

        deinit { EVP_MD_CTX_free(context) }
    }
}

/// Compares two byte strings in time that depends only on their lengths, not on where
/// they first differ (libcrypto's `CRYPTO_memcmp`).
public func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    if a.isEmpty { return true }
    return a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in CRYPTO_memcmp(pa.baseAddress, pb.baseAddress, a.count) == 0 } }
}
