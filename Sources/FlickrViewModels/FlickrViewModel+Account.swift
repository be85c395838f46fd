import Binding
import PhotoCore
import Foundation

/// Where `/login` is.
public enum SignInStep: Sendable, Equatable {
    case idle
    /// Asking the service for the address where the app is approved.
    case asking
    /// The address is shown; the next line typed is the code it gives.
    case waitingForCode(URL)
    /// The code is being checked.
    case checking
}

extension ResultQuery {
    /// The favourites `name` names at `provider` (`flickr faves NAME`,
    /// `/faves NAME`); nil or `me`: yours, once the service says who you
    /// are, so nobody signed in is a sentence rather than a failed page.
    public static func favourites(named name: String?, at provider: any PhotoProvider) async throws -> ResultQuery {
        _ = try provider.capabilities.favourites.required()
        let collections = try provider.capabilities.collections.required()
        guard let name, name.lowercased() != "me" else {
            _ = try await collections.person(named: "me")
            return .favourites(nil)
        }
        return .favourites(try await collections.person(named: name))
    }
}

/// Your account at the prompt: `/login`, `/me`, `/faves`, `/fave N` and
/// `/unfave N`. The service does the work (its favourites capability and
/// the sign-in it carries); a service without them says so in its words.
extension FlickrViewModel {
    /// `/me`: the signed-in person's photostream, non-public photos included.
    public func showMine() {
        // A service without accounts says so, rather than looking up a person called "me".
        guard favouritesOrSay() != nil else { return }
        showPerson("me")
    }

    /// `/faves [NAME]`: a person's favourites, or without a name (or `me`) your own.
    public func showFavourites(of name: String?) {
        guard favouritesOrSay() != nil else { return }
        let named = name.flatMap { $0.lowercased() == "me" ? nil : $0 }
        lookUp(named.map { "the favourites of “\($0)”" } ?? "your favourites") { provider in
            .query(try await ResultQuery.favourites(named: named, at: provider))
        }
    }

    /// `/fave N` (`adding`) or `/unfave N`: changes your favourites, then
    /// says so in one line.
    public func changeFavourite(_ number: Int, adding: Bool) {
        guard let favourites = favouritesOrSay() else { return }
        let all = cells
        guard let cell = all.first(where: { $0.number == number }) else {
            noticeSource.value = .error(all.isEmpty
                ? "No results yet: show some photos, then /\(adding ? "fave" : "unfave") a result number."
                : "No result \(number): results \(all[0].number)–\(all[all.count - 1].number) are loaded.")
            return
        }
        let photo = cell.photo
        let name = "#\(number) “\(photo.title.isEmpty ? "untitled" : photo.title)”"
        Task { [weak self] in
            do {
                if adding {
                    try await favourites.addFavourite(photo)
                } else {
                    try await favourites.removeFavourite(photo)
                }
                self?.noticeSource.value = .info(adding ? "\(name) is one of your favourites now." : "\(name) is no longer one of your favourites.")
            } catch {
                if error is CancellationError { return }
                self?.noticeSource.value = .error(userMessage(for: error))
            }
        }
    }

    // MARK: - Signing in

    /// `/login`: asks the service for the address where the app is approved;
    /// the next line typed is then the code it shows (`finishSignIn`).
    public func startSignIn() {
        guard let account = favouritesOrSay()?.account else { return }
        signInTask?.cancel()
        signInSource.value = .asking
        signInTask = Task { [weak self] in
            do {
                let address = try await account.startSignIn()
                guard let self, !Task.isCancelled else { return }
                self.signInSource.value = .waitingForCode(address)
            } catch {
                guard let self, !Task.isCancelled else { return }
                self.signInSource.value = .idle
                self.noticeSource.value = .error(userMessage(for: error))
            }
        }
    }

    /// A line typed while `/login` is under way, when it is the sign-in's:
    /// while the address is awaited a code-shaped line is refused (it would
    /// otherwise be a search, kept in the session); once it is shown, the
    /// code is checked, other text is refused, and an empty line or
    /// `/cancel` abandons. Commands stay commands. Returns whether the line
    /// was taken; the code itself is never repeated back.
    public func takeSignInLine(_ line: String) -> Bool {
        let text = line.trimmingCharacters(in: .whitespaces)
        switch signIn.value {
        case .idle:
            return false
        case .asking, .checking:
            guard Self.isSignInCode(text) else { return false }
            noticeSource.value = .info("The sign-in address is not shown yet: type the code from the page it opens once it is.")
            return true
        case .waitingForCode:
            if text.isEmpty || text.lowercased() == "/cancel" {
                cancelSignIn()
                return true
            }
            if text.hasPrefix("/") { return false }
            guard Self.isSignInCode(text) else {
                noticeSource.value = .error("That is not a sign-in code: the page at the address shows one like 123-456-789. Type it, or an empty line or /cancel to abandon.")
                return true
            }
            finishSignIn(code: text)
            return true
        }
    }

    /// Whether `text` is shaped like the code an approval page shows
    /// (Flickr's `123-456-789`): digits and dashes, nothing else.
    public nonisolated static func isSignInCode(_ text: String) -> Bool {
        text.count <= 64 && text.contains { $0.isASCII && $0.isNumber }
            && text.allSatisfy { $0 == "-" || ($0.isASCII && $0.isNumber) }
    }

    private func finishSignIn(code: String) {
        guard let account = provider.capabilities.favourites.available?.account else { return }
        signInSource.value = .checking
        let service = provider.displayName
        signInTask = Task { [weak self] in
            do {
                let person = try await account.finishSignIn(verifier: code)
                guard let self, !Task.isCancelled else { return }
                self.signInSource.value = .idle
                self.noticeSource.value = .info(
                    "Signed in to \(service) as \(Self.signedInName(person)). /me shows your photos, /faves your favourites.")
            } catch {
                guard let self, !Task.isCancelled else { return }
                self.signInSource.value = .idle
                self.noticeSource.value = .error(userMessage(for: error))
            }
        }
    }

    /// Abandons a `/login` under way; whoever was signed in stays so.
    public func cancelSignIn() {
        signInTask?.cancel()
        signInTask = nil
        guard signIn.value != .idle else { return }
        signInSource.value = .idle
        noticeSource.value = .info("Sign-in abandoned.")
    }

    /// "Ana Paula Souza (anasouza, 12345678@N01)".
    static func signedInName(_ person: Person) -> String {
        guard let real = person.realName, real != person.username else { return "\(person.username) (\(person.id))" }
        return "\(real) (\(person.username), \(person.id))"
    }

    /// The service's favourites, or its sentence shown and nil.
    private func favouritesOrSay() -> (any Favourites)? {
        switch provider.capabilities.favourites {
        case .supported(let favourites): return favourites
        case .unsupported(let sentence):
            noticeSource.value = .info(sentence)
            return nil
        }
    }
}
