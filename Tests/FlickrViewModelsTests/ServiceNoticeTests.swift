import PhotoCore
@testable import FlickrViewModels
import Foundation
import ImagePipeline
import TestSupport
import Testing

/// What a service says while it works reaches the person as a notice.
@MainActor
@Suite struct ServiceNoticeTests {
    @Test func aServicesWordsBecomeANotice() async throws {
        let notices = ServiceNotices()
        let viewModel = FlickrViewModel(
            services: [.init(provider: InMemoryProvider(count: 3), perPage: 3)],
            pipeline: ImageDownloadManager(fetcher: ScriptedImageFetcher()), notices: notices)
        notices.post("Openverse asked to wait 5 s (rate limit); trying again then.")
        try await eventually("notice") { viewModel.notice.value != nil }
        #expect(viewModel.notice.value == .info("Openverse asked to wait 5 s (rate limit); trying again then."))
    }
}
