#!/usr/bin/env python3
"""Writes flickr(1) in man(7) format from the built binary itself, so the page
cannot drift from what the binary does:

- the commands and options from `flickr --experimental-dump-help`
  (swift-argument-parser's description of every command, the one `--help`
  prints);
- the prompt's commands from the app's own `/help`, read through plain stdin;
- the environment variables from the "Environment:" section of `--help`
  (each provider's descriptor declares its own with a sentence, the app
  its few); a variable `--help` names anywhere without a sentence there
  stops the build, so a new one cannot ship undocumented.

Usage: manpage.py DUMP_HELP.json PROMPT_HELP.txt VERSION DATE > flickr.1
"""

import json
import re
import sys

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


ENVIRONMENT_HEADING = "Environment:"
ENVIRONMENT_LINE = re.compile(r"^  ([A-Z][A-Z0-9_]*)  (\S.*)$")


def split_environment(discussion):
    """The root discussion without its "Environment:" section, and that
    section's sentences by variable."""
    kept, sentences, inside = [], {}, False
    for line in discussion.split("\n"):
        if line == ENVIRONMENT_HEADING:
            inside = True
            continue
        row = ENVIRONMENT_LINE.match(line) if inside else None
        if row:
            sentences[row.group(1)] = row.group(2)
            continue
        inside = False
        kept.append(line)
    return "\n".join(kept), sentences


def environment(root, sentences):
    if not sentences:
        sys.exit("manpage.py: --help has no \"" + ENVIRONMENT_HEADING + "\" section with the variables' sentences")
    named = set()
    for text in all_text(root):
        named.update(re.findall(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b", text))
    undocumented = sorted(named - set(sentences))
    if undocumented:
        sys.exit("manpage.py: --help names " + ", ".join(undocumented)
                 + " but gives no sentence for it in its Environment section: declare it with one on its "
                 + "provider's descriptor (or in Sources/flickr/EnvironmentHelp.swift for the app's own)")
    out = []
    for variable in sorted(sentences):
        out += [".TP", f"\\fB{escape(variable)}\\fR", escape(sentences[variable])]
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
    description, sentences = split_environment(root.get("discussion", ""))
    page += [".SH DESCRIPTION"] + paragraphs(description)
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
    page += [".SH ENVIRONMENT"] + environment(root, sentences)
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
