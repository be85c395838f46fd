import Foundation
import NIOCore
import NIOSSL
import Testing
@testable import PhotoCore
@testable import FlickrService
@testable import Networking
import Platform

/// `userMessage(for:)`: one plain sentence for every kind of error, naming
/// the host or file involved and never a key.
@Suite struct UserMessageTests {
    @Test(arguments: [
        (100, "Invalid API Key (Key has invalid format)", "Check FLICKR_API_KEY"),
        (105, "Service currently unavailable", "Try again in a few minutes"),
        (116, "Bad URL found", "bad URL"),
        (3, "Parameterless searches have been disabled.", "Type some words"),
        (10, "Sorry, the Flickr search API is not currently available.", "search is unavailable"),
        (111, "Format \"xml2\" not found", "response format"),
        (112, "Method \"flickr.photos.nope\" not found", "does not know the method"),
    ])
    func flickrCodesGetTheirOwnSentence(_ code: Int, _ message: String, _ phrase: String) {
        let text = userMessage(for: FlickrError.api(code: code, message: message))
        #expect(text.contains(phrase), "\(text)")
        #expect(text.contains("code \(code)"))
        #expect(text.hasSuffix("."))
    }

    @Test func otherCodesSayTheCodeAndFlickrsMessage() {
        #expect(userMessage(for: FlickrError.api(code: 18, message: "Illogical arguments")) == "Flickr error 18: Illogical arguments")
    }

    @Test func theKeyIsRedactedFromAnyMessage() {
        let key = "0123456789abcdef0123456789abcdef"
        let error = FlickrError.api(code: 17, message: "Key \(key) is odd").redacting(SecretRedactor(key))
        #expect(!userMessage(for: error).contains(key))
        struct Unknown: Error, CustomStringConvertible { var description: String }
        let text = userMessage(for: Unknown(description: "GET ?api_key=\(key)"), redacting: SecretRedactor(key))
        #expect(!text.contains(key))
        #expect(text.hasPrefix("Something went wrong: "))
    }

