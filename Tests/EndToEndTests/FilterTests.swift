import Foundation
import Sandbox
import Testing
import TestSupport

extension EndToEnd {
    /// Filters typed with the words and through `/filter`, in the real binary.
    @Suite("Filters")
    struct Filters {
        @Test func filtersNarrowShowInTheHeaderAndStayUntilChanged() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let process = try app.launch()
                try await process.waitForFirstListing()

                var mark = process.mark()
                try await process.enter("kittens license:cc0,pdm")
                let narrowed = try await process.waitForHeader(page: 1, after: mark)
                #expect(process.text(since: mark).contains("“kittens” · CC0, PDM · page 1"), "\(process.text(since: mark))")
                let allowed = sandbox.catalog.search(text: "kittens").map(sandbox.catalog.photo(at:)).filter { [9, 10].contains($0.license) }
                #expect(narrowed.total == allowed.count)

                mark = process.mark()
                try await process.enter("/filter")
                try await process.waitFor(text: "Filters: license:cc0,pdm", after: mark)

                mark = process.mark()
                try await process.enter("/filter sort:oldest")
                try await process.waitFor(text: "Enter searches “kittens” again with them.", after: mark)
                mark = process.mark()
                try await process.enter("")
                _ = try await process.waitForHeader(page: 1, after: mark)
                #expect(process.text(since: mark).contains("“kittens” · CC0, PDM · oldest · page 1"), "\(process.text(since: mark))")

                mark = process.mark()
                try await process.enter("/filter taken:2020..banana")
                try await process.waitFor(text: "“2020..banana” is not a date or a range of dates.", after: mark)

                mark = process.mark()
                try await process.enter("/filter clear")
                try await process.waitFor(text: "Filters cleared.", after: mark)
                mark = process.mark()
                try await process.enter("sunset")
                let plain = try await process.waitForHeader(page: 1, after: mark)
                #expect(plain.total == sandbox.catalog.search(text: "sunset").count)
                #expect(try await process.quit() == .exited(0))
            }
        }

        @Test func aFilterTheServiceCannotHonourIsRefusedInASentence() async throws {
            try await SandboxHarness.with(sandboxConfiguration()) { sandbox in
                let app = try FlickrApp(sandbox: sandbox)
                let result = try await app.run(["search", "kittens", "orientation:square"])
                #expect(result.status == .exited(1), "\(result.transcript)")
                #expect(result.errorText.contains("Flickr cannot filter by orientation:; it supports license:"), "\(result.errorText)")
                let malformed = try await app.run(["search", "kittens", "license:gpl"])
                #expect(malformed.status != .exited(0))
                #expect(malformed.errorText.contains("Unknown licence “gpl”. Use license: with cc, cc0"), "\(malformed.errorText)")
            }
        }
    }
}
