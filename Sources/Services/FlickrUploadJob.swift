import FlickrService
import Foundation
import Networking
import PhotoCore

/// What `flickr upload` was asked to set on every photo, checked before
/// anything is sent.
public struct FlickrUploadSettings: Sendable {
    public var title: String?
    public var description: String?
    public var tags: String?
    public var license: FlickrUploadLicense?
    public var privacy: FlickrUploadPrivacy
    /// An album's id or title (a title no album has makes a new album).
    public var album: String?

    /// Private unless asked: a tool that publishes by default publishes by accident.
    public static let defaultPrivacy = FlickrUploadPrivacy.private

    public init(
        title: String?, description: String?, tags: String?, license: String?, privacy: String?, album: String?
    ) throws(FlickrUploadSettingError) {
        self.title = title
        self.description = description
        self.tags = tags
        self.license = try license.map { text throws(FlickrUploadSettingError) in try FlickrUploadLicense(text) }
        self.privacy = try privacy.map { text throws(FlickrUploadSettingError) in try FlickrUploadPrivacy(text) } ?? Self.defaultPrivacy
        let albumText = album?.trimmingCharacters(in: .whitespaces)
        self.album = albumText?.isEmpty == true ? nil : albumText
    }

    /// The form's text fields for `file`: title (the file's name without its
    /// extension unless given), description and tags when given, privacy always.
    func fields(for file: String) -> [(String, String)] {
        let name = Self.title(fromFileName: ((file as NSString).lastPathComponent as NSString).deletingPathExtension)
        var fields = [("title", title ?? name)]
        if let description { fields.append(("description", description)) }
        if let tags { fields.append(("tags", tags)) }
        return fields + privacy.fields
    }

    /// A file name as a title: control characters (an escape, a newline)
    /// and marks that turn text around are not a title's, and would travel
    /// to Flickr and every page that shows it. Each becomes a space.
    static func title(fromFileName name: String) -> String {
        let turning: [ClosedRange<UInt32>] = [0x061C...0x061C, 0x200E...0x200F, 0x202A...0x202E, 0x2066...0x2069]
        let cleaned = String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
            let isControl = scalar.properties.generalCategory == .control
            return isControl || turning.contains { $0.contains(scalar.value) } ? " " : scalar
        }))
        return cleaned.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}

/// One run of `flickr upload`: each file hashed, looked up in the record,
/// sent (its licence and album set after), remembered, and reported. A file
/// that fails is reported and the others go on; a refused sign-in (Flickr's
/// 98) or a record that cannot be kept ends the run, since every later file
/// would meet the same.
public struct FlickrUploadJob: Sendable {
    let session: FlickrAccountSession
    let settings: FlickrUploadSettings
    let paths: [String]
    let stateDirectory: URL
    let printer: FlickrUploadPrinter

    public init(session: FlickrAccountSession, settings: FlickrUploadSettings, paths: [String], stateDirectory: URL,
                printer: FlickrUploadPrinter) {
        self.session = session
        self.settings = settings
        self.paths = paths
        self.stateDirectory = stateDirectory
        self.printer = printer
    }

    /// Runs the uploads; the counts (with `failed` for the exit status).
    public func run() async throws -> FlickrUploadTally {
        // Who is signed in, asked of the server: an expired token stops here, before any file.
        let account = try await session.signedIn()
        let record = FlickrUploadRecord(stateDirectory: stateDirectory, issuer: session.oauth.issuer, userNSID: account.userNSID)
        try record.check()
        var album: FlickrOAuth.UploadAlbum?
        if let text = settings.album { album = try await session.oauth.album(named: text, account: account) }
        var tally = FlickrUploadTally()
        for entry in FlickrUploadFiles.entries(paths) {
            let outcome: FlickrUploadOutcome
            switch entry {
            case .skipped(let path, let reason):
                outcome = FlickrUploadOutcome(file: path, result: .skipped(reason))
            case .missing(let path, let reason):
                outcome = FlickrUploadOutcome(file: path, result: .failed(reason))
            case .file(let path, let length):
                outcome = try await send(path, length: length, account: account, record: record, album: &album)
            }
            tally.add(outcome)
            printer.finished(outcome)
        }
        printer.summary(tally)
        return tally
    }

