import ArgumentParser
import Dispatch
import FlickrKit
import Foundation
import ImagePipeline
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `flickr download`: fetches the images of a search's pages through the
/// image pipeline (priorities, retries, disk cache) into a folder.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download the images of a search to a folder.",
        discussion: """
            Files are named {id}_{secret}_{suffix}.jpg; files already in the folder are skipped. \
            Every body is checked to be a whole JPEG, PNG or GIF; anything else counts as failed \
            and the exit status is 1. The next page is requested while the current page's images \
            download. Images go through the disk cache under $XDG_CACHE_HOME/flickr, so a second \
            run needs no image requests. Ctrl-C cancels all transfers, prints the summary and \
            exits with status 130. Flickr serves only the first 4,000 results of a query: \
            download stops at that page and says so.
            """)

    @Argument(help: "Words that must all match; -word excludes.")
    var query: [String]

    @Option(help: "How many pages of results to download.")
    var pages: Int = 1

    @Option(help: ArgumentHelp(
        "Image size: sq, q, t, s, n, w, m, z, c or l (or the URL suffix: s, q, t, m, n, w, z, c, b).",
        valueName: "size"))
    var size: String = "q"

    @Option(help: ArgumentHelp("Folder to write the images to (created if needed).", valueName: "dir"))
    var out: String

    @Option(help: "Transfers at once, 1–32.")
    var concurrency: Int = 6

    @OptionGroup var provider: ProviderOptions

    func validate() throws {
        guard !query.joined().trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("Give some words to search for.")
        }
        guard pages >= 1 else { throw ValidationError("--pages must be 1 or more (got \(pages)).") }
        guard (1...32).contains(concurrency) else {
            throw ValidationError("--concurrency must be between 1 and 32 (got \(concurrency)).")
        }
        guard PhotoSize(argument: size) != nil else {
            throw ValidationError("Unknown --size \"\(size)\". Use sq, q, t, s, n, w, m, z, c or l.")
        }
    }

    func run() async throws {
        guard let photoSize = PhotoSize(argument: size) else { throw ValidationError("Unknown --size \"\(size)\".") }
        let folder = URL(fileURLWithPath: out, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(message: "Cannot create \(out): \(error.localizedDescription)")
        }

        let interrupts = InterruptWatcher()
        let connection = try await provider.connect()
        var configuration = ImagePipelineConfiguration()
        configuration.maxConcurrentDownloads = concurrency
        configuration.diskCacheDirectory = AppPaths().imageCacheDirectory
        let pipeline = ImageDownloadManager(fetcher: connection.network, configuration: configuration)
        let progress = DownloadProgress(showsBar: Self.stderrIsTerminal())
        let job = DownloadJob(
            query: query.joined(separator: " "), pages: pages, perPage: provider.perPage, size: photoSize,
            folder: folder, provider: connection.provider, pipeline: pipeline, progress: progress,
            concurrency: concurrency)

        interrupts.start {
            job.cancel()
        }
        let outcome = await job.run()
        interrupts.stop()
        await pipeline.waitForPendingWrites()
        await connection.close()

        progress.finish()
        let summary = progress.summary()
        print(summary.line)
        for note in outcome.notes { print(note) }
        if outcome.cancelled {
            print("Cancelled.")
            throw ExitCode(130)
        }
        if let error = outcome.error {
            throw CommandFailure(message: error)
        }
        if summary.failed > 0 { throw ExitCode(1) }
    }

    private static func stderrIsTerminal() -> Bool {
        isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }
}

/// What happened besides the counted files: notes for the person, a page
/// that could not be fetched, or an interruption.
private struct DownloadOutcome {
    var notes: [String] = []
    var error: String?
    var cancelled = false
}

/// Fetches pages one ahead of the images being downloaded and feeds each
/// page's images to the pipeline, keeping every transfer slot busy across
/// page boundaries.
private final class DownloadJob: Sendable {
    let query: String
    let pages: Int
    let perPage: Int
    let size: PhotoSize
    let folder: URL
    let provider: FlickrProvider
    let pipeline: ImageDownloadManager
    let progress: DownloadProgress
    let concurrency: Int
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let cancelled = Mutex(false)
    private let pageTasks = Mutex<[Int: Task<PhotoPage, any Error>]>([:])

