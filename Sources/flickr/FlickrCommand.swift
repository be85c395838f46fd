import ArgumentParser
import PhotoCore
import FlickrViewModels
import Foundation
import Services
import ImagePipeline
import Platform
import TerminalUI

@main
struct FlickrCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flickr",
        abstract: "Search photos from the terminal: \(ProviderRegistry.list(ProviderOptions.registry.descriptors.map(\.service.name), conjunction: "or")).",
        discussion: """
            Without a subcommand, starts the interactive app (browse): type words and Enter to \
            search, Enter on an empty line for the next page, /help for commands.

            Providers (--provider, /provider):
            \(ProviderOptions.registry.descriptors.map { "  \($0.service.id): \($0.summary)." }.joined(separator: "\n"))

            \(EnvironmentHelp.section)
            """,
        // The one version: Scripts/package reads it from the built binary for
        // the package's Version: and the tarball's name.
        version: "0.1.0",
        subcommands: [
            BrowseCommand.self, SearchCommand.self, RecentCommand.self, PhotostreamCommand.self, AlbumCommand.self,
            InfoCommand.self, DownloadCommand.self, SandboxCommand.self,
            FavesCommand.self,
            LoginCommand.self,
            WhoamiCommand.self,
            LogoutCommand.self,
            UploadCommand.self,
        ],
        defaultSubcommand: BrowseCommand.self)

    /// ArgumentParser's own entry, with the allocator set up for the
    /// interactive app before any other thread starts. The one-shot
    /// commands keep glibc's default arenas: they end before memory held
    /// free matters.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if command is BrowseCommand { Platform.limitHeapArenas() }
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// The interactive app: `flickr` with no subcommand.
struct BrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse results in the terminal (the default).",
        discussion: """
            Without credentials for the chosen service and without --api-url, \
            \(ProviderRegistry.list(ProviderOptions.registry.descriptors.filter { !$0.needsNoCredentials }.map(\.service.name), conjunction: "and")) \
            run against an embedded sandbox with synthetic photos, so the app works \
            offline and without an account. /provider switches service. Credentials:
            \(ProviderOptions.registry.descriptors.map { "  \($0.service.name): \($0.credentialHint)" }.joined(separator: "\n"))

            Grid thumbnails are the smallest size that fills their cell; /open shows a large \
            size with the photo's details.

            Files: history and the last session under $XDG_STATE_HOME/flickr (one of each per \
            service), images and their renderings under $XDG_CACHE_HOME/flickr. Credentials are never written to disk.
            """)

    @OptionGroup var provider: ProviderOptions
    @OptionGroup var display: DisplayOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let capabilities = TerminalCapabilities.current(environment: environment)
        let paths = AppPaths(environment: environment)
        try await provider.withConnection(alsoOthers: true, environment: environment) { connection in
            var pipelineConfiguration = ImagePipelineConfiguration()
            pipelineConfiguration.diskCacheDirectory = paths.imageCacheDirectory
            let pipeline = ImageDownloadManager(fetcher: connection.images, configuration: pipelineConfiguration)

            await runInteractive(
                connection: connection, pipeline: pipeline, paths: paths,
                capabilities: capabilities, environment: environment)
            // Transfers end before the network shuts down; thumbnails still being
            // written are what the next launch shows first.
            await pipeline.close()
        }
    }

    @MainActor
    private func runInteractive(
        connection: ServiceConnection, pipeline: ImageDownloadManager, paths: AppPaths,
        capabilities: TerminalCapabilities, environment: [String: String]
    ) async {
        let services = connection.providers.map { service in
            FlickrViewModel.ServiceSetup(
                provider: service, perPage: connection.perPage(for: service),
                sessionStore: SessionStore(file: paths.sessionFile(for: service.service)),
                sandboxOrigin: connection.sandboxed.contains(service.service.id) ? connection.sandboxURL : nil,
                liveSearch: ProviderOptions.registry.descriptor(id: service.service.id)?.liveSearch ?? .standard)
        }
        let viewModel = FlickrViewModel(services: services, pipeline: pipeline, notices: connection.notices)
        if let delay = display.liveDelay { viewModel.configureLiveSearch(delay: .milliseconds(delay)) }

        let terminal: any Terminal
        if capabilities.isTTY {
            // Never record a line that holds a credential, should someone paste one at the prompt.
            let secrets = Self.secrets(in: environment, apiKey: provider.apiKey)
            let readline = ReadlineTerminal(
                historyFile: paths.historyFile(for: connection.provider.service),
                completions: UserCommand.completions(providers: viewModel.providerChoices),
                historyFilter: { line in !secrets.contains { line.contains($0) } })
            readline.wordCompletions = FlickrViewModel.filterCompletions
            terminal = readline
        } else {
            terminal = PlainTerminal()
        }
        // Asked before readline takes the terminal; nil when not a terminal.
        let probe = capabilities.isTTY && display.images != .none ? TerminalProbe.run(environment: environment) : nil
        let graphics = TerminalGraphics.detect(
            requested: display.images, environment: environment, isTTY: capabilities.isTTY,
            cellPixelSize: TerminalGraphics.cellPixelSize(fileDescriptor: STDOUT_FILENO), probe: probe,
            links: !display.noLinks)
        let view = FlickrTerminalView(
            viewModel: viewModel, terminal: terminal,
            options: .init(
                layout: display.layout, columns: display.columns, graphics: graphics,
                renderCacheDirectory: paths.renderCacheDirectory))

        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            view.start(banner: connection.banner) { finished.resume() }
        }
    }

    /// Every credential the run may hold, to keep out of the history.
    static func secrets(in environment: [String: String], apiKey: String?) -> [String] {
        let values = [apiKey] + ProviderOptions.registry.credentialVariables.map { environment[$0] }
        return values.compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}
