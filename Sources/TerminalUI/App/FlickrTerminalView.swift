import Binding
import Foundation
import FlickrViewModels

/// The interactive screen: binds a `FlickrViewModel` to a line-oriented
/// `Terminal`.
///
/// Everything is printed into the scrollback, above the prompt: a header per
/// page, then the page's rows in order as their cells settle, notices, and
/// `/open` details (`PagePrinter`). A status line just above the prompt shows
/// progress. Input is dispatched in `FlickrTerminalView+Commands`. The view
/// reads view-model state only; it never fetches or decodes responses.
@MainActor
public final class FlickrTerminalView {
    public enum Layout: String, Sendable, CaseIterable {
        case grid, list
    }

    public struct Options: Sendable {
        public var layout: Layout
        public var columns: Int
        public var graphics: TerminalGraphics
        /// Where thumbnails as drawn are kept between runs; nil keeps them in memory only.
        public var renderCacheDirectory: URL?

        public init(layout: Layout = .grid, columns: Int = 3, graphics: TerminalGraphics = .none, renderCacheDirectory: URL? = nil) {
            self.layout = layout
            self.columns = columns
            self.graphics = graphics
            self.renderCacheDirectory = renderCacheDirectory
        }
    }

    let viewModel: FlickrViewModel
    let terminal: any Terminal
    let printer: PagePrinter
    private var tokens: [ObservationToken] = []
    /// Pages already handed to the printer for the current query.
    private var printedPages = 0
    private var onQuit: (@MainActor () -> Void)?
    private var isStopped = false
    /// Whether a line from the prompt has been handled yet.
    var hasHandledLine = false

    public init(viewModel: FlickrViewModel, terminal: any Terminal, options: Options) {
        self.viewModel = viewModel
        self.terminal = terminal
        self.printer = PagePrinter(
            terminal: terminal,
            options: .init(layout: options.layout, columns: options.columns, graphics: options.graphics),
            renderCacheDirectory: options.renderCacheDirectory,
            viewModel: viewModel)
    }

    /// Shows the banner, binds to the view model, starts reading input, and
    /// shows the saved session (or recent photos on a first launch).
    public func start(banner: String, onQuit: @escaping @MainActor () -> Void) {
        self.onQuit = onQuit
        terminal.print(banner.split(separator: "\n").map { TextSanitizer.sanitize(String($0)) }.joined(separator: "\n"))
        if let notice = printer.options.graphics.notice { terminal.print("warning: " + notice) }
        if terminal.isInteractive {
            terminal.print("Type words to search, Enter for the next page, /help for commands.")
        }
        printer.onIdle = { [weak self] in self?.resumeInputIfIdle() }
        keepSignInCodesOutOfHistory()
        viewModel.liveRowLength = printer.options.columns
        bind()
        terminal.run(prompt: "flickr> ", handlers: TerminalHandlers(
            onLine: { [weak self] line in self?.handle(line) },
            onEOF: { [weak self] in self?.quit() },
            onInterrupt: { [weak self] in self?.interrupt() },
            onResize: { [weak self] _ in self?.updateStatus() },
            onTerminate: { [weak self] _ in self?.quit() },
            onEdit: { [weak self] text in self?.viewModel.typing(text) }))
        // A line typed during start-up (handed over by the terminal probe)
        // has been handled by now: what the person asked for wins over the
        // saved session or recent photos.
        if !hasHandledLine, !viewModel.restoreSession() {
            viewModel.showRecent()
        }
    }

    /// A sign-in code must not come back with Up-arrow or stay in the
    /// history file: while `/login` is under way only commands are kept.
    private func keepSignInCodesOutOfHistory() {
        guard let readline = terminal as? ReadlineTerminal else { return }
        let earlier = readline.historyFilter
        readline.historyFilter = { [weak viewModel] line in
            let signingIn = viewModel.map { $0.signIn.value != .idle } ?? false
            let command = line.trimmingCharacters(in: .whitespaces).hasPrefix("/")
            guard !signingIn || command else { return false }
            return earlier?(line) ?? true
        }
    }

    // MARK: - Bindings

