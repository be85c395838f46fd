import ArgumentParser
import FlickrKit
import FlickrViewModels
import Foundation
import ImagePipeline
import TerminalUI

@main
struct FlickrCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flickr",
        abstract: "Search Flickr photos from the terminal.",
        discussion: """
            Without a subcommand, starts the interactive app: type words and Enter to search, \
            Enter on an empty line for the next page, /help for commands.

            Without --api-key (or FLICKR_API_KEY) and --api-url (or FLICKR_API_URL), the app \
            runs against an embedded Flickr-compatible sandbox with synthetic photos, so it \
            works offline and without an account.

            Thumbnails in the grid are the 150 px square size (q); /open shows the 1024 px size \
            (b, from url_l), or 640 px (z) when a photo has no larger one.

            Files: history and the last session under $XDG_STATE_HOME/flickr, images under \
            $XDG_CACHE_HOME/flickr. The API key is never written to disk.
            """,
        subcommands: [SearchCommand.self, RecentCommand.self, DownloadCommand.self, SandboxCommand.self])

    @OptionGroup var provider: ProviderOptions
    @OptionGroup var display: DisplayOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let capabilities = TerminalCapabilities.current(environment: environment)
        let connection = try await provider.connect(environment: environment)
        let paths = AppPaths(environment: environment)

        var pipelineConfiguration = ImagePipelineConfiguration()
        pipelineConfiguration.diskCacheDirectory = paths.imageCacheDirectory
        let pipeline = ImageDownloadManager(fetcher: connection.network, configuration: pipelineConfiguration)

        await runInteractive(
            connection: connection, pipeline: pipeline, paths: paths,
            capabilities: capabilities, environment: environment)
        // Thumbnails still being written are what the next launch shows first.
        await pipeline.waitForPendingWrites()
        await connection.close()
    }

    @MainActor
    private func runInteractive(
        connection: ServiceConnection, pipeline: ImageDownloadManager, paths: AppPaths,
        capabilities: TerminalCapabilities, environment: [String: String]
    ) async {
        let viewModel = FlickrViewModel(
            provider: connection.provider, pipeline: pipeline, perPage: provider.perPage,
            sessionStore: SessionStore(file: paths.sessionFile))

        let terminal: any Terminal
        if capabilities.isTTY {
            // Never record a line that holds the key, should someone paste it at the prompt.
            let secret = provider.resolvedKey(environment: environment)
            terminal = ReadlineTerminal(
                historyFile: paths.historyFile,
                historyFilter: { line in secret.map { !line.contains($0) } ?? true })
        } else {
            terminal = PlainTerminal()
        }
        // Asked before readline takes the terminal; nil when not a terminal.
        let probe = capabilities.isTTY && display.images != .none ? TerminalProbe.run(environment: environment) : nil
        let graphics = TerminalGraphics.detect(
            requested: display.images, environment: environment, isTTY: capabilities.isTTY,
            cellPixelSize: TerminalGraphics.cellPixelSize(fileDescriptor: STDOUT_FILENO), probe: probe)
        let view = FlickrTerminalView(
            viewModel: viewModel, terminal: terminal,
            options: .init(layout: display.layout, columns: display.columns, graphics: graphics))

        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            view.start(banner: connection.banner) { finished.resume() }
        }
    }
}
