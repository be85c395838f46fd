import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import PhotoCore

/// The channel services speak through while they work.
@Suite struct ServiceNoticesTests {
    @Test func listenersHearUntilTheyStop() {
        let notices = ServiceNotices()
        let heard = NIOLockedValueBox<[String]>([])
        var listening: ServiceNotices.Listening? = notices.listen { text in heard.withLockedValue { $0.append(text) } }
        notices.post("one")
        listening?.cancel()
        notices.post("two")
        #expect(heard.withLockedValue { $0 } == ["one"])

        listening = notices.listen { text in heard.withLockedValue { $0.append(text) } }
        notices.post("three")
        listening = nil
        notices.post("four")
        #expect(heard.withLockedValue { $0 } == ["one", "three"], "a released listening stops too")
        _ = listening
    }
}
