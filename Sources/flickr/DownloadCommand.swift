import ArgumentParser
import FlickrKit
import FlickrViewModels
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
        abstract: "Download the images of a search to a folder.",
        discussion: """
            Files are named {id}_{secret}_{suffix} with the extension of their format (.jpg, \
            .png, .gif, .webp); a file already in the folder is kept when it is a whole image and \
            fetched again otherwise. Every body is checked to be a whole image and written under a \
            temporary name, then renamed. Beside each file go NAME.json (provider, id, title, \
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
    var query: [String]

    @Option(parsing: .unconditional, help: "How many pages of results to download.")
    var pages: Int = 1

    @Option(help: ArgumentHelp(
        "Image size: sq, q, t, s, n, w, m, z, c, l, h or k (or the URL suffix: s, q, t, m, n, w, z, c, b). h and k come from flickr.photos.getSizes when a search does not name them.",
        valueName: "size"))
    var size: String = "q"

    @Option(help: ArgumentHelp("Folder to write the images to (created if needed).", valueName: "dir"))
    var out: String

    @Option(parsing: .unconditional, help: "Transfers at once, 1–32.")
    var concurrency: Int = 6

    @Flag(name: .customLong("no-sidecars"), help: "Write the images alone: no NAME.json, NAME.xmp or CREDITS.md.")
    var noSidecars = false

    @OptionGroup var provider: ProviderOptions

    func validate() throws {
        _ = try SearchQuery.commandLine(query)
        try NumericRange.check("--pages", pages, atLeast: 1)
        try NumericRange.check("--concurrency", concurrency, in: 1...32)
        guard PhotoSize(argument: size) != nil else {
            throw ValidationError("Unknown --size \"\(size)\". Use sq, q, t, s, n, w, m, z, c, l, h or k.")
        }
        guard !out.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("--out is empty: name a folder to write the images to.")
        }
    }

    func run() async throws {
        guard let photoSize = PhotoSize(argument: size) else { throw ValidationError("Unknown --size \"\(size)\".") }
        let search = try SearchQuery.commandLine(query)
        let folder = DownloadFolder(url: URL(fileURLWithPath: out, isDirectory: true))
        do {
            try folder.prepare()
        } catch {
            throw CommandFailure(message: error.message)
        }

        let environment = ProcessInfo.processInfo.environment
        let connection = try await provider.connect(environment: environment)
        connection.announceSandbox()
        let notices = connection.notices.listen { FileHandle.standardError.write(Data("\nflickr: \($0)\n".utf8)) }
        defer { notices.cancel() }
        var configuration = ImagePipelineConfiguration()
        configuration.maxConcurrentDownloads = concurrency
        configuration.diskCacheDirectory = AppPaths(environment: environment).imageCacheDirectory
        let pipeline = ImageDownloadManager(fetcher: connection.network, configuration: configuration)
        let progress = DownloadProgressView(showsBar: DownloadProgressView.standardErrorShowsBar(environment: environment))
        let job = DownloadJob(
            request: .init(
                query: search, pages: pages, perPage: provider.resolvedPerPage(for: connection.provider),
                size: photoSize, folder: folder.url, concurrency: concurrency, sidecars: !noSidecars),
            provider: connection.provider, pipeline: pipeline, reporter: progress)

        let started = ContinuousClock.now
        let interrupts = SignalWatcher(signals: [SIGINT], queue: .global(qos: .userInitiated)) { _ in job.cancel() }
        let result = await job.run()
        interrupts?.cancel()
        await pipeline.close()
        await connection.close()

        progress.finish()
        let elapsed = ContinuousClock.now - started
        print(result.tally.summary(seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
        for note in result.notes { print(note) }
        if result.cancelled {
            print("Cancelled.")
            throw ExitCode(130)
        }
        if result.tally.isIncomplete { throw ExitCode(1) }
    }
}
