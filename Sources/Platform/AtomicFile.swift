import Foundation

/// Replaces a file in one step: the bytes go to a temporary file beside the
/// target, which is then renamed over it, so a reader (or the next run, after
/// a crash or `kill -9`) finds the old file or the new one, never a part.
///
/// Written with POSIX calls rather than `Data.write(to:)`, which on Linux
/// calls `fsync` for every file: that was a sixth of the CPU of a warm
/// 300-thumbnail download, and a thumbnail does not need it (the disk cache checksums its entries and a
/// download can be fetched again). Pass `durable: true` for the few files
/// worth a sync, such as the saved session.
public enum AtomicFile {
    /// Writes `data` to `target` atomically. The temporary file is named
    /// `{temporaryPrefix}{target name}.{pid}.{random}.part`, in the target's
    /// folder, so whoever owns the folder can recognise and sweep leftovers.
    ///
    /// - Parameter permissions: the new file's mode before the umask; the
    ///   default keeps it private to the user.
    public static func write(
        _ data: Data, to target: URL, temporaryPrefix: String = ".", permissions: mode_t = 0o600,
        durable: Bool = false
    ) throws(AtomicFileError) {
        // Paths as strings: URL's path accessors cost microseconds each, and a
        // download writes hundreds of files.
        let targetPath = target.path
        let nameStart = targetPath.lastIndex(of: "/").map(targetPath.index(after:)) ?? targetPath.startIndex
        let temporaryPath = "\(targetPath[..<nameStart])\(temporaryPrefix)\(targetPath[nameStart...])"
            + ".\(getpid()).\(UInt32.random(in: .min ... .max)).part"
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw AtomicFileError(target: target, errno: errno) }
        var failure = writeAll(data, to: descriptor)
        if failure == nil, durable, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if let failure {
            unlink(temporaryPath)
            throw AtomicFileError(target: target, errno: failure)
        }
        guard rename(temporaryPath, targetPath) == 0 else {
            let failure = AtomicFileError(target: target, errno: errno)
            unlink(temporaryPath)
            throw failure
        }
    }

    /// Writes every byte, retrying short writes; the `errno` of a failure.
    private static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = Platform.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }
}

/// Why an atomic write failed, in words: "cannot write session.json: No space left on device".
public struct AtomicFileError: Error, CustomStringConvertible, LocalizedError {
    /// The file that was being replaced.
    public let target: URL
    /// The system's error number.
    public let code: Int32

    init(target: URL, errno code: Int32) {
        self.target = target
        self.code = code
    }

    public var description: String {
        "cannot write \(target.lastPathComponent): \(String(cString: strerror(code)))"
    }

    public var errorDescription: String? { description }
}
