import Foundation
import Testing
@testable import PhotoCore
@testable import Networking
@testable import OpenverseService

/// `OPENVERSE_CLIENT_ID` and `OPENVERSE_CLIENT_SECRET`: both or neither.
@Suite struct OpenverseCredentialsTests {
    private let id = OpenverseCredentials.clientIDVariable
    private let secret = OpenverseCredentials.clientSecretVariable

    @Test func neitherMeansAnonymous() throws {
        #expect(try OpenverseCredentials(environment: [:]) == nil)
        #expect(try OpenverseCredentials(environment: ["OTHER": "x"]) == nil)
    }

    @Test func bothAreRead() throws {
        let credentials = try #require(try OpenverseCredentials(environment: [id: " my-id ", secret: "my-secret\n"]))
        #expect(credentials.tokenForm.map { [$0.0, $0.1] } == [
            ["client_id", "my-id"], ["client_secret", "my-secret"], ["grant_type", "client_credentials"],
        ])
    }

    @Test func oneAloneSaysWhichIsMissing() {
        let onlyID = #expect(throws: OpenverseError.self) { try OpenverseCredentials(environment: [id: "my-id"]) }
        #expect(onlyID?.description.hasPrefix("OPENVERSE_CLIENT_ID is set but OPENVERSE_CLIENT_SECRET is not") == true)
        let onlySecret = #expect(throws: OpenverseError.self) { try OpenverseCredentials(environment: [secret: "my-secret"]) }
        #expect(onlySecret?.description.hasPrefix("OPENVERSE_CLIENT_SECRET is set but OPENVERSE_CLIENT_ID is not") == true)
        #expect(onlySecret?.description.contains("my-secret") == false)
    }

    @Test func emptyIsAnErrorNamingTheVariable() {
        let emptySecret = #expect(throws: OpenverseError.self) { try OpenverseCredentials(environment: [id: "my-id", secret: "  "]) }
        #expect(emptySecret?.description.hasPrefix("OPENVERSE_CLIENT_SECRET is set but empty") == true)
        let emptyID = #expect(throws: OpenverseError.self) { try OpenverseCredentials(environment: [id: "", secret: "s"]) }
        #expect(emptyID?.description.hasPrefix("OPENVERSE_CLIENT_ID is set but empty") == true)
    }

    @Test func descriptionsAndMirrorsHideTheValues() async throws {
        let credentials = try OpenverseCredentials(clientID: "visible-id-123", clientSecret: "hidden-secret-456")
        let network = NetworkManager()
        let provider = OpenverseProvider(credentials: credentials, network: network)
        var dumped = ""
        dump(credentials, to: &dumped)
        dump(provider, to: &dumped)
        for text in [String(describing: credentials), String(reflecting: credentials), dumped,
                     String(describing: provider), String(reflecting: provider)] {
            #expect(!text.contains("hidden-secret-456") && !text.contains("visible-id-123"), "\(text)")
        }
        await network.shutdown()
    }
}