    init(
        query: String, pages: Int, perPage: Int, size: PhotoSize, folder: URL, provider: FlickrProvider,
        pipeline: ImageDownloadManager, progress: DownloadProgress, concurrency: Int
    ) {
        self.query = query
        self.pages = pages
        self.perPage = perPage
        self.size = size
        self.folder = folder
        self.provider = provider
        self.pipeline = pipeline
        self.progress = progress
        self.concurrency = concurrency
        (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Stops everything: the page request and every transfer. Safe from any thread.
    func cancel() {
        cancelled.withLock { $0 = true }
        dropPages(after: 0)
        pipeline.cancelAll()
        wake.yield()
    }

    func run() async -> DownloadOutcome {
        var outcome = DownloadOutcome()
        var wakeIterator = wakeups.makeAsyncIterator()
        // Before page 1 answers, the provider's cap is the only bound we know.
        var lastPage = provider.maxResults.map { min(pages, max(1, ($0 + perPage - 1) / perPage)) } ?? pages
        requestPages(1...min(lastPage, Self.pagesAhead))
        var number = 1
        while number <= lastPage, !isCancelled, let current = pageRequest(number) {
            let page: PhotoPage
            do {
                page = try await current.value
                finishPage(number)
            } catch {
                if !isCancelled { outcome.error = "Page \(number) could not be fetched: \(error)" }
                break
            }
            if number == 1, page.total == 0 || page.photos.isEmpty {
                outcome.notes.append("No photos match \"\(query)\".")
                break
            }
            if number == 1 {
                let served = provider.lastServedPage(pages: page.pages, perPage: perPage)
                if served < pages {
                    lastPage = max(1, served)
                    outcome.notes.append(served < page.pages
                        ? "Stopped at page \(lastPage): \(provider.displayName) serves only the first \(provider.maxResults ?? page.total) results of a query."
                        : "Stopped at page \(lastPage), the last page (\(page.total) results).")
                }
                dropPages(after: lastPage)
            }
            if page.photos.isEmpty { break }
            // Keep the next pages coming while this page's images download.
            if number < lastPage { requestPages((number + 1)...min(lastPage, number + Self.pagesAhead)) }
            progress.addPage(number, of: lastPage, photos: page.photos.count)

            // Queue this page's images once the previous page's queue has drained
            // into the running slots: no slot idles at the page boundary, and only
            // a few pages of requests are alive at once.
            while progress.outstanding > concurrency, !isCancelled {
                _ = await wakeIterator.next()
            }
            if isCancelled { break }
            for photo in page.photos {
                download(photo)
            }
            number += 1
        }
        dropPages(after: 0)
        while progress.outstanding > 0, !isCancelled {
            _ = await wakeIterator.next()
        }
        outcome.cancelled = isCancelled
        return outcome
    }

    /// Page requests in flight at once, counting the one being consumed; they
    /// overlap each other and the image transfers.
    private static let pagesAhead = 3

    private func requestPages(_ numbers: ClosedRange<Int>) {
        pageTasks.withLock { tasks in
            for number in numbers where tasks[number] == nil {
                tasks[number] = Task { [provider, query, perPage] in
                    try await provider.search(query, page: number, perPage: perPage)
                }
            }
        }
    }

    /// The request for page `number`; it stays cancellable until `finishPage`.
    private func pageRequest(_ number: Int) -> Task<PhotoPage, any Error>? {
        pageTasks.withLock { $0[number] }
    }

    private func finishPage(_ number: Int) {
        _ = pageTasks.withLock { $0.removeValue(forKey: number) }
    }

    /// Cancels requests for pages past `last`.
    private func dropPages(after last: Int) {
        let dropped = pageTasks.withLock { tasks in
            let extra = tasks.filter { $0.key > last }
            for number in extra.keys { tasks[number] = nil }
            return Array(extra.values)
        }
        for task in dropped { task.cancel() }
    }

    private func download(_ photo: Photo) {
        let name = Self.fileName(for: photo, size: size)
        let target = folder.appendingPathComponent(name, isDirectory: false)
        var existing = stat()
        if stat(target.path, &existing) == 0, existing.st_size > 0 {
            progress.record(.skipped)
            return
        }
        guard let url = provider.imageURL(for: photo, size: size) else {
            progress.begin()
            progress.record(.failed("\(name): the provider gave no URL for size \(size.rawValue)"))
            return
        }
        progress.begin()
        pipeline.load(url, priority: .normal) { [self] event in
            switch event {
            case .progress:
                return
            case .completed(.success(let response)):
                do {
                    // Readable like any downloaded file (0644 under the usual umask).
                    try AtomicFile.write(response.data, to: target, permissions: 0o666)
                    progress.record(.downloaded(bytes: response.data.count, fromCache: response.source != .network))
                } catch {
                    progress.record(.failed("\(error)"))
                }
            case .completed(.failure(.cancelled)):
                progress.record(.cancelled)
            case .completed(.failure(let error)):
                progress.record(.failed("\(name): \(error)"))
            }
            wake.yield()
        }
    }

    /// `{id}_{secret}_{suffix}.jpg`; the 500 px size has no suffix.
    static func fileName(for photo: Photo, size: PhotoSize) -> String {
        let id = safeComponent(photo.id)
        let secret = safeComponent(photo.secret)
        if let suffix = size.urlSuffix { return "\(id)_\(secret)_\(suffix).jpg" }
        return "\(id)_\(secret).jpg"
    }

    /// Ids and secrets come from the server: keep only characters that cannot
    /// leave the folder or confuse a shell.
    private static func safeComponent(_ text: String) -> String {
        let kept = text.utf8.filter { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"): true
            default: false
            }
        }
        return kept.isEmpty ? "unknown" : String(decoding: kept, as: UTF8.self)
    }
}

/// Counts outcomes and draws progress: a bar redrawn in place on a terminal,
/// plain lines (failures and pages) otherwise.
private final class DownloadProgress: Sendable {
    enum Outcome {
        case downloaded(bytes: Int, fromCache: Bool)
        case skipped
        case failed(String)
        case cancelled
    }

