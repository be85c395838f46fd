import Foundation
import FlickrViewModels
import Platform

/// The short texts the view shows for view-model state.
enum StatusText {
    /// `24/30 thumbnails · 380 KB · 1 failed`
    static func progress(_ progress: DownloadProgress) -> String {
        var parts = ["\(progress.loaded)/\(progress.total) thumbnails", ByteCount.format(progress.bytes)]
        if progress.failed > 0 { parts.append("\(progress.failed) failed") }
        if progress.cancelled > 0 { parts.append("\(progress.cancelled) cancelled") }
        return parts.joined(separator: " · ")
    }

    /// `Flickr · “kittens” · page 1 of 184 (5500 photos)`
    static func header(for page: ResultPage, query: ResultQuery?) -> String {
        let query = query.map { TextSanitizer.sanitize($0.description) } ?? ""
        var line = "\(TextSanitizer.sanitize(page.source)) · \(query) · page \(page.number) of \(page.pages) (\(page.total) photos)"
        if page.restored { line += " · from last time" }
        if page.cells.isEmpty { line += " · nothing here" }
        return line
    }

    /// `Flickr · albums of Ana Souza · 12 albums`
    static func header(for listing: AlbumListing) -> String {
        let count = listing.total
        return TextSanitizer.sanitize(
            "\(listing.source) · albums of \(listing.ownerName) · \(count) album\(count == 1 ? "" : "s")")
    }

    /// The service's details under an opened photo: the lines not already
    /// printed with it, each sanitised and fitted to the width; a long
    /// description keeps its first few lines.
    static func details(_ result: PhotoFactsResult, shownLabels: Set<String>, columns: Int) -> String? {
        switch result {
        case .unavailable(let reason):
            return TextSanitizer.fit("details: unavailable (" + TextSanitizer.sanitize(reason) + ")", columns: columns)
        case .facts(let facts):
            var out: [String] = []
            for (label, value) in facts.lines where !shownLabels.contains(label) {
                let clean = TextSanitizer.sanitize(value)
                guard !clean.isEmpty else { continue }
                if label == "description" {
                    let paragraphs = value.split(whereSeparator: \.isNewline).map { TextSanitizer.sanitize(String($0)) }
                    let kept = paragraphs.filter { !$0.isEmpty }.prefix(3)
                    out.append("\(label):")
                    out += kept.map { "  " + TextSanitizer.fit($0, columns: max(1, columns - 2)) }
                } else if label == "credit" {
                    out += copyable("credit: " + TextSanitizer.sanitize(value, maximumLength: copyableLength), columns: columns)
                } else {
                    out.append(TextSanitizer.fit("\(label): \(clean)", columns: columns))
                }
            }
            return out.isEmpty ? nil : out.joined(separator: "\n")
        }
    }

    /// Longest credit or link shown: whole for any real one, a bound for a
    /// hostile server's 10,000-character title.
    static let copyableLength = 2_000

    /// A line a person copies (the credit, the page link) in full, wrapped
    /// to the window instead of cut with "…". Each piece is short enough to
    /// pass the detail view's own sanitising unchanged.
    static func copyable(_ line: String, columns: Int) -> [String] {
        TextSanitizer.wrap(line, columns: min(columns, TextSanitizer.defaultMaximumLength))
    }

    /// The live line: `≈ 12,400 · Kittens in snow · Two kittens asleep · …`,
    /// `searching…`, `no results`, or the error; nil hides it. Fitted to
    /// `columns`, titles sanitised.
    static func liveLine(_ result: LiveResult, columns: Int) -> String? {
        let text: String
        switch result {
        case .hidden: return nil
        case .searching: text = "searching…"
        case .noResults: text = "no results"
        case .failed(let message): text = "search failed: " + TextSanitizer.sanitize(message)
        case .found(let total, let titles):
            let named = titles.map { TextSanitizer.sanitize($0) }.map { $0.isEmpty ? "(untitled)" : $0 }
            text = (["≈ \(total.formatted())"] + named + (total > named.count ? ["…"] : [])).joined(separator: " · ")
        }
        return TextSanitizer.fit(text, columns: max(1, columns))
    }

    static func statistics(
        _ stats: DownloadStatistics, results: Int, pages: Int, hasMore: Bool,
        renders: (count: Int, bytes: Int) = (0, 0), heap: (inUse: Int, heldFree: Int)? = nil
    ) -> String {
        var memory = "memory: images \(ByteCount.format(stats.memoryCacheBytes)) in \(stats.memoryCacheCount) · "
            + "drawn thumbnails \(ByteCount.format(renders.bytes)) in \(renders.count)"
        if let heap {
            memory += " · heap \(ByteCount.format(heap.inUse)) in use, \(ByteCount.format(heap.heldFree)) held free"
        }
        return """
        results: \(results) on \(pages) page\(pages == 1 ? "" : "s")\(hasMore ? ", more available" : "")
        downloads: \(stats.queued) queued · \(stats.running) running · \(stats.done) done · \(stats.failed) failed · \(stats.cancelled) cancelled · \(stats.coalesced) coalesced · \(stats.retries) retries
        cache hits: \(stats.memoryHits) memory · \(stats.diskHits) disk · downloaded \(ByteCount.format(stats.bytesDownloaded))
        \(memory)
        """
    }

    static func help(providers: [String]) -> String {
        let summaries = UserCommand.summaries(providers: providers)
        let width = summaries.map { DisplayWidth.of($0.usage) }.max() ?? 0
        return summaries.map { "  " + TextSanitizer.pad($0.usage, toColumns: width) + "  " + $0.meaning }
            .joined(separator: "\n")
    }
}