    private func bind() {
        viewModel.pages.observe { [weak self] pages in self?.pagesChanged(pages) }.store(in: &tokens)
        viewModel.notice.observeChanges { [weak self] notice in
            if let notice { self?.show(notice) }
        }.store(in: &tokens)
        viewModel.activity.observe { [weak self] _ in self?.updateStatus() }.store(in: &tokens)
        viewModel.progress.observe { [weak self] _ in self?.updateStatus() }.store(in: &tokens)
        viewModel.albums.observeChanges { [weak self] listing in
            guard let self, let listing else { return }
            self.printer.printAlbums(listing, header: StatusText.header(for: listing))
        }.store(in: &tokens)
        viewModel.linkedPhoto.observeChanges { [weak self] detail in
            if let detail { self?.printer.printDetail(detail) }
        }.store(in: &tokens)
        viewModel.signIn.observeChanges { [weak self] step in self?.signInChanged(step) }.store(in: &tokens)
        viewModel.liveResult.observeChanges { [weak self] result in
            guard let self else { return }
            self.terminal.setLiveLine(StatusText.liveLine(result, columns: self.terminal.size.columns - 1))
        }.store(in: &tokens)
    }

    private func pagesChanged(_ pages: [ResultPage]) {
        if pages.count < printedPages || pages.isEmpty {
            // A new query replaced the results.
            printedPages = 0
            printer.discardPending()
        }
        while printedPages < pages.count {
            let page = pages[printedPages]
            printedPages += 1
            printer.printPage(page, header: StatusText.header(for: page, query: viewModel.query.value))
        }
    }

    /// `/login`'s address, as a link where the terminal follows them, and
    /// what the next line is for.
    private func signInChanged(_ step: SignInStep) {
        if case .waitingForCode(let address) = step {
            let text = TextSanitizer.sanitize(address.absoluteString, maximumLength: StatusText.copyableLength)
            terminal.print("Open this address, approve the app, then type the code it shows here (an empty line or /cancel abandons):")
            terminal.print(Hyperlink.wrap(text, to: address, enabled: printer.options.graphics.hyperlinks))
        }
        updateStatus()
        resumeInputIfIdle()
    }

    func updateStatus() {
        switch viewModel.signIn.value {
        case .asking:
            terminal.setStatus("asking for a sign-in address…")
            return
        case .waitingForCode:
            terminal.setStatus("signing in: type the code from the address above, or an empty line to abandon")
            return
        case .checking:
            terminal.setStatus("checking the code…")
            return
        case .idle:
            break
        }
        switch viewModel.activity.value {
        case .loading(let query, let page):
            // Worded unlike a page header ("page 1 of N"), which scripts look for.
            terminal.setStatus(TextSanitizer.sanitize("loading \(query), page \(page)…"))
            return
        case .lookingUp(let what):
            terminal.setStatus(TextSanitizer.sanitize("looking up \(what)…"))
            return
        case .idle:
            break
        }
        let progress = viewModel.progress.value
        guard progress.total > 0, !progress.isComplete else {
            terminal.setStatus(nil)
            return
        }
        terminal.setStatus(StatusText.progress(progress))
    }

    private func show(_ notice: Notice) {
        switch notice {
        case .info(let text): terminal.print(TextSanitizer.sanitize(text))
        case .warning(let text): terminal.print("warning: " + TextSanitizer.sanitize(text))
        case .error(let text): terminal.print("error: " + TextSanitizer.sanitize(text))
        }
        resumeInputIfIdle()
    }

    // MARK: - Lifecycle

    func quit() {
        guard !isStopped else { return }
        isStopped = true
        printer.discardPending(flushing: false)
        viewModel.shutdown()
        terminal.setStatus(nil)
        printer.releaseImages()
        terminal.stop()
        // The caller shuts the pipeline down next: no render may still be
        // running on the pictures it holds.
        Task { @MainActor in
            await printer.stop()
            onQuit?()
        }
    }

    /// In plain (scripted) mode each command waits for the previous one's
    /// page, so `kittens` then an empty line reads page 1, then page 2.
    func pauseInputUntilIdle() {
        guard !terminal.isInteractive else { return }
        terminal.pauseInput()
    }

    private func resumeInputIfIdle() {
        guard !terminal.isInteractive, viewModel.activity.value == .idle, printer.isIdle else { return }
        // A sign-in asking or checking decides what the next line is.
        switch viewModel.signIn.value {
        case .asking, .checking: return
        case .idle, .waitingForCode: break
        }
        terminal.resumeInput()
    }
}
