import Foundation
import Networking
import NIOCore
import Platform

/// One sentence a person can act on, for any error the app can meet: what
/// failed, naming the host or file, and what to do. View models show only
/// this, so no raw type names or URLs reach the screen.
///
/// - Parameter redactor: secrets to remove from any text the error carries
///   (providers already redact their own errors; this covers the rest).
public func userMessage(for error: any Error, redacting redactor: SecretRedactor? = nil) -> String {
    let message = rawUserMessage(for: error)
    return redactor?.redact(message) ?? message
}

private func rawUserMessage(for error: any Error) -> String {
    switch error {
    case let error as any WordedError:
        return error.description
    case let error as NetworkError:
        return error.description
    case is CancellationError:
        return NetworkError.cancelled.description
    case let error as AtomicFileError:
        return "Could not save \(error.target.path): \(posixReason(error.code))."
    case let error as IOError:
        return "The system refused: \(posixReason(error.errnoCode))."
    default:
        // TLS's failures are worded beside the only module that speaks TLS.
        if let sentence = TLSWording.sentence(for: error) { return sentence }
    }
    // Foundation's errors, by domain: on Linux any NSError casts to
    // CocoaError, whatever its domain, so the domain decides.
    let nsError = error as NSError
    if nsError.domain == NSPOSIXErrorDomain {
        let reason = posixReason(Int32(truncatingIfNeeded: nsError.code))
        return filePath(nsError).map { "“\($0)”: \(reason)." } ?? "The system refused: \(reason)."
    }
    if nsError.domain == NSCocoaErrorDomain, let error = error as? CocoaError {
        return fileMessage(error, nsError)
    }
    if let error = error as? any LocalizedError {
        return ResponseExcerpt.make(error.errorDescription ?? String(describing: error), limit: 300)
    }
    return "Something went wrong: \(ResponseExcerpt.make(String(describing: error), limit: 300))"
}

/// The file an error is about, from Foundation's user info.
private func filePath(_ error: NSError) -> String? {
    if let path = error.userInfo[NSFilePathErrorKey] as? String { return path }
    return (error.userInfo[NSURLErrorKey] as? URL)?.path
}

/// Foundation's file errors, naming the file and the likely fix.
private func fileMessage(_ error: CocoaError, _ nsError: NSError) -> String {
    let path = filePath(nsError)
    let file = path.map { "“\($0)”" } ?? "the file"
    switch error.code {
    case .fileReadNoSuchFile, .fileNoSuchFile:
        return "\(file) does not exist."
    case .fileReadNoPermission:
        return "No permission to read \(file). Check its owner and mode."
    case .fileWriteNoPermission:
        return "No permission to write \(file). Check the folder's owner and mode."
    case .fileWriteOutOfSpace:
        return "The disk holding \(file) is full. Free some space and try again."
    case .fileWriteVolumeReadOnly:
        return "\(file) is on a read-only disk."
    case .fileWriteFileExists:
        return "\(file) already exists."
    case .fileReadCorruptFile, .fileReadInapplicableStringEncoding:
        return "\(file) could not be read: its contents are damaged or not in the expected format."
    case .fileReadTooLarge:
        return "\(file) is too large to read."
    case .fileWriteInvalidFileName:
        return "\(file) is not a valid file name."
    case .fileLocking:
        return "\(file) is locked by another program."
    default:
        // Foundation on Linux wraps the system's error.
        if let underlying = error.underlying as? POSIXError {
            return "\(file): \(posixReason(underlying.code.rawValue))."
        }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return "\(file): \(posixReason(Int32(truncatingIfNeeded: underlying.code)))."
        }
        // Codes from 512 up are write errors, below are read errors.
        let verb = error.code.rawValue >= CocoaError.Code.fileWriteUnknown.rawValue ? "written" : "read"
        return "\(file) could not be \(verb) (Foundation error \(error.code.rawValue))."
    }
}

/// The system's reason in lower case ("no space left on device").
private func posixReason(_ code: Int32) -> String {
    switch code {
    case ENOENT: return "no such file or folder"
    case EACCES, EPERM: return "permission denied"
    case ENOSPC: return "the disk is full"
    case EROFS: return "the disk is read-only"
    case EDQUOT: return "the disk quota is used up"
    case ENOTDIR: return "a part of the path is not a folder"
    case EISDIR: return "it is a folder"
    case ENAMETOOLONG: return "the name is too long"
    default:
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
