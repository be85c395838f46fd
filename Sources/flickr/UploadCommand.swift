import ArgumentParser
import FlickrService
import Foundation
import PhotoCore
import Platform
import Services
import TerminalUI

/// `flickr upload`: wires the upload job (Services) to the stored sign-in,
/// the state folder and the terminal.
struct UploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload photos to your Flickr account.",
        discussion: """
            Needs a sign-in (`flickr login`). Each FILE is sent as it is; each FOLDER sends its JPEG, PNG, GIF \
            and WebP files (recognised by their first bytes, not their names), in name order, and skips the rest \
            with a count; folders inside it are not searched. Photos are private unless --privacy says otherwise \
            (Flickr would make them public). The licence is set after the upload; the album is found among your \
            albums by id or title, and made with the first photo when no album has that title.

            Nothing is sent twice: $XDG_STATE_HOME/flickr/uploads.json keeps the SHA-256 of every file sent and \
            the photo it became, per account and server, so a second run over a folder sends only what is new \
            and says how many were already uploaded; with --album or --license it also puts those already \
            uploaded in the album and gives them the licence where they lack it, and says so. When an upload's \
            answer is lost after the photo went out (a 503, a cut or silent connection), your newest photos are \
            searched for it (same title and privacy, uploaded since) before it is sent again.

            Prints one line per file (at a terminal, a progress line on standard error while it goes out) and a \
            summary; with --json, one JSON object per file: {"file","id","url"}, {"file","skipped"} (with "id" \
            and "url" when already uploaded, and "album" and "license" when this run changed them) or \
            {"file","error"}. Failures are retried like every call; a file that still fails is reported, the \
            others go on, and the exit status is 1. A setting that cannot be used exits with status 2 before \
            anything is sent.
            """)

    @Argument(help: ArgumentHelp("Photos, and folders of photos, to upload.", valueName: "file|folder"))
    var paths: [String]

    @Option(help: ArgumentHelp("Title of every photo (default: its file name without the extension).", valueName: "title"))
    var title: String?

    @Option(name: .customLong("description"), help: ArgumentHelp("Description of every photo.", valueName: "text"))
    var photoDescription: String?

    @Option(help: ArgumentHelp("Tags, separated by spaces; \"two words\" in quotes make one tag.", valueName: "tags"))
    var tags: String?

    @Option(help: ArgumentHelp(
        "Licence: by, by-sa, by-nd, by-nc, by-nc-sa, by-nc-nd (CC 4.0; by-2.0 and the like for older versions), cc0, pdm, all-rights-reserved, or Flickr's licence id.",
        valueName: "name|id"))
    var license: String?

    @Option(help: ArgumentHelp("Who may see the photos: public, friends, family, friends-family or private (default: private).",
                               valueName: "who"))
    var privacy: String?

    @Option(help: ArgumentHelp("Album to put the photos in: one of yours by id or title, or a new one by that title.",
                               valueName: "id|title"))
    var album: String?

    @Flag(help: "One JSON object per file on standard output (the summary goes to standard error).")
    var json = false

    @OptionGroup var account: FlickrAccountOptions

    func run() async throws {
        let settings = try usage { () throws(FlickrUploadSettingError) in
            try FlickrUploadSettings(title: title, description: photoDescription, tags: tags, license: license,
                                     privacy: privacy, album: album)
        }
        let environment = ProcessInfo.processInfo.environment
        let printer = FlickrUploadPrinter(
            json: json, showsProgress: Platform.isTerminal(Platform.standardError, environment: environment),
            sanitize: { TextSanitizer.sanitize($0) })
        let tally = try await account.withSession { session in
            try await FlickrUploadJob(session: session, settings: settings, paths: paths,
                                      stateDirectory: AppPaths(environment: environment).stateDirectory, printer: printer).run()
        }
        if tally.failed > 0 { throw ExitCode(1) }
    }

    /// A setting refused in a sentence, exit status 2 (before anything is sent).
    private func usage<T>(_ parse: () throws(FlickrUploadSettingError) -> T) throws -> T {
        do {
            return try parse()
        } catch {
            FileHandle.standardError.write(Data("Error: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
    }
}
