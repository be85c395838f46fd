import ArgumentParser
import PhotoCore
import Downloads
import Foundation
import Services
import ImagePipeline
import Platform
import TerminalUI

/// `flickr download`: wires a `DownloadJob` to the provider, the pipeline
/// and a progress view.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download the images of a search, a person's photos or an album to a folder.",
        discussion: """
            What: words and filters (a search), --user NAME (a person's public photos; with words, \
            a search within them) or --album URL|ID (an album, or a gallery or group pool by its link, whole). \
            Files are named {id}_{secret}_{suffix} with the extension of their format (.jpg, \
            .png, .gif, .webp), or as --name says: fields {id}, {title}, {owner} (the owner's \
            name), {date_taken} (2019-06-01_14-03-22), {index} (1-based, in the service's order) and \
            {album} (the album's title, else empty), e.g. --name '{index}_{title}'. Names are made \
            safe for every file system (no / \\ < > : " | ? * or control characters, no CON or NUL, \
            no trailing dot, at most 200 bytes; the id when nothing is left), and two works with one \
            name become NAME and NAME (2). \
            Run it again to resume: a file already in the folder is kept when it is whole (an image \
            that decodes to the end; a video of the length its sidecar recorded) and fetched again \
            otherwise, and the summary says how many were already there. Every body is checked to \
            be a whole image and written under a temporary name, then renamed. Videos are skipped \
            and counted unless --videos fetches their video files, one at a time. Beside each file go NAME.json (provider, id, title, \
            creator, page, licence, credit line, tags, dates, and the provider's record) and \
            NAME.xmp (Dublin Core and Creative Commons terms, for photo tools), and the run ends \
            with CREDITS.md, one credit line per work, by licence; --no-sidecars writes the images \
            alone. \
            Filters such as license:cc0 may be among the words. Pages and images \
            that fail are retried, then counted; the download goes on past them and the exit \
            status is 1 when anything is still missing. The next page is requested while the \
            current page's images download. Images go through the disk cache under \
            $XDG_CACHE_HOME/flickr, so a second run needs no image requests. Ctrl-C cancels all \
            transfers, prints the summary and exits with status 130. Flickr serves only the \
            first 4,000 results of a query: download stops at that page and says so.
            """)

    @Argument(help: "Words that must all match; -word excludes; filters such as license:by or taken:2020..2022.")
    var query: [String] = []

    @Option(help: ArgumentHelp("A person's public photos: username, path alias, NSID or profile URL.", valueName: "name"))
    var user: String?

    @Option(help: ArgumentHelp("An album's photos: its link or id (a gallery's or group pool's link works too).", valueName: "url|id"))
    var album: String?

    @Option(help: ArgumentHelp(
        "File names without extension, from fields {id} {title} {owner} {date_taken} {index} {album} (default: {id}_{secret}_{suffix}).",
        valueName: "template"))
    var name: String?

    @Flag(help: "Download videos' files too (otherwise videos are skipped and counted).")
    var videos = false

    @Flag(help: "End with one JSON object of counts (downloaded, from_cache, already_there, failed, cancelled, videos_skipped, pages_not_fetched, bytes, seconds, complete, folder, collection, notes) instead of the summary line.")
    var json = false

    @Option(parsing: .unconditional, help: "How many pages of results to download.")
    var pages: Int = 1

    @Option(help: ArgumentHelp(
        "Image size: sq, q, t, s, n, w, m, z, c, l, h or k (or the URL suffix: s, q, t, m, n, w, z, c, b). h and k come from flickr.photos.getSizes when a search does not name them.",
        valueName: "size"))
    var size: PhotoSize = .square150

    @Option(help: ArgumentHelp("Folder to write the images to (created if needed).", valueName: "dir"))
    var out: String

    @Option(parsing: .unconditional, help: "Transfers at once, 1–32.")
    var concurrency: Int = 6

    @Flag(name: .customLong("no-sidecars"), help: "Write the images alone: no NAME.json, NAME.xmp or CREDITS.md.")
    var noSidecars = false

    @OptionGroup var provider: ProviderOptions

    func validate() throws {
        _ = try validated { () throws(QueryError) in try DownloadSource(words: query, user: user, album: album) }
        _ = try template()
        try NumericRange.check("--pages", pages, atLeast: 1)
        try NumericRange.check("--concurrency", concurrency, in: 1...32)
        try require(!out.trimmingCharacters(in: .whitespaces).isEmpty, "--out is empty: name a folder to write the images to.")
    }

    /// `--name`, parsed.
    private func template() throws -> FileNameTemplate? {
        try name.map { text in try validated { () throws(FileNameTemplateError) in try FileNameTemplate(text) } }
    }

    func run() async throws {
        let wanted = try validated { () throws(QueryError) in try DownloadSource(words: query, user: user, album: album) }
        let template = try template()
        let folder = DownloadFolder(url: URL(fileURLWithPath: out, isDirectory: true))
        try await worded { try folder.prepare() }

        let environment = ProcessInfo.processInfo.environment
        let progress = DownloadProgressView(showsBar: DownloadProgressView.standardErrorShowsBar(environment: environment))
        // A notice starts on a line of its own, under the progress bar.
        let (result, source, service, started) = try await provider.withScriptConnection(noticePrefix: "\n", environment: environment) {
            connection in
            let source = try await wanted.query(at: connection.provider)
            var configuration = ImagePipelineConfiguration()
            configuration.maxConcurrentDownloads = concurrency
            configuration.diskCacheDirectory = AppPaths(environment: environment).imageCacheDirectory
            let pipeline = ImageDownloadManager(fetcher: connection.images, configuration: configuration)
            let job = DownloadJob(
                request: .init(
                    source: source, pages: pages, perPage: connection.perPage(for: connection.provider),
                    size: size, folder: folder.url, concurrency: concurrency, sidecars: !noSidecars,
                    name: template, videos: videos),
                provider: connection.provider, pipeline: pipeline, videoFetcher: connection.network, reporter: progress)
            let started = ContinuousClock.now
            let interrupts = SignalWatcher(signals: [SIGINT], queue: .global(qos: .userInitiated)) { _ in job.cancel() }
            let result = await job.run()
            interrupts?.cancel()
            await pipeline.close()
            return (result, source, connection.provider, started)
        }

        progress.finish()
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if json {
            var collection: CollectionFacts?
            if case .collection(let listed) = source {
                collection = CollectionFacts(listed, pageURL: service.capabilities.collections.available?.pageURL(for: listed))
            }
            print(DownloadReport(result, seconds: seconds, folder: folder.url, collection: collection).json)
        } else {
            print(result.tally.summary(seconds: seconds))
            // Notes may name an album, whose title came from the server.
            for note in result.notes { print(TextSanitizer.sanitize(note)) }
        }
        if result.cancelled {
            if !json { print("Cancelled.") }
            throw ExitCode(130)
        }
        if result.isIncomplete { throw ExitCode(1) }
    }
}
