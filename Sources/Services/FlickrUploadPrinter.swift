import Foundation
import NIOConcurrencyHelpers
import PhotoCore
import Platform

/// What became of one file of `flickr upload`.
public struct FlickrUploadOutcome: Sendable, Equatable {
    public enum Result: Sendable, Equatable {
        case uploaded(id: String, url: String)
        case alreadyUploaded(id: String, url: String)
        case skipped(String)
        case failed(String)
    }

    /// The path as found (named, or inside a named folder).
    public var file: String
    public var result: Result
    /// What went wrong after an upload succeeded (the licence or album).
    public var problem: String?
    /// A photo uploaded before that this run put in the album (its title).
    public var addedToAlbum: String?
    /// A photo uploaded before whose licence this run changed: Flickr's id of the new one.
    public var licenseSet: Int?

    /// Whether the run's exit status must say something failed.
    public var failed: Bool {
        if case .failed = result { return true }
        return problem != nil
    }
}

/// Counts of a run, for its last line.
public struct FlickrUploadTally: Sendable, Equatable {
    public var uploaded = 0
    public var alreadyUploaded = 0
    public var skipped = 0
    public var failed = 0
    /// Photos uploaded before that this run put in the album, and its title.
    public var addedToAlbum = 0
    public var album: String?
    /// Photos uploaded before whose licence this run changed.
    public var licenseSet = 0

    mutating func add(_ outcome: FlickrUploadOutcome) {
        if let title = outcome.addedToAlbum {
            addedToAlbum += 1
            album = title
        }
        if outcome.licenseSet != nil { licenseSet += 1 }
        switch outcome.result {
        case .uploaded: uploaded += 1
        case .alreadyUploaded: alreadyUploaded += 1
        case .skipped: skipped += 1
        case .failed: break
        }
        if outcome.failed { failed += 1 }
    }

    /// "Uploaded 2; 3 already uploaded; added 3 to the album “Walks”; set the
    /// licence of 1; skipped 1 (not images or folders inside); 1 failed."
    public var summary: String {
        var parts = ["Uploaded \(uploaded)"]
        if alreadyUploaded > 0 { parts.append("\(alreadyUploaded) already uploaded") }
        if addedToAlbum > 0, let album { parts.append("added \(addedToAlbum) to the album “\(album)”") }
        if licenseSet > 0 { parts.append("set the licence of \(licenseSet)") }
        if skipped > 0 { parts.append("skipped \(skipped) (not images, or folders inside folders)") }
        if failed > 0 { parts.append("\(failed) failed") }
        return parts.joined(separator: "; ") + "."
    }
}

/// Prints `flickr upload`'s lines: one per file on standard output (text,
/// or with `--json` one JSON object), and at a terminal a progress line on
/// standard error, redrawn in place while the file goes out (bytes sent of
/// the total, and the rate) and cleared before the file's final line.
///
/// Every file name comes from the disk and may hold anything: it is passed
/// through `sanitize` before a terminal sees it (JSON escapes its own).
public final class FlickrUploadPrinter: Sendable {
    private let json: Bool
    private let showsProgress: Bool
    private let sanitize: @Sendable (String) -> String
    private let write: @Sendable (_ text: String, _ toError: Bool) -> Void
    private let drawn = NIOLockedValueBox(Drawn())

    private struct Drawn {
        var started: ContinuousClock.Instant?
        var lastDraw: ContinuousClock.Instant?
        var shown = false
    }

    /// - Parameters:
    ///   - showsProgress: draw the progress line (standard error is a terminal).
    ///   - write: where lines go (tests capture them); standard output, or
    ///     standard error when `toError`.
    public init(
        json: Bool, showsProgress: Bool, sanitize: @escaping @Sendable (String) -> String,
        write: @escaping @Sendable (_ text: String, _ toError: Bool) -> Void = FlickrUploadPrinter.standardStreams
    ) {
        self.json = json
        self.showsProgress = showsProgress
        self.sanitize = sanitize
        self.write = write
    }

