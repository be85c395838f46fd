import PhotoCore
import Foundation
import ImagePipeline
import Platform
import NIOConcurrencyHelpers

/// `flickr download`: fetches pages one ahead of the images being downloaded
/// and feeds each page's images to the pipeline, keeping every transfer slot
/// busy across page boundaries. A page that cannot be fetched is counted and
/// skipped; a failed image is counted; the job goes on past both. A complete
/// file already in the folder is kept, so a second run finishes what an
/// interrupted one began. Videos are skipped, or with `videos` fetched one at
/// a time beside the images.
public final class DownloadJob: Sendable {
    /// What happened besides the counted files.
    public struct Result: Sendable {
        public var tally: DownloadTally
        public var notes: [String] = []
        public var cancelled = false
        /// Sidecars, and CREDITS.md, that could not be written: the credits
        /// a work's licence asks for are missing too.
        public var creditFilesMissing = 0

        /// Something the person asked for is not in the folder (the exit status is 1).
        public var isIncomplete: Bool { tally.isIncomplete || creditFilesMissing > 0 }
    }

    let request: Request
    let provider: any PhotoProvider
    private let pipeline: ImageDownloadManager
    let videoFetcher: (any ImageFetching)?
    private let reporter: any DownloadReporter
    private let files: DownloadFolder
    private let credits: DownloadCredits
    /// Which photo each file in the folder is, for this run and the next.
    private let manifest: DownloadManifest
    private let wakeups: AsyncStream<Void>
    let wake: AsyncStream<Void>.Continuation
    let videoQueue: AsyncStream<(photo: Photo, name: String)>
    let queueVideo: AsyncStream<(photo: Photo, name: String)>.Continuation
    let state: NIOLockedValueBox<State>

    struct State {
        var cancelled = false
        var tally = DownloadTally()
        var pageTasks: [Int: Task<PhotoPage, any Error>] = [:]
        /// Photos already handed out: a provider may list one on two pages.
        var seenPhotoIDs: Set<String> = []
        var naming: DownloadNaming
        /// Videos queued or being fetched (also counted in `tally.outstanding`).
        var pendingVideos = 0
        /// Works whose sidecars could not be written, and the first reason.
        var sidecarsMissing = 0
        var sidecarFailure: String?
        var videoWorker: Task<Void, Never>?
    }

    /// Page requests in flight at once, counting the one being consumed; they
    /// overlap each other and the image transfers.
    private static let pagesAhead = 3

