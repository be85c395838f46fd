import Binding
import Platform
import FlickrViewModels

/// What each line typed at the prompt does.
extension FlickrTerminalView {
    func handle(_ line: String) {
        hasHandledLine = true
        // A page the live line found is taken by a search for the same text
        // first; then the live line goes.
        defer { viewModel.lineEnded() }
        // While `/login` is under way a code-shaped line is the sign-in's
        // (an empty one or /cancel abandons); commands stay commands.
        if viewModel.takeSignInLine(line) {
            pauseInputUntilIdle()
            return
        }
        switch UserCommand.parse(line) {
        case .search(let text):
            pauseInputUntilIdle()
            viewModel.search(text)
        case .nextPage:
            pauseInputUntilIdle()
            viewModel.nextPage()
        case .recent:
            pauseInputUntilIdle()
            viewModel.showRecent()
        case .open(let number):
            if let detail = viewModel.open(number) { printer.printDetail(detail) }
        case .cancel:
            viewModel.cancel()
        case .retry:
            let restarted = viewModel.retry()
            if !restarted.isEmpty { printer.reprint(restarted) }
        case .layout(let layout):
            printer.options.layout = layout == .grid ? .grid : .list
            terminal.print("Layout: \(printer.options.layout.rawValue) (from the next page on).")
        case .provider(let name?):
            pauseInputUntilIdle()
            viewModel.switchProvider(to: name)
        case .provider(nil):
            terminal.print("Searching \(TextSanitizer.sanitize(viewModel.providerName)). /provider "
                + viewModel.providerChoices.joined(separator: " or /provider ") + " switches.")
        case .filter(let argument):
            viewModel.filter(argument)
        case .live(let on?):
            viewModel.setLiveSearch(on: on)
            terminal.print(liveSearchState)
        case .live(nil):
            terminal.print(liveSearchState)
        case .user(let name):
            pauseInputUntilIdle()
            viewModel.showPerson(name)
        case .albums(let name):
            pauseInputUntilIdle()
            viewModel.listAlbums(of: name)
        case .album(let argument):
            pauseInputUntilIdle()
            viewModel.openAlbum(argument)
        case .me:
            pauseInputUntilIdle()
            viewModel.showMine()
        case .faves(let name):
            pauseInputUntilIdle()
            viewModel.showFavourites(of: name)
        case .fave(let number):
            viewModel.changeFavourite(number, adding: true)
        case .unfave(let number):
            viewModel.changeFavourite(number, adding: false)
        case .login:
            pauseInputUntilIdle()
            viewModel.startSignIn()
        case .stats:
            terminal.print(StatusText.statistics(
                viewModel.statistics(), results: viewModel.cells.count,
                pages: viewModel.pages.value.count, hasMore: viewModel.hasMore,
                renders: printer.renderCacheUsage, heap: Platform.heapUsage()))
        case .help:
            terminal.print(StatusText.help(providers: viewModel.providerChoices))
        case .quit:
            quit()
        case .unknown(let name, let suggestion):
            let shown = TextSanitizer.fit(TextSanitizer.sanitize(name), columns: 30)
            terminal.print("Unknown command \(shown)." + (suggestion.map { " Did you mean \($0)?" } ?? "") + " /help lists commands.")
        case .invalid(let message):
            terminal.print(message)
        }
    }

    private var liveSearchState: String {
        guard terminal.isInteractive else { return "Results while typing need an interactive terminal." }
        return viewModel.isLiveSearchOn
            ? "Live search is on: a pause in typing searches; Enter shows the page it found. /live off turns it off."
            : "Live search is off. /live on turns it on."
    }

    func interrupt() {
        if viewModel.signIn.value != .idle {
            viewModel.cancelSignIn()
        } else if viewModel.hasPendingWork {
            viewModel.cancel()
        } else {
            terminal.print("Nothing to cancel. /quit or Ctrl-D leaves.")
        }
    }
}