    @Sendable public static func standardStreams(_ text: String, toError: Bool) {
        _ = Platform.writeAll(text.utf8, to: toError ? Platform.standardError : Platform.standardOutput)
    }

    /// A file starts going out.
    func started(_ file: String, length: Int) {
        drawn.withLockedValue { $0 = Drawn(started: .now) }
        progress(file, sent: 0, total: length)
    }

    /// `name: 1.2 MB of 4.0 MB · 3.1 MB/s`, at most ten times a second (and always the first and last).
    func progress(_ file: String, sent: Int, total: Int) {
        guard showsProgress else { return }
        drawn.withLockedValue { drawn in
            let now = ContinuousClock.now
            if let last = drawn.lastDraw, now - last < .milliseconds(100), sent < total { return }
            drawn.lastDraw = now
            drawn.shown = true
            let elapsed = drawn.started.map { now - $0 } ?? .zero
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let rate = seconds > 0.05 && sent > 0 ? " · \(ByteCount.format(Int(Double(sent) / seconds)))/s" : ""
            write("\r\u{1B}[K\(Self.name(file, sanitize)): \(ByteCount.format(sent)) of \(ByteCount.format(total))\(rate)", true)
        }
    }

    /// The file's final line, in place of its progress line.
    func finished(_ outcome: FlickrUploadOutcome) {
        clearProgress()
        if json {
            write(Self.jsonLine(outcome) + "\n", false)
            return
        }
        // Skipped files are counted in the summary, not listed: a folder of sidecars would bury the photos.
        if case .skipped = outcome.result { return }
        write(Self.line(outcome, sanitize) + "\n", false)
    }

    /// The run's last line (standard error under `--json`, so standard output stays JSON).
    func summary(_ tally: FlickrUploadTally) {
        clearProgress()
        // An album's title may come from the server.
        write(sanitize(tally.summary) + "\n", json)
    }

    private func clearProgress() {
        drawn.withLockedValue { drawn in
            if drawn.shown { write("\r\u{1B}[K", true) }
            drawn.shown = false
        }
    }

    /// The file's name for a terminal: its last component, made safe.
    static func name(_ file: String, _ sanitize: (String) -> String) -> String {
        sanitize((file as NSString).lastPathComponent)
    }

    static func line(_ outcome: FlickrUploadOutcome, _ sanitize: (String) -> String) -> String {
        let file = sanitize(outcome.file)
        let problem = outcome.problem.map { " But: " + sanitize($0) } ?? ""
        switch outcome.result {
        case .uploaded(let id, let url): return "\(file): uploaded as \(id), \(url)" + problem
        case .alreadyUploaded(let id, let url):
            let album = outcome.addedToAlbum.map { "; added to the album “\(sanitize($0))”" } ?? ""
            return "\(file): already uploaded as \(id), \(url)" + album + (outcome.licenseSet != nil ? "; licence set" : "") + problem
        case .skipped(let reason): return "\(file): skipped, \(reason)"
        case .failed(let reason): return "\(file): failed. " + sanitize(reason)
        }
    }

    /// `{"file","id","url"}`, `{"file","skipped"}` (with `id` and `url` when
    /// already uploaded, and `album` and `license` when this run put it in the
    /// album or changed its licence), `{"file","error"}`; an upload whose
    /// licence or album failed has both its id and the error.
    static func jsonLine(_ outcome: FlickrUploadOutcome) -> String {
        struct Line: Encodable {
            var file: String
            var id: String?
            var url: String?
            var skipped: String?
            var album: String?
            var license: Int?
            var error: String?
        }
        var line = Line(file: outcome.file, album: outcome.addedToAlbum, license: outcome.licenseSet,
                        error: outcome.problem)
        switch outcome.result {
        case .uploaded(let id, let url): (line.id, line.url) = (id, url)
        case .alreadyUploaded(let id, let url): (line.id, line.url, line.skipped) = (id, url, "already uploaded")
        case .skipped(let reason): line.skipped = reason
        case .failed(let reason): line.error = reason
        }
        return ScriptJSON.line(line)
    }
}
