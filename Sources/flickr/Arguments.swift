import ArgumentParser
import PhotoCore
import Sandbox
import TerminalUI

// The values flags take, parsed and listed by ArgumentParser from the
// types' own names.
extension FlickrTerminalView.Layout: ExpressibleByArgument {}
extension ImageMode: ExpressibleByArgument {}
/// `--size`: the names a person types (`q`, `url_q`, `z`, `500`), as `PhotoSize` reads them.
extension PhotoSize: ExpressibleByArgument {}
extension FaultConfiguration.Kind: ExpressibleByArgument {}
extension FaultConfiguration.Scope: ExpressibleByArgument {}
extension HostileCase: ExpressibleByArgument {}