    /// `videoFetcher` fetches video files when `request.videos` asks for them
    /// (the pipeline takes images only).
    public init(
        request: Request, provider: any PhotoProvider, pipeline: ImageDownloadManager, videoFetcher: (any ImageFetching)? = nil,
        reporter: any DownloadReporter
    ) {
        self.request = request
        self.provider = provider
        self.pipeline = pipeline
        self.videoFetcher = videoFetcher
        self.reporter = reporter
        state = NIOLockedValueBox(State(naming: DownloadNaming(template: request.name, size: request.size, album: request.albumTitle)))
        (videoQueue, queueVideo) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        // Listed once, when the job is made: what earlier runs left.
        self.files = DownloadFolder(url: request.folder).listed()
        self.manifest = DownloadManifest(folder: request.folder)
        self.credits = DownloadCredits(
            folder: request.folder, provider: provider, sidecars: request.sidecars, size: request.size.rawValue, manifest: manifest)
        (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    var isCancelled: Bool { state.withLockedValue { $0.cancelled } }

    /// Sidecars and CREDITS.md built so far (see `DownloadCredits.filesBuilt`).
    var creditFilesBuilt: Int { credits.filesBuilt }

    /// Stops everything: the page requests and every transfer. Safe from any thread.
    public func cancel() {
        let videos = state.withLockedValue { state in
            state.cancelled = true
            return state.videoWorker
        }
        videos?.cancel()
        dropPages(after: 0)
        pipeline.cancelAll()
        wake.yield()
    }

    public func run() async -> Result {
        var notes: [String] = []
        var wakeIterator = wakeups.makeAsyncIterator()
        let perPage = request.perPage
        if request.videos {
            let worker = Task { [self] in await fetchVideos() }
            state.withLockedValue { $0.videoWorker = worker }
        }
        // Before page 1 answers, the provider's cap is the only bound we know.
        var lastPage = request.source.lastServedPage(pages: request.pages, perPage: perPage, from: provider)
        requestPages(1...min(lastPage, Self.pagesAhead))
        // While the first pages are on their way.
        manifest.load()
        var number = 1
        while number <= lastPage, !isCancelled, let current = pageRequest(number) {
            let page: PhotoPage
            do {
                page = try await current.value
                finishPage(number)
            } catch {
                finishPage(number)
                if isCancelled { break }
                let tally = state.withLockedValue { state in
                    state.tally.failedPages += 1
                    return state.tally
                }
                reporter.pageFailed(number, reason: userMessage(for: error), tally: tally)
                if number == 1 { break }
                number += 1
                if number <= lastPage { requestPages(number...min(lastPage, number + Self.pagesAhead - 1)) }
                continue
            }
            if number == 1 {
                // The photos decide, not the total: Flickr sends `total: ""`
                // (read as 0) on pages full of photos.
                if page.photos.isEmpty {
                    if case .search(let query) = request.source {
                        notes.append("No photos match \(query).")
                    } else {
                        notes.append("No photos in \(request.source).")
                    }
                    break
                }
                let served = request.source.lastServedPage(pages: page.pages, perPage: perPage, from: provider)
                if served < request.pages {
                    lastPage = max(1, served)
                    notes.append(served < page.pages
                        ? "Stopped at page \(lastPage): \(provider.displayName) serves only the first \(provider.maxResults ?? page.total) results of a query."
                        : page.total > 0
                            ? "Stopped at page \(lastPage), the last page (\(page.total) results)."
                            : "Stopped at page \(lastPage), the last page.")
                }
                dropPages(after: lastPage)
            }
            if page.photos.isEmpty {
                // The provider promised this page and sent nothing: the pages
                // from here on are missing, and the exit status says so.
                state.withLockedValue { $0.tally.failedPages += 1 }
                notes.append(number == lastPage
                    ? "Page \(number) came back empty; its photos are missing."
                    : "Page \(number) came back empty, so the download stopped there; pages \(number)–\(lastPage) are missing.")
                break
            }
            // Keep the next pages coming while this page's images download.
            if number < lastPage { requestPages((number + 1)...min(lastPage, number + Self.pagesAhead)) }
            // Numbered over the whole download, videos included, so `{index}`
            // names the same photo the same with or without `--videos`.
            let (photos, tally) = state.withLockedValue { state in
                let photos = page.photos.compactMap { photo in
                    state.seenPhotoIDs.insert(photo.id).inserted ? (photo: photo, index: state.seenPhotoIDs.count) : nil
                }
                state.tally.expected += photos.count
                return (photos, state.tally)
            }
            reporter.pageStarted(number, of: lastPage, photos: photos.count, tally: tally)

            // Queue this page's images once the previous page's queue has drained
            // into the running slots: no slot idles at the page boundary, and only
            // a few pages of requests are alive at once.
            // Videos wait in their own queue and do not hold the pages back.
            while state.withLockedValue({ $0.tally.outstanding - $0.pendingVideos }) > request.concurrency, !isCancelled {
                _ = await wakeIterator.next()
            }
            if isCancelled { break }
            for (photo, index) in photos { download(photo, index: index) }
            number += 1
        }
        dropPages(after: 0)
        queueVideo.finish()
        while state.withLockedValue({ $0.tally.outstanding }) > 0, !isCancelled {
            _ = await wakeIterator.next()
        }
        await state.withLockedValue({ $0.videoWorker })?.value
        await credits.written()
        let (tally, cancelled, sidecarsMissing, sidecarFailure) = state.withLockedValue {
            ($0.tally.stopped(), $0.cancelled, $0.sidecarsMissing, $0.sidecarFailure)
        }
        var missing = sidecarsMissing
        if let sidecarFailure {
            notes.append(missing == 1 ? "The sidecars of 1 work could not be written: \(sidecarFailure)"
                                      : "The sidecars of \(missing) works could not be written; the first: \(sidecarFailure)")
        }
        do {
            try credits.finish()
        } catch {
            missing += 1
            notes.append("Could not write CREDITS.md: \(userMessage(for: error))")
        }
        do {
            try manifest.save()
        } catch {
            notes.append("Could not write \(DownloadManifest.fileName), so a later run may not recognise these files: \(userMessage(for: error))")
        }
        return Result(tally: tally, notes: notes, cancelled: cancelled, creditFilesMissing: missing)
    }

    // MARK: - Pages

    private func requestPages(_ numbers: ClosedRange<Int>) {
        let provider = self.provider
        let source = request.source
        let perPage = request.perPage
        state.withLockedValue { state in
            for number in numbers where state.pageTasks[number] == nil {
                state.pageTasks[number] = Task {
                    try await source.page(number, perPage: perPage, from: provider)
                }
            }
        }
    }

    /// The request for page `number`; it stays cancellable until `finishPage`.
    private func pageRequest(_ number: Int) -> Task<PhotoPage, any Error>? {
        state.withLockedValue { $0.pageTasks[number] }
    }

    private func finishPage(_ number: Int) {
        _ = state.withLockedValue { $0.pageTasks.removeValue(forKey: number) }
    }

    /// Cancels requests for pages past `last`.
    private func dropPages(after last: Int) {
        let dropped = state.withLockedValue { state in
            let extra = state.pageTasks.filter { $0.key > last }
            for number in extra.keys { state.pageTasks[number] = nil }
            return Array(extra.values)
        }
        for task in dropped { task.cancel() }
    }

    // MARK: - Images

    private func download(_ photo: Photo, index: Int) {
        let files = self.files
        let manifest = self.manifest
        let providerID = provider.service.id
        let name = state.withLockedValue { state in
            state.naming.baseName(for: photo, index: index) {
                files.isTaken(baseName: $0, by: photo, provider: providerID, manifest: manifest, ownName: { self.ownName(of: photo) })
            }
        }
        if photo.isVideo {
            queue(video: photo, named: name)
            return
        }
        if keep(photo, named: name) { return }
        state.withLockedValue { $0.tally.outstanding += 1 }
        let size = request.size
        // The big sizes have secrets of their own: when the search answer did
        // not carry one, ask the service for the photo's sizes (cached per photo).
        if !size.isBuildable, photo.rendition(labelled: size.rawValue) == nil {
            let provider = self.provider
            Task { [self] in
                let url = try? await provider.resolveImageURL(for: photo, covering: size.requirement)
                fetch(url, for: photo, named: name)
            }
        } else {
            fetch(provider.imageURL(for: photo, size: size), for: photo, named: name)
        }
    }

    /// Counts the file already saved as `name` when it is still this photo's
    /// bytes (see `DownloadFolder.keptFile`), and credits it.
    func keep(_ photo: Photo, named name: String) -> Bool {
        guard let kept = files.keptFile(baseName: name, for: photo, provider: provider.service.id, manifest: manifest) else {
            return false
        }
        manifest.note(kept.record, baseName: name)
        credit(photo, baseName: name, file: kept.file, bytes: kept.record.bytes, sha256: kept.record.sha256, kept: true)
        record(.kept)
        return true
    }

    /// The name only `photo`'s file bears (see `DownloadFolder.isTaken`):
    /// with no `--name`, an image's id, secret and size. Nil with a
    /// template, for a video, and for a photo without a secret: ids alone
    /// may repeat across providers.
    private func ownName(of photo: Photo) -> String? {
        guard request.name == nil, !photo.isVideo, let secret = photo.providerKeys["secret"], !secret.isEmpty else { return nil }
        return DownloadFolder.baseName(for: photo, size: request.size)
    }

    /// Writes `data` as `file`, notes what it is in the manifest, and credits it.
    func save(_ data: Data, for photo: Photo, baseName: String, file: String) throws {
        var (baseName, file) = (baseName, file)
        if baseName == ownName(of: photo), files.record(baseName: baseName, manifest: manifest) == nil,
           !files.mayReplaceUnrecorded(baseName: baseName, with: data, as: file) {
            // What is there under the photo's own name is not its bytes: it
            // stays, and the photo takes the next name, as beside any other file.
            let (files, manifest, providerID, extensionPart) = (files, manifest, provider.service.id, file.dropFirst(baseName.count))
            baseName = state.withLockedValue { state in
                state.naming.numbered(baseName) { files.isTaken(baseName: $0, by: photo, provider: providerID, manifest: manifest) }
            }
            file = baseName + extensionPart
        }
        try files.write(data, named: file)
        let digest = SHA256.hex(data)
        let modified = DownloadFolder.status(files.url.appendingPathComponent(file, isDirectory: false).path)?.modified
        manifest.note(.init(provider: provider.service.id, id: photo.id, file: file, bytes: data.count, sha256: digest, modified: modified),
                      baseName: baseName)
        credit(photo, baseName: baseName, file: file, bytes: data.count, sha256: digest)
    }

    /// The work's sidecars and its line in CREDITS.md, written on the
    /// sidecar queue; a sidecar that cannot be written is reported once per
    /// file, and the image stays.
    private func credit(_ photo: Photo, baseName: String, file: String, bytes: Int?, sha256: String?, kept: Bool = false) {
        credits.recordSoon(photo, baseName: baseName, file: file, bytes: bytes, sha256: sha256, kept: kept) { [self] error in
            let reason = "\(baseName): \(userMessage(for: error))"
            let tally = state.withLockedValue { state in
                state.sidecarsMissing += 1
                state.sidecarFailure = state.sidecarFailure ?? reason
                return state.tally
            }
            reporter.imageSettled(tally: tally, failure: "\(baseName): sidecar not written: \(userMessage(for: error))")
        }
    }

    private func fetch(_ url: URL?, for photo: Photo, named name: String) {
        guard let url, !isCancelled else {
            record(isCancelled ? .cancelled : .failed("\(name): the provider gave no URL for size \(request.size.rawValue)"))
            wake.yield()
            return
        }
        pipeline.load(url, priority: .normal) { [self] event in
            switch event {
            case .progress:
                return
            case .completed(.success(let response)):
                do {
                    try save(response.data, for: photo, baseName: name, file: DownloadFolder.fileName(name, format: response.format))
                    record(.downloaded(bytes: response.data.count, fromCache: response.source != .network))
                } catch {
                    record(.failed("\(name): \(userMessage(for: error))"))
                }
            case .completed(.failure(.cancelled)):
                record(.cancelled)
            case .completed(.failure(let error)):
                record(.failed("\(name): \(error)"))
            }
            wake.yield()
        }
    }

    func record(_ outcome: DownloadOutcome) {
        let tally = state.withLockedValue { state in
            state.tally.record(outcome)
            return state.tally
        }
        if case .failed(let reason) = outcome {
            reporter.imageSettled(tally: tally, failure: reason)
        } else {
            reporter.imageSettled(tally: tally, failure: nil)
        }
    }
}
