#!/usr/bin/env python3
"""Writes flickr(1) in man(7) format from the built binary itself, so the page
cannot drift from what the binary does:

- the commands and options from `flickr --experimental-dump-help`
  (swift-argument-parser's description of every command, the one `--help`
  prints);
- the prompt's commands from the app's own `/help`, read through plain stdin;
- the environment variables that `--help` names, each with a sentence kept
  here; a variable `--help` names without one here stops the build, so a new
  one cannot ship undocumented.

Usage: manpage.py DUMP_HELP.json PROMPT_HELP.txt VERSION DATE > flickr.1
"""

import json
import re
import sys

# Variables the app reads that `--help` does not name, and a sentence for each
# one it does. The keys must cover every variable `--help` names.
ENVIRONMENT = {
    "FLICKR_API_KEY": "Flickr API key, as --api-key. Without it (and without --api-url) "
    "Flickr runs against the embedded sandbox.",
    "FLICKR_API_SECRET": "The secret of the Flickr key, as --api-secret: it signs in and signs a "
    "signed-in account's requests. It is never saved.",
    "FLICKR_API_URL": "Another Flickr-compatible endpoint, as --api-url; for example a "
    "sandbox started with flickr sandbox.",
    "SHUTTERSTOCK_API_TOKEN": "Shutterstock API token (Bearer).",
    "SHUTTERSTOCK_KEY": "Shutterstock consumer key, with SHUTTERSTOCK_SECRET (Basic "
    "authentication) when there is no token.",
    "SHUTTERSTOCK_SECRET": "Shutterstock consumer secret, with SHUTTERSTOCK_KEY.",
    "SHUTTERSTOCK_API_URL": "Another Shutterstock-compatible endpoint, as --api-url.",
    "OPENVERSE_CLIENT_ID": "Openverse client id, with OPENVERSE_CLIENT_SECRET: the app "
    "fetches a token and may ask for pages of up to 500 (20 without).",
    "OPENVERSE_CLIENT_SECRET": "Openverse client secret, with OPENVERSE_CLIENT_ID.",
    "OPENVERSE_API_URL": "Another Openverse-compatible endpoint, as --api-url. Openverse "
    "needs no key, so without this it always talks to the real API.",
    "COMMONS_API_URL": "Another MediaWiki api.php for Wikimedia Commons, as --api-url; for "
    "example the sandbox's, http://127.0.0.1:8080/w/api.php. Commons needs no key.",
    "FLICKR_PROBE_TIMEOUT_MS": "How long --images auto waits for the terminal to say "
    "what it can draw (default 250 ms), for slow links.",
    "XDG_STATE_HOME": "History and the last session go to $XDG_STATE_HOME/flickr "
    "(default ~/.local/state/flickr), one of each per service.",
    "XDG_CACHE_HOME": "Images and thumbnails as drawn go to $XDG_CACHE_HOME/flickr "
    "(default ~/.cache/flickr).",
    "XDG_CONFIG_HOME": "flickr login keeps the Flickr sign-in in $XDG_CONFIG_HOME/flickr "
    "(default ~/.config/flickr), readable only by you.",
    "NO_COLOR": "When set, no colour.",
    "TERM": "With TERM=dumb the app reads plain lines and prints plain text, as when "
    "standard input is not a terminal.",
}
ALWAYS_DOCUMENTED = ["XDG_STATE_HOME", "XDG_CACHE_HOME", "NO_COLOR", "TERM"]

# Typography man(7) spells out, so the page renders the same in any locale.
GLYPHS = {"…": "...", "–": r"\(en", "—": r"\(em", "“": r"\(lq", "”": r"\(rq",
          "‘": r"\(oq", "’": r"\(cq", "≈": r"\(~~", "·": r"\(pc", "×": r"\(mu"}


def escape(text):
    """Text made literal for man(7): backslashes, hyphens (so commands copy as
    typed), typography, and a leading dot or quote that would read as a request."""
    text = text.replace("\\", r"\e").replace("-", r"\-")
    for glyph, spelled in GLYPHS.items():
        text = text.replace(glyph, spelled)
    return re.sub(r"^([.'])", r"\\&\1", text, flags=re.M)


def paragraphs(text):
    """A discussion as man(7): blank lines part paragraphs, lines indented by
    two spaces are the items of a list."""
    out = []
    for block in text.strip().split("\n\n"):
        out.append(".PP")
        for line in block.split("\n"):
            if line.startswith("  "):
                out += [".PD 0", '.IP "" 4', escape(line.strip()), ".PD"]
            else:
                out.append(escape(line))
    return out


def names_of(argument):
    return [("-" if n["kind"] == "short" else "--") + n["name"] for n in argument.get("names", [])]


def shown(argument):
    names = names_of(argument)
    return argument.get("shouldDisplay", True) and not ({"-h", "--help", "--version"} & set(names))


def synopsis_word(argument):
    value = argument.get("valueName", "value")
    if argument["kind"] == "positional":
        word = f"\\fI{escape(value)}\\fR" + (" ..." if argument.get("isRepeating") else "")
    else:
        word = f"\\fB{escape(names_of(argument)[0])}\\fR"
        if argument["kind"] == "option":
            word += f" \\fI{escape(value)}\\fR"
    return f"[{word}]" if argument.get("isOptional") else word


