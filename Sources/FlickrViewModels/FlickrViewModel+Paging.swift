import Binding
import PhotoCore
import Foundation
import ImagePipeline

/// Paging: a page requested (or taken from the prefetch or the live
/// search), published with its cells, and the next one read ahead once its
/// thumbnails are in.
extension FlickrViewModel {
    /// How a requested page arrived.
    enum Arrival {
        case fetched(PhotoPage)
        case prefetched(PagePrefetcher.Prefetched)
        case failed(any Error)
    }

    func requestPage(_ number: Int) {
        guard let query = query.value else { return }
        if let prefetched = prefetcher.takeIfReady(number) {
            // Shown at once, from memory.
            publish(prefetched.page, cells: prefetched.cells, restored: false)
            return
        }
        if number == 1, let found = takeLivePage(for: query) {
            // Found while the query was typed: no request.
            publish(found.page, cells: found.cells, restored: false)
            return
        }
        // Typed and Enter pressed before the live search answered: wait for
        // that answer rather than ask the same again.
        let joined = number == 1 ? joinLiveSearch(for: query) : nil
        let expected = generation
        activitySource.value = .loading(query, page: number)
        let provider = self.provider
        let perPage = pageSize
        pageTask = Task { [weak self] in
            guard let prefetcher = self?.prefetcher else { return }
            let arrival: Arrival
            if let joined {
                do {
                    arrival = .fetched(try await withTaskCancellationHandler {
                        try await joined.value
                    } onCancel: {
                        joined.cancel()
                    })
                } catch {
                    arrival = .failed(error)
                }
            } else if let prefetched = await prefetcher.take(number) {
                arrival = .prefetched(prefetched)
            } else {
                do {
                    arrival = .fetched(try await query.page(number, perPage: perPage, from: provider))
                } catch {
                    arrival = .failed(error)
                }
            }
            guard let self, self.generation == expected else { return }
            self.finish(arrival, page: number)
        }
    }

    /// Ends a page request: publishes the page, or reports why it failed.
    func finish(_ arrival: Arrival, page number: Int) {
        pageTask = nil
        activitySource.value = .idle
        switch arrival {
        case .fetched(let page):
            publish(page, cells: nil, restored: false)
        case .prefetched(let prefetched):
            publish(prefetched.page, cells: prefetched.cells, restored: false)
        case .failed(let error):
            if error is CancellationError { return }
            failedPage = number
            // A revoked sign-in fails the same way again: /login mends it, /retry would not.
            let mend = (error as? any SignInFailure)?.needsSignIn == true
                ? " /login signs in again." : " /retry loads page \(number) again."
            noticeSource.value = .error(userMessage(for: error) + mend)
        }
    }

    func publish(_ page: PhotoPage, cells prefetched: [ImageModel]?, restored: Bool) {
        for previous in cells where previous.state.value.isPending {
            previous.setPriority(.low)
        }
        let newCells = prefetched ?? factory.cells(for: page.photos, startingAt: nextNumber)
        let result = ResultPage(
            source: provider.displayName, number: page.page, pages: page.pages,
            lastServedPage: query.value?.lastServedPage(pages: page.pages, perPage: max(page.perPage, 1), from: provider) ?? page.pages,
            total: page.total, cells: newCells, restored: restored)

        cellTokens.removeAll()
        for cell in newCells {
            cell.state.observeChanges { [weak self] _ in self?.cellsChanged() }.store(in: &cellTokens)
        }
        pagesSource.value.append(result)
        progressSource.value = DownloadProgress(cells: newCells.filter(\.fetchesImage))
        for cell in newCells { cell.load(priority: .high) }

        if page.photos.isEmpty && page.page == 1 {
            noticeSource.value = .info("No photos match \(query.value?.description ?? "that").")
        }
        if !restored { saveSession() }
        cellsChanged()
    }

    func cellsChanged() {
        guard let newest = pages.value.last else { return }
        // Thumbnails not drawn are not fetched: they count for nothing.
        progressSource.value = DownloadProgress(cells: newest.cells.filter(\.fetchesImage))
        // A page whose downloads were cancelled was abandoned: nothing to read ahead for.
        if progress.value.isComplete && progress.value.cancelled == 0 { prefetchNextPage() }
    }

    /// Fetches the next page's metadata and thumbnails at low priority.
    func prefetchNextPage() {
        guard !prefetcher.isActive, activity.value == .idle, hasMore,
              let query = query.value, let last = pages.value.last
        else { return }
        let provider = self.provider
        let perPage = pageSize
        let number = last.number + 1
        prefetcher.start(
            number: number,
            fetch: { try await query.page(number, perPage: perPage, from: provider) },
            makeCells: { [weak self] page in
                guard let self else { return [] }
                return self.factory.cells(for: page.photos, startingAt: self.nextNumber)
            })
    }

    func noMoreMessage(for last: ResultPage) -> String {
        if last.lastServedPage < last.pages, let cap = provider.maxResults {
            return "No more results: \(provider.displayName) serves only the first \(cap.formatted()) of \(last.total.formatted()) photos. Narrow the search to see others."
        }
        return "No more results."
    }

    /// The page size the shown query is paged with.
    var pageSize: Int { restoredPerPage ?? perPage }

    /// The result number of the next cell made.
    var nextNumber: Int { cells.last.map { $0.number + 1 } ?? firstNumber }
}