    struct Counts {
        var expected = 0
        var outstanding = 0
        var downloaded = 0
        var fromCache = 0
        var skipped = 0
        var failed = 0
        var cancelled = 0
        var bytes = 0
        var lastDraw: ContinuousClock.Instant?
        var barShown = false
    }

    struct Summary {
        var line: String
        var failed: Int
    }

    private let showsBar: Bool
    private let started = ContinuousClock.now
    private let counts = Mutex(Counts())

    init(showsBar: Bool) {
        self.showsBar = showsBar
    }

    var outstanding: Int { counts.withLock { $0.outstanding } }

    func addPage(_ number: Int, of last: Int, photos: Int) {
        counts.withLock { $0.expected += photos }
        if !showsBar { Self.writeLine("page \(number) of \(last): \(photos) photos") }
    }

    func begin() {
        counts.withLock { $0.outstanding += 1 }
    }

    func record(_ outcome: Outcome) {
        var failure: String?
        let bar: String? = counts.withLock { counts in
            switch outcome {
            case .downloaded(let bytes, let fromCache):
                counts.outstanding -= 1
                counts.downloaded += 1
                counts.bytes += bytes
                if fromCache { counts.fromCache += 1 }
            case .skipped:
                counts.skipped += 1
            case .failed(let reason):
                counts.outstanding -= 1
                counts.failed += 1
                failure = reason
            case .cancelled:
                counts.outstanding -= 1
                counts.cancelled += 1
            }
            guard showsBar else { return nil }
            let now = ContinuousClock.now
            let settled = counts.downloaded + counts.skipped + counts.failed
            if let last = counts.lastDraw, now - last < .milliseconds(80), settled < counts.expected { return nil }
            counts.lastDraw = now
            counts.barShown = true
            return Self.bar(counts)
        }
        if let failure {
            if showsBar { Self.write("\r\u{1B}[K") }
            Self.writeLine("failed: \(failure)")
            if showsBar { Self.write(counts.withLock { Self.bar($0) }) }
        }
        if let bar { Self.write("\r" + bar) }
    }

    /// Ends the bar's line so the summary starts on a fresh one.
    func finish() {
        let shown = counts.withLock { $0.barShown }
        if showsBar && shown { Self.write("\r\u{1B}[K") }
    }

    func summary() -> Summary {
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return counts.withLock { counts in
            var line = "Downloaded \(counts.downloaded)"
            if counts.fromCache > 0 { line += " (\(counts.fromCache) from cache)" }
            line += ", skipped \(counts.skipped), failed \(counts.failed)"
            if counts.cancelled > 0 { line += ", cancelled \(counts.cancelled)" }
            line += ", \(Self.formatBytes(counts.bytes)) in \(String(format: "%.2f", seconds)) s."
            return Summary(line: line, failed: counts.failed)
        }
    }

    private static func bar(_ counts: Counts) -> String {
        let width = 30
        let settled = counts.downloaded + counts.skipped + counts.failed + counts.cancelled
        let total = max(counts.expected, 1)
        let filled = min(width, settled * width / total)
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            + "\(settled)/\(counts.expected) · \(formatBytes(counts.bytes)) · \(counts.failed) failed"
    }

    static func formatBytes(_ bytes: Int) -> String {
        if bytes >= 1 << 20 { return String(format: "%.1f MB", Double(bytes) / Double(1 << 20)) }
        if bytes >= 1 << 10 { return String(format: "%.0f KB", Double(bytes) / Double(1 << 10)) }
        return "\(bytes) B"
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    private static func writeLine(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// Turns SIGINT into a call on a dispatch queue instead of killing the
/// process, so Ctrl-C can cancel transfers and still print the summary.
///
/// `@unchecked Sendable`: the only stored property is a dispatch source,
/// whose methods are thread-safe; it is not marked Sendable on Linux.
private final class InterruptWatcher: @unchecked Sendable {
    private let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global(qos: .userInitiated))

    func start(_ handler: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source.setEventHandler(handler: handler)
        source.resume()
    }

    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
