import Testing
@testable import FlickrViewModels

/// While `/login` waits, only a line shaped like the code goes to the
/// service; anything else is refused at the prompt.
@Suite struct SignInCodeShapeTests {
    @Test(arguments: ["123-456-789", "123456789", "1-2"])
    func codesAreDigitsAndDashes(_ line: String) {
        #expect(FlickrViewModel.isSignInCode(line))
    }

    @Test(arguments: ["", "cats", "/quit", "/me", "---", "123 456", "１２３-４５６-７８９", String(repeating: "1", count: 65)])
    func otherLinesAreNotCodes(_ line: String) {
        #expect(!FlickrViewModel.isSignInCode(line))
    }
}
