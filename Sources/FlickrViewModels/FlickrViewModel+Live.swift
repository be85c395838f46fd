import Binding
import PhotoCore
import Foundation

/// Results while typing: a pause in typing searches the text so far, the
/// live line shows what came back, and Enter on the same text shows that
/// page with no request.
extension FlickrViewModel {
    /// What the live line under the prompt should say.
    public var liveResult: Observable<LiveResult> { live.result }

    /// The first row of the page found while typing, loading ahead of Enter.
    public var liveFirstRow: Observable<[ImageModel]> { live.firstRow }

    /// Searches sent by live search this run (tests and the benchmark).
    public var liveSearchesSent: Int { live.searchesSent }

    /// Whether a pause in typing searches.
    public var isLiveSearchOn: Bool { liveEnabled }

    /// `--live-delay`: the pause before a live search (the provider may
    /// ask for longer); zero turns live search off.
    public func configureLiveSearch(delay: Duration) {
        liveChosenDelay = delay > .zero ? delay : nil
        setLiveSearch(on: delay > .zero)
    }

    /// `/live on|off`.
    public func setLiveSearch(on: Bool) {
        liveEnabled = on
        if !on { live.cancelAll() }
    }

    /// How many cells a grid row holds, so the first row loads ahead.
    public var liveRowLength: Int {
        get { live.rowLength }
        set { live.rowLength = max(1, newValue) }
    }

    /// The line being typed is now `text`.
    public func typing(_ text: String) {
        let setup = services.first { $0.provider.service == provider.service }
        let policy = setup?.liveSearch ?? .standard
        guard let key = liveKey(for: text, policy: policy) else {
            live.textChanged(to: nil, after: .zero, search: { throw CancellationError() }, makeCells: { _ in [] })
            return
        }
        live.textChanged(
            to: key, after: policy.pause(chosen: liveChosenDelay),
            search: Self.firstPage(of: key.query, perPage: key.perPage, from: provider),
            makeCells: { [weak self] page in
                self?.factory.cells(for: page.photos, startingAt: 1) ?? []
            })
    }

    private nonisolated static func firstPage(
        of query: SearchQuery, perPage: Int, from provider: any PhotoProvider
    ) -> @Sendable () async throws -> PhotoPage {
        { try await provider.search(query, page: 1, perPage: perPage) }
    }

    /// The line was submitted, cleared, or the prompt left: the live line
    /// goes (a page it found stays for Enter on the same text).
    public func lineEnded() {
        live.lineEnded()
    }

    /// What a live search for `text` would be; nil when nothing should be
    /// searched (off, a command, too short, a filter still being typed).
    private func liveKey(for text: String, policy: LiveSearchPolicy) -> LiveSearch.Key? {
        // While `/login` is under way the line may be its code: never sent as a search.
        guard liveEnabled, signIn.value == .idle, !text.drop(while: \.isWhitespace).hasPrefix("/"), policy.allows(text)
        else { return nil }
        guard case .notALink = provider.capabilities.links.available?.readLink(text.trimmingCharacters(in: .whitespaces)) ?? .notALink,
            foreignLinkSentence(text) == nil
        else { return nil }
        guard let query = try? searchQuery(typed: text) else { return nil }
        return liveKey(for: query)
    }

    /// The key a live search for `query` had, at this service and page size.
    private func liveKey(for query: SearchQuery) -> LiveSearch.Key {
        LiveSearch.Key(provider: provider.service.id + "\u{0}" + provider.displayName, query: query, perPage: perPage)
    }

    /// The page live search found for `query` as a new search now would
    /// ask it, handed over; its cells load again if they were stopped.
    func takeLivePage(for query: ResultQuery) -> LiveSearch.Found? {
        guard case .search(let search) = query, pageSize == perPage else { return nil }
        guard let found = live.take(liveKey(for: search)) else { return nil }
        for cell in found.cells { if case .cancelled = cell.state.value { cell.retry() } }
        return found
    }

    /// The live search for `query` still on its way, handed over so that
    /// Enter waits for it instead of sending the same request again.
    func joinLiveSearch(for query: ResultQuery) -> Task<PhotoPage, any Error>? {
        guard case .search(let search) = query, pageSize == perPage else { return nil }
        return live.join(liveKey(for: search))
    }
}