    /// One file: when the record knows its bytes, only the licence and album
    /// asked for are made so; else sent, remembered, licensed and filed.
    private func send(
        _ path: String, length: Int, account: FlickrAccount, record: FlickrUploadRecord, album: inout FlickrOAuth.UploadAlbum?
    ) async throws -> FlickrUploadOutcome {
        let digest: String
        let before = FlickrUploadFiles.stamp(of: path)
        do {
            digest = try FlickrUploadFiles.digest(of: path)
        } catch {
            return FlickrUploadOutcome(file: path, result: .failed(error.description))
        }
        if let known = try record.photoID(for: digest) {
            var outcome = FlickrUploadOutcome(file: path, result: .alreadyUploaded(id: known, url: url(known, account)))
            try await settle(known, alreadyUploaded: true, account: account, album: &album, into: &outcome)
            return outcome
        }
        let form = FlickrUploadForm(fields: settings.fields(for: path), filePath: path, fileLength: length,
                                    fileName: (path as NSString).lastPathComponent,
                                    originalFormat: FlickrUploadFiles.originalFormat(of: path))
        printer.started(path, length: form.body.length)
        let recorded = try record.photoIDs()
        let id: String
        do {
            id = try await session.oauth.upload(form, account: account, known: recorded) { sent, total in
                printer.progress(path, sent: sent, total: total)
            }
        } catch .tokenRejected(let detail) {
            throw FlickrAccountError.tokenRejected(detail)
        } catch {
            return FlickrUploadOutcome(file: path, result: .failed(error.description))
        }
        // A file written to while it was read and sent: the digest may not be
        // of the bytes Flickr got, so it is not remembered, and the person is told.
        guard let before, FlickrUploadFiles.stamp(of: path) == before else {
            return FlickrUploadOutcome(file: path, result: .failed(
                "It changed while it was being sent, so photo \(id) may hold only part of it and was not recorded: "
                    + "check that photo, then run again when the file is finished."))
        }
        // Remembered before anything else can fail, so a second run never sends it again.
        try record.remember(digest, photoID: id)
        var outcome = FlickrUploadOutcome(file: path, result: .uploaded(id: id, url: url(id, account)))
        try await settle(id, alreadyUploaded: false, account: account, album: &album, into: &outcome)
        return outcome
    }

    /// Gives photo `id` the licence and album asked for. A photo sent before
    /// gets only what it lacks (its licence is read first), and `outcome`
    /// says what changed; what fails becomes its problem. A refused sign-in
    /// ends the run, as everywhere.
    private func settle(
        _ id: String, alreadyUploaded: Bool, account: FlickrAccount, album: inout FlickrOAuth.UploadAlbum?,
        into outcome: inout FlickrUploadOutcome
    ) async throws {
        var problems: [String] = []
        if let license = settings.license {
            do throws(FlickrAccountError) {
                var current: Int?
                if alreadyUploaded { current = try await session.oauth.licenseID(ofPhoto: id, account: account) }
                if current != license.id {
                    try await session.oauth.setLicense(license, photoID: id, account: account)
                    if alreadyUploaded { outcome.licenseSet = license.id }
                }
            } catch .tokenRejected(let detail) {
                throw FlickrAccountError.tokenRejected(detail)
            } catch {
                problems.append("its licence was not set: \(error.description)")
            }
        }
        if let title = settings.album {
            do throws(FlickrAccountError) {
                let added: Bool
                if let existing = album {
                    added = try await session.oauth.addPhoto(id, to: existing, account: account)
                } else {
                    album = try await session.oauth.createAlbum(title: title, primaryPhotoID: id, account: account)
                    added = true
                }
                if added, alreadyUploaded { outcome.addedToAlbum = album?.title ?? title }
            } catch .tokenRejected(let detail) {
                throw FlickrAccountError.tokenRejected(detail)
            } catch {
                problems.append("it was not put in the album: \(error.description)")
            }
        }
        outcome.problem = problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    private func url(_ id: String, _ account: FlickrAccount) -> String {
        FlickrOAuth.photoPage(owner: account.userNSID, photoID: id)?.absoluteString ?? ""
    }
}