    @Test func networkErrorsNameTheHost() {
        #expect(userMessage(for: NetworkError.connectionRefused(host: "127.0.0.1:9")) == "Connection refused by 127.0.0.1:9. Is the server running?")
        #expect(userMessage(for: NetworkError.retryLater(status: 429, after: .seconds(30), host: "api.flickr.com"))
                == "api.flickr.com is busy (HTTP 429, too many requests); try again in 30 seconds.")
        #expect(userMessage(for: NetworkError.stalled(host: "live.staticflickr.com")).hasPrefix("live.staticflickr.com went quiet"))
        #expect(userMessage(for: FlickrError.network(.timedOut(host: "api.flickr.com"))) == "api.flickr.com did not answer in time.")
    }

    @Test func cancellationIsShort() {
        #expect(userMessage(for: CancellationError()) == "Cancelled.")
        #expect(userMessage(for: NetworkError.cancelled) == "Cancelled.")
    }

    /// A TLS client meeting a plain-HTTP server fails its handshake: a real
    /// TLS failure, named with the host.
    @Test func tlsFailuresNameTheHost() async throws {
        try await LoopbackHTTPServer.with({ _ in .text("plain") }) { server in
            let network = NetworkManager()
            let url = try #require(URL(string: "https://127.0.0.1:\(server.port)/"))
            let outcome: NetworkError?
            do throws(NetworkError) {
                _ = try await network.get(url)
                outcome = nil
            } catch {
                outcome = error
            }
            await network.shutdown()
            let error = try #require(outcome)
            let text = userMessage(for: error)
            #expect(text.contains("127.0.0.1:\(server.port)"), "\(text)")
            #expect(text == "Could not make a secure connection to 127.0.0.1:\(server.port): it does not speak TLS on that port (is it an http:// address?).")
            #expect(!error.isTransient)
        }
    }

    @Test func missingFilesNameThePath() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flickr-missing-\(UUID().uuidString)/session.json")
        let error = try #require(throws: (any Error).self) { try Data(contentsOf: path) }
        #expect(userMessage(for: error) == "“\(path.path)” does not exist.")
    }

    @Test func fileErrorsByCodeNameThePathAndWhatToDo() {
        let path = "/home/u/.local/state/flickr/session.json"
        let cases: [(CocoaError.Code, String)] = [
            (.fileReadNoPermission, "No permission to read “\(path)”. Check its owner and mode."),
            (.fileWriteNoPermission, "No permission to write “\(path)”. Check the folder's owner and mode."),
            (.fileWriteOutOfSpace, "The disk holding “\(path)” is full. Free some space and try again."),
            (.fileReadCorruptFile, "“\(path)” could not be read: its contents are damaged or not in the expected format."),
        ]
        for (code, sentence) in cases {
            #expect(userMessage(for: CocoaError(code, userInfo: [NSFilePathErrorKey: path])) == sentence)
        }
    }

    @Test func failedAtomicWritesNameTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flickr-absent-\(UUID().uuidString)")
        let target = directory.appendingPathComponent("session.json")
        let error = try #require(throws: AtomicFileError.self) { try AtomicFile.write(Data("{}".utf8), to: target) }
        #expect(userMessage(for: error) == "Could not save \(target.path): no such file or folder.")
    }

    @Test func posixErrorsSayWhatTheSystemRefused() {
        #expect(userMessage(for: POSIXError(.ENOSPC)) == "The system refused: the disk is full.")
        #expect(userMessage(for: IOError(errnoCode: EACCES, reason: "open")) == "The system refused: permission denied.")
    }

    /// Foundation on Linux hands out NSErrors of the POSIX domain, and
    /// wraps the system's error inside a Cocoa one: both name the file and
    /// the system's reason, never "error 13".
    @Test func posixDomainErrorsNameTheFileAndTheReason() {
        let path = "/home/u/.cache/flickr/images/ab"
        #expect(userMessage(for: NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES), userInfo: [NSFilePathErrorKey: path]))
                == "“\(path)”: permission denied.")
        let byURL = NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC), userInfo: [NSURLErrorKey: URL(fileURLWithPath: path)])
        #expect(userMessage(for: byURL) == "“\(path)”: the disk is full.")
        let wrapped = CocoaError(.fileWriteUnknown, userInfo: [
            NSFilePathErrorKey: path, NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EROFS)),
        ])
        #expect(userMessage(for: wrapped) == "“\(path)”: the disk is read-only.")
    }

    @Test func unknownFileErrorsSayWhetherReadingOrWritingFailed() {
        let path = "/srv/photos/1.jpg"
        #expect(userMessage(for: CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path]))
                == "“\(path)” could not be read (Foundation error 256).")
        #expect(userMessage(for: CocoaError(.fileWriteUnknown, userInfo: [NSURLErrorKey: URL(fileURLWithPath: path)]))
                == "“\(path)” could not be written (Foundation error 512).")
    }

    @Test func realFolderErrorsNameThePath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flickr-msg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let blocked = file.appendingPathComponent("sub")
        let error = try #require(throws: (any Error).self) {
            try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
        }
        #expect(userMessage(for: error) == "“\(blocked.path)”: a part of the path is not a folder.")
        let folderRead = try #require(throws: (any Error).self) { try Data(contentsOf: directory) }
        #expect(userMessage(for: folderRead) == "“\(directory.path)”: it is a folder.")
    }

    /// A TLS error met outside `NetworkManager` has no host to name, but is
    /// still a sentence: no type names or enum cases.
    @Test func rawTLSErrorsAreSentences() {
        let errors: [any Error] = [
            NIOSSLError.handshakeFailed(.sslError([])), NIOSSLError.unableToValidateCertificate,
            NIOSSLExtraError.failedToValidateHostname,
        ]
        for error in errors {
            let text = userMessage(for: error)
            #expect(text.hasPrefix("A secure connection failed: "), "\(text)")
            #expect(!text.contains("(") && !text.contains("NIOSSL") && !text.contains("sslError"), "\(text)")
        }
        #expect(userMessage(for: NIOSSLExtraError.failedToValidateHostname).contains("the certificate is for another host name"))
    }

    // MARK: - Keys

    @Test func anEmptyKeyOptionIsAnErrorThatSaysSo() {
        #expect(throws: FlickrError.invalidRequest("--api-key is empty. Pass your Flickr API key, or leave --api-key out to use the embedded sandbox.")) {
            try FlickrProvider.apiKey(option: "", environment: ["FLICKR_API_KEY": "abc"])
        }
        #expect(throws: FlickrError.self) { try FlickrProvider.apiKey(option: "  \n", environment: [:]) }
    }

    @Test func anEmptyKeyVariableIsAnErrorThatSaysSo() throws {
        let error = try #require(throws: FlickrError.self) { try FlickrProvider.apiKey(option: nil, environment: ["FLICKR_API_KEY": ""]) }
        #expect(userMessage(for: error) == "FLICKR_API_KEY is empty. Set it to your Flickr API key, or unset it to use the embedded sandbox.")
    }

    @Test func keysAreTakenTrimmedAndTheOptionWins() throws {
        #expect(try FlickrProvider.apiKey(option: nil, environment: [:]) == nil)
        #expect(try FlickrProvider.apiKey(option: nil, environment: ["FLICKR_API_KEY": " abc123\n"]) == "abc123")
        #expect(try FlickrProvider.apiKey(option: "fromflag", environment: ["FLICKR_API_KEY": "fromenv"]) == "fromflag")
        #expect(throws: FlickrError.self) { try FlickrProvider.apiKey(option: "ab\u{7}c", environment: [:]) }
    }
}