def option_item(argument):
    if argument["kind"] == "positional":
        tag = f"\\fI{escape(argument.get('valueName', 'value'))}\\fR"
    else:
        tag = ", ".join(f"\\fB{escape(name)}\\fR" for name in names_of(argument))
        if argument["kind"] == "option":
            tag += f" \\fI{escape(argument.get('valueName', 'value'))}\\fR"
    text = argument.get("abstract", "")
    notes = []
    values = argument.get("allValues")
    if values and "values:" not in text:
        notes.append("values: " + ", ".join(values))
    if "defaultValue" in argument and "default" not in text:
        notes.append("default: " + argument["defaultValue"])
    if notes:
        text += " (" + "; ".join(notes) + ")"
    out = [".TP", tag, escape(text)]
    if argument.get("discussion"):
        out += [".IP", escape(argument["discussion"].strip())]
    return out


def command_section(command, parents):
    name = " ".join(parents + [command["commandName"]])
    arguments = [a for a in command.get("arguments", []) if shown(a)]
    out = [".SS " + escape(name), ".B " + escape(name)]
    out += [" ".join(synopsis_word(a) for a in arguments)]
    out += [".PP", escape(command.get("abstract", ""))]
    if command.get("discussion"):
        out += paragraphs(command["discussion"])
    out += [line for a in arguments for line in option_item(a)]
    return out


def prompt_commands(help_text):
    """`/help`'s lines: two spaces, the usage, two spaces or more, the meaning."""
    rows = [re.match(r"^  (\S.*?) {2,}(\S.*)$", line) for line in help_text.splitlines()]
    rows = [row.groups() for row in rows if row]
    if not any(usage.startswith("/help") for usage, _ in rows):
        sys.exit("manpage.py: the prompt's /help printed no command list; got:\n" + help_text)
    out = []
    for usage, meaning in rows:
        out += [".TP", f"\\fB{escape(usage)}\\fR", escape(meaning[0].upper() + meaning[1:]) + "."]
    return out


def all_text(command):
    yield command.get("abstract", "")
    yield command.get("discussion", "")
    for argument in command.get("arguments", []):
        yield argument.get("abstract", "")
        yield argument.get("discussion", "")
    for sub in command.get("subcommands", []):
        yield from all_text(sub)


def environment(root):
    named = set()
    for text in all_text(root):
        named.update(re.findall(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b", text))
    undocumented = sorted(named - set(ENVIRONMENT))
    if undocumented:
        sys.exit("manpage.py: --help names " + ", ".join(undocumented)
                 + " but Scripts/lib/manpage.py has no sentence for it: add one to ENVIRONMENT")
    out = []
    for variable in sorted(named | set(ALWAYS_DOCUMENTED)):
        out += [".TP", f"\\fB{escape(variable)}\\fR", escape(ENVIRONMENT[variable])]
    return out


def main():
    dump_path, prompt_path, version, date = sys.argv[1:5]
    with open(dump_path, encoding="utf-8") as dump:
        root = json.load(dump)["command"]
    with open(prompt_path, encoding="utf-8") as prompt:
        prompt_help = prompt.read()
    commands = [c for c in root.get("subcommands", []) if c.get("shouldDisplay", True) and c["commandName"] != "help"]
    default = root.get("defaultSubcommand")

    page = [
        f'.TH FLICKR 1 "{date}" "flickr {escape(version)}" "User Commands"',
        # Left-aligned and unhyphenated: option names and URLs stay whole.
        ".nh",
        ".ad l",
        ".SH NAME",
        "flickr \\- " + escape(root.get("abstract", "")[0].lower() + root.get("abstract", "")[1:].rstrip(".")),
        ".SH SYNOPSIS",
    ]
    for command in commands:
        words = [synopsis_word(a) for a in command.get("arguments", []) if shown(a)]
        usage = "flickr" if command["commandName"] == default else "flickr " + command["commandName"]
        page += [".PP", f".B {escape(usage)}", " ".join(words)]
    page += [".PP", ".B flickr", "\\fB\\-\\-version\\fR | \\fB\\-h\\fR, \\fB\\-\\-help\\fR | "
             "\\fB\\-\\-generate\\-completion\\-script\\fR \\fIbash\\fR|\\fIzsh\\fR|\\fIfish\\fR"]
    page += [".SH DESCRIPTION"] + paragraphs(root.get("discussion", ""))
    page += [".SH COMMANDS"]
    for command in commands:
        page += command_section(command, ["flickr"])
    page += [
        ".SH COMMANDS AT THE PROMPT",
        "In the interactive app, words and Enter search; a line that starts with",
        ".B /",
        "is a command. Up\\-arrow recalls earlier queries (also from earlier runs),",
        "Tab completes commands and filter words, and a pasted Flickr link opens",
        "the photo, person, album, gallery or group pool it names.",
        "This is the list",
        ".B /help",
        "prints:",
    ] + prompt_commands(prompt_help)
    page += [".SH ENVIRONMENT"] + environment(root)
    page += [
        ".SH EXIT STATUS",
        "0 on success; 64 when the command line is not understood; 130 when Ctrl\\-C",
        "stops a download; 1 for any other failure, with a message on standard error",
        "that says what failed and what to do.",
        ".SH COPYRIGHT",
        "The source is under the Apache License 2.0. This binary is linked with GNU",
        "readline (GPL\\-3.0\\-or\\-later), so it is distributed under the terms of the",
        "GNU General Public License version 3 or later; /usr/share/doc/flickr/copyright",
        "lists every library it contains or links, with its licence.",
        ".SH SEE ALSO",
        ".BR chafa (1),",
        ".BR timg (1),",
        ".BR readline (3)",
    ]
    sys.stdout.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
