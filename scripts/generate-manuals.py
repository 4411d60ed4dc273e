#!/usr/bin/env python3
"""Writes Vigil's manual pages: vigil(1), one vigil-COMMAND(1) per command and subcommand
(vigil-report.1, vigil-task-add.1), and vigil.yaml(5) for the config file.

The command pages come from the binary itself (`vigil --experimental-dump-help`, the command
definitions as swift-argument-parser sees them), so they match whatever commands it has; the
config page comes from the comments of the documented config the binary prints (`vigil config
documented`: config/vigil.yaml, which documents every key with its default, and the sections of
the plug-ins it was composed with).

Usage: scripts/generate-manuals.py --vigil PATH [--config FILE] [--config-doc PATH] --output DIR
The date on the pages is SOURCE_DATE_EPOCH's when it is set (reproducible builds), else today's.
"""

import argparse
import datetime
import json
import os
import re
import subprocess
import sys

# Failure.Code in Sources/App/VigilCLI/Vigil.swift: what each exit status means for every command.
SHARED_EXIT_CODES = [
    (0, "Success."),
    (1, "Nothing to act on, or refused (no session running, one already running), or another failure."),
    (64, "Bad usage: an unknown option, a missing argument or a bad value (dates included)."),
    (65, "Bad input data: a recording, the config file, an unknown task or habit."),
    (73, "Cannot create the data directory, the event log or an output file."),
    (74, "Read or write error (or session events that could not be logged)."),
]
SYNC_EXIT_CODES = [
    (69, "vigil-sync could not be started, or the server was set up by a newer Vigil."),
    (75, "The sync server cannot be reached; try later."),
    (77, "The sync server refused the user or password."),
    (78, "Sync is not set up, or its settings are wrong."),
]
# Commands that can end with more than the shared codes (their own "Exit codes:" paragraph, when
# their help has one, is used as well).
EXTRA_EXIT_CODES = {
    "daemon": [(69, "With --once: due reminders could not be sent (no notification service).")],
    "sync": SYNC_EXIT_CODES,
    "report": [(c, "With --group: " + t[0].lower() + t[1:]) for c, t in SYNC_EXIT_CODES],
}

# The environment Vigil reads (grep the sources for `environment[` and getenv).
ENV_COMMON = [
    ("HOME", "The home directory, for the defaults below."),
    ("XDG_CONFIG_HOME", "The config file is $XDG_CONFIG_HOME/vigil/config.yaml (default: ~/.config). "
     "A relative path is ignored, as the XDG Base Directory specification says."),
    ("XDG_DATA_HOME", "The data directory is $XDG_DATA_HOME/vigil (default: ~/.local/share)."),
    ("TZ", "The local time zone: days and hours of reports and habits, times shown."),
    ("NO_COLOR", "When set and not empty, no colours (https://no-color.org)."),
    ("TERM", "No colours on a dumb terminal."),
]
ENV_PAGER = [
    ("PAGER", "Long text reports are shown through it when standard output is a terminal (default: less; "
     "cat or empty: no pager)."),
    ("LESS", "Set to FRX for the pager when not set."),
]
ENV_SENSORS = [
    ("DISPLAY", "The X11 display whose idle time, blanking and front window are read."),
    ("WAYLAND_DISPLAY", "The Wayland compositor asked for idle time."),
    ("XDG_RUNTIME_DIR", "Where the Wayland socket and the session bus are."),
    ("I3SOCK, SWAYSOCK", "The i3 or sway IPC socket, for the application in front."),
    ("DBUS_SESSION_BUS_ADDRESS", "The session bus: desktop notifications, idle and lock from the desktop."),
    ("DBUS_SYSTEM_BUS_ADDRESS", "The system bus: sleep and lock from logind."),
    ("XDG_SESSION_ID", "The logind session followed."),
    ("PULSE_SERVER", "The sound server (with audio.server: default): microphone levels, calls, alarm sounds."),
]
ENV_SYNC = [
    ("PGHOST, PGPORT, PGUSER, PGDATABASE, PGSSLMODE", "The PostgreSQL server's address, user, database and TLS "
     "mode when sync.url does not give them, as libpq reads them."),
    ("PGPASSWORD", "The password when neither sync.url nor sync.password_file gives one."),
    ("USER", "The name a group sees you by when sync.alias is none."),
]
SENSOR_COMMANDS = {"start", "record", "sensors", "daemon"}
SYNC_COMMANDS = {"sync", "report", "device"}
PAGER_COMMANDS = {"report"}

FILES = [
    ("$XDG_CONFIG_HOME/vigil/config.yaml", "Your config (--config names another); see vigil.yaml(5)."),
    ("$XDG_CONFIG_HOME/vigil/motivation.yaml", "Your own motivation lines, added to the built-in ones (vigil motivate)."),
    ("$XDG_DATA_HOME/vigil/vigil.sqlite3", "The event log: sessions, episodes, tasks, habits (--data-dir names another directory)."),
    ("$XDG_DATA_HOME/vigil/running-session.json", "The running session's status, for vigil status and vigil stop."),
    ("$XDG_DATA_HOME/vigil/session.lock", "Held by the running session: one session at a time."),
    ("/usr/share/vigil/vigil.yaml", "Every config key with its default and its documentation (where the package installs it)."),
]


def roff_text(text):
    """Text safe for roff: backslashes, leading dots and quotes, non-ASCII as \\[uXXXX]."""
    text = text.replace("\\", "\\e")
    out = []
    for ch in text:
        if ord(ch) < 128:
            out.append(ch)
        else:
            out.append("\\[u%04X]" % ord(ch))
    lines = "".join(out).split("\n")
    return "\n".join("\\&" + line if line.startswith((".", "'")) else line for line in lines)


def inline(text):
    """Prose: `code` in bold, the rest as text."""
    parts = re.split(r"`([^`]*)`", text)
    out = []
    for index, part in enumerate(parts):
        if index % 2:
            out.append("\\fB" + roff_text(part).replace("-", "\\-") + "\\fR")
        else:
            # Options (--time-zone, -o) as minus signs: neither broken across lines nor hyphens.
            out.append(re.sub(r"(?<![A-Za-z0-9\\])--?[A-Za-z0-9][A-Za-z0-9-]*", lambda m: m.group(0).replace("-", "\\-"), roff_text(part)))
    return "".join(out)


def dashes(text):
    return roff_text(text).replace("-", "\\-")


def page_name(path):
    return "-".join(path)


def paragraphs(text):
    """Discussion text: paragraphs split at blank lines; lines of a paragraph joined unless indented."""
    blocks = []
    for block in re.split(r"\n\s*\n", text.strip("\n")):
        lines = block.split("\n")
        blocks.append(lines)
    return blocks


def split_discussion(text):
    """(description paragraphs, example lines, exit-code paragraph or None)."""
    description, examples, exit_codes = [], [], None
    for lines in paragraphs(text or ""):
        first = lines[0].strip()
        if first == "Examples:":
            examples += [line.strip() for line in lines[1:] if line.strip()]
        elif first.startswith("Exit codes:"):
            exit_codes = " ".join(line.strip() for line in lines)[len("Exit codes:"):].strip()
        else:
            description.append(lines)
    return description, examples, exit_codes


def parse_exit_codes(text):
    """'0 success, 1 refused (a, b), 64 bad usage' -> [(0, 'success'), ...]: commas at the top level
    that are followed by a number separate the codes."""
    items, depth, current = [], 0, ""
    for index, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if (ch in ",;") and depth == 0 and re.match(r"\s*(\w+ \w+ )?\d+ ", text[index + 1:]):
            items.append(current)
            current = ""
            continue
        current += ch
    items.append(current)
    codes = []
    for item in items:
        match = re.search(r"(\d+) (.*)", item.strip().rstrip("."))
        if match:
            meaning = match.group(2).strip()
            codes.append((int(match.group(1)), meaning[0].upper() + meaning[1:] + "."))
    return codes


def render_paragraph(lines):
    """A paragraph of help text: indented lines (lists, commands) kept as they are."""
    if any(line.startswith("  ") for line in lines[1:]):
        out = [".PP"]
        for line in lines:
            if line.startswith("  "):
                out += [".RS 4", ".nf", inline(line.strip()), ".fi", ".RE"]
            else:
                out.append(inline(line.strip()))
        return out
    return [".PP", inline(" ".join(line.strip() for line in lines))]


def option_label(argument):
    names = argument.get("names") or []
    value = argument.get("valueName")
    if argument["kind"] == "positional":
        return "\\fI" + dashes(value) + "\\fR" + ("..." if argument.get("isRepeating") else "")
    labels = []
    for name in names:
        prefix = {"long": "--", "short": "-", "longWithSingleDash": "-"}[name["kind"]]
        labels.append("\\fB" + dashes(prefix + name["name"]) + "\\fR")
    label = ", ".join(labels)
    if argument["kind"] == "option":
        label += " \\fI" + dashes(value) + "\\fR"
    return label


def synopsis_item(argument):
    names = argument.get("names") or []
    repeating = "..." if argument.get("isRepeating") else ""
    if argument["kind"] == "positional":
        item = "\\fI" + dashes(argument["valueName"]) + "\\fR" + repeating
    else:
        name = argument.get("preferredName") or names[0]
        prefix = "--" if name["kind"] == "long" else "-"
        item = "\\fB" + dashes(prefix + name["name"]) + "\\fR"
        if argument["kind"] == "option":
            item += " \\fI" + dashes(argument["valueName"]) + "\\fR"
        item += repeating
    return "[" + item + "]" if argument.get("isOptional") else item


def visible(arguments):
    return [a for a in arguments or [] if a.get("shouldDisplay", True)]


def commands(command, path=()):
    """Every command with its path of names, the root first; the parser's own `help` left out."""
    path = path + (command["commandName"],)
    yield path, command
    for sub in command.get("subcommands") or []:
        if sub["commandName"] == "help" or not sub.get("shouldDisplay", True):
            continue
        yield from commands(sub, path)


def header(name, section, title_date, version, manual):
    return [
        '.\\" Generated by scripts/generate-manuals.py; do not edit.',
        # No hyphenation in any paragraph (groff's man resets it from HY at each one).
        ".nr HY 0",
        '.TH "%s" "%d" "%s" "Vigil %s" "%s"' % (name.upper().replace("-", "\\-"), section, title_date, version, manual),
        # Neither hyphenated nor justified: option names and paths stay whole and copyable.
        ".nh",
        ".ad l",
    ]


def table(entries):
    out = []
    for key, text in entries:
        out += [".TP", "\\fB" + dashes(str(key)) + "\\fR", inline(text)]
    return out


def command_page(path, command, known, title_date, version):
    name = page_name(path)
    words = " ".join(path)
    top = path[1] if len(path) > 1 else None
    lines = header(name, 1, title_date, version, "Vigil Manual")
    lines += [".SH NAME", dashes(name) + " \\- " + inline(command.get("abstract") or words)]
    arguments = visible(command.get("arguments"))
    subs = [s for s in command.get("subcommands") or [] if s["commandName"] != "help" and s.get("shouldDisplay", True)]
    lines += [".SH SYNOPSIS", ".SY \"" + dashes(words) + "\""]
    if subs:
        lines.append("\\fIcommand\\fR [\\fIoptions\\fR]")
    lines += [synopsis_item(a) for a in arguments]
    lines.append(".YS")

    description, examples, own_codes = split_discussion(command.get("discussion"))
    lines.append(".SH DESCRIPTION")
    lines += [".PP", inline(command.get("abstract") or "")]
    for paragraph in description:
        lines += render_paragraph(paragraph)
    if subs:
        lines.append(".SH COMMANDS")
        for sub in subs:
            sub_name = page_name(path + (sub["commandName"],))
            lines += [".TP", "\\fB" + dashes(sub["commandName"]) + "\\fR",
                      inline(sub.get("abstract") or "") + " See \\fB" + dashes(sub_name) + "\\fR(1)."]
    if arguments:
        lines.append(".SH OPTIONS")
        for argument in arguments:
            text = argument.get("abstract") or ""
            if argument.get("discussion"):
                text += " " + argument["discussion"]
            default = argument.get("defaultValue")
            if default and "default" not in text:
                text += " (default: %s)" % default
            lines += [".TP", option_label(argument), inline(text.strip())]

    codes = dict(SHARED_EXIT_CODES)
    if len(path) == 1:
        codes[69] = ("A service Vigil needs is not there: vigil-sync next to vigil, a notification service "
                     "(daemon --once), or a sync server set up by a newer Vigil.")
        for code, text in SYNC_EXIT_CODES[1:]:
            codes[code] = "vigil sync and vigil report --group: " + text[0].lower() + text[1:]
    else:
        codes.update(dict(EXTRA_EXIT_CODES.get(top, [])))
        if own_codes:
            codes.update(dict(parse_exit_codes(own_codes)))
    lines.append(".SH EXIT STATUS")
    for code in sorted(codes):
        lines += [".TP", "\\fB%d\\fR" % code, inline(codes[code])]

    environment = list(ENV_COMMON)
    if len(path) == 1 or top in PAGER_COMMANDS:
        environment += ENV_PAGER
    if len(path) == 1 or top in SENSOR_COMMANDS:
        environment += ENV_SENSORS
    if len(path) == 1 or top in SYNC_COMMANDS:
        environment += ENV_SYNC
    lines.append(".SH ENVIRONMENT")
    lines += table(environment)

    lines.append(".SH FILES")
    lines += table(FILES if len(path) == 1 or top in {"start", "status", "stop", "motivate", "record"} else
                   [f for f in FILES if "running-session" not in f[0] and "session.lock" not in f[0]
                    and "motivation" not in f[0]])

    if examples:
        lines += [".SH EXAMPLES", ".RS 4", ".nf"] + [inline(e) for e in examples] + [".fi", ".RE"]

    see = []
    if len(path) > 1:
        see.append("vigil(1)")
    if len(path) > 2:
        see.append(page_name(path[:-1]) + "(1)")
    see += [page_name(path + (s["commandName"],)) + "(1)" for s in subs]
    text = (command.get("discussion") or "") + " " + " ".join(a.get("abstract") or "" for a in arguments)
    for other in sorted(known, key=len, reverse=True):
        other_page = page_name(other) + "(1)"
        if other != path and len(other) > 1 and other_page not in see and re.search(r"\b" + re.escape(" ".join(other)) + r"\b", text):
            see.append(other_page)
    see.append("vigil.yaml(5)")
    if top in {"daemon"} or len(path) == 1:
        see.append("systemd.service(5)")
    lines += [".SH SEE ALSO", ",\n".join("\\fB%s\\fR(%s)" % (dashes(s[:-3]), s[-2]) for s in see)]
    return name + ".1", "\n".join(lines) + "\n"


def config_page(config_text, title_date, version):
    """vigil.yaml(5) from the comments of the documented default config."""
    source = config_text.split("\n")
    intro, sections, comments, current = [], [], [], None
    for line in source:
        if not line.strip():
            if current is None and comments:
                intro.append(comments)
                comments = []
            continue
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if stripped.startswith("#"):
            text = stripped[1:]
            comments.append(text[1:] if text.startswith(" ") else text)
            continue
        match = re.match(r"([A-Za-z_]+):\s*(.*)$", stripped)
        if indent == 0 and match:
            if current is None and comments:
                intro.append(comments)
            comments = []
            current = {"name": match.group(1), "keys": []}
            sections.append(current)
        elif indent == 2 and match and current is not None:
            current["keys"].append({"name": match.group(1), "value": match.group(2), "doc": comments, "more": []})
            comments = []
        elif current is not None and current["keys"]:
            current["keys"][-1]["more"].append(line[4:] if line.startswith("    ") else stripped)

    def doc_lines(doc, nested=True):
        """Comment lines: prose joined, lines indented further (examples, lists) kept as they are,
        their own indentation too. `nested`: inside a key's .TP paragraph."""
        segments = []
        for text in doc:
            kind = "literal" if text.startswith("  ") else "prose"
            if segments and segments[-1][0] == kind:
                segments[-1][1].append(text)
            else:
                segments.append((kind, [text]))
        out = []
        for index, (kind, texts) in enumerate(segments):
            if kind == "prose":
                out += ([".IP"] if index and nested else []) + [inline(" ".join(t.strip() for t in texts))]
            else:
                margin = min(len(t) - len(t.lstrip()) for t in texts)
                out += [".RS" if nested else ".RS 4", ".nf"] + [roff_text(t[margin:]) for t in texts] + [".fi", ".RE"]
        return out

    lines = header("vigil.yaml", 5, title_date, version, "Vigil Manual")
    lines += [".SH NAME", "vigil.yaml \\- Vigil's configuration file"]
    lines += [".SH SYNOPSIS", "\\fI$XDG_CONFIG_HOME/vigil/config.yaml\\fR (usually \\fI~/.config/vigil/config.yaml\\fR)",
              ".br", "\\fB%s\\fR: every key with its default" % roff_text(FILES[-1][0])]
    lines += [".SH DESCRIPTION", ".PP",
              "Vigil reads its settings from a YAML file. Keys you leave out keep their defaults, listed below and in "
              "%s, which documents every key: copy the keys you want to change from it into "
              "your config, or name another file with \\fB\\-\\-config\\fR." % roff_text(FILES[-1][0])]
    # The file's own introduction, but for its first lines (what the file is, where to copy it).
    for block in intro:
        paragraph = []
        for text in block + [""]:
            if text.strip():
                paragraph.append(text)
            elif paragraph:
                if not paragraph[0].startswith(("Vigil configuration", "This file documents")):
                    lines += [".PP"] + doc_lines(paragraph, nested=False)
                paragraph = []
    lines += [".PP", "A YAML mapping of the sections below. A key that is not known, or a value that is not valid, is an "
              "error that names the file, the line and the key; \\fBvigil config check\\fR checks a file. "
              "Each key is listed with its default."]
    for section in sections:
        lines += [".SH \"%s\"" % section["name"].upper().replace("_", " ")]
        for key in section["keys"]:
            value = key["value"]
            label = "\\fB%s.%s\\fR" % (dashes(section["name"]), dashes(key["name"]))
            if value:
                label += " (default: \\fI%s\\fR)" % roff_text(value)
            lines += [".TP", label] + doc_lines(key["doc"])
            if key["more"]:
                lines += [".IP", "Default:", ".RS", ".nf"] + [roff_text(m) for m in key["more"]] + [".fi", ".RE"]
    lines += [".SH FILES"] + table(FILES[:2] + FILES[-1:])
    lines += [".SH SEE ALSO", "\\fBvigil\\fR(1), \\fBvigil\\-config\\-check\\fR(1), \\fBvigil\\-config\\-paths\\fR(1)"]
    return "vigil.yaml.5", "\n".join(lines) + "\n"


def documented_config(options):
    """The documented config: --config's file, else the binary's own (with its plug-ins' sections),
    else config/vigil.yaml (a binary from before `config documented`)."""
    if options.config:
        with open(options.config, encoding="utf-8") as f:
            return f.read()
    printed = subprocess.run([options.vigil, "config", "documented"], capture_output=True, text=True)
    if printed.returncode == 0 and printed.stdout:
        return printed.stdout
    with open(os.path.join(os.path.dirname(__file__), "..", "config", "vigil.yaml"), encoding="utf-8") as f:
        return f.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vigil", required=True, help="the vigil binary")
    parser.add_argument("--config", help="the documented config to make vigil.yaml(5) from (default: what the binary prints with "
                        "`vigil config documented`, its plug-ins' sections included; else config/vigil.yaml)")
    parser.add_argument("--config-doc", default="/usr/share/vigil/vigil.yaml",
                        help="where the documented default config is installed, for the FILES sections")
    parser.add_argument("--output", required=True, help="directory for the pages (man1/ and man5/ are made in it)")
    options = parser.parse_args()
    FILES[-1] = (options.config_doc, "Every config key with its default and its documentation.")

    dump = json.loads(subprocess.run([options.vigil, "--experimental-dump-help"], check=True, capture_output=True).stdout)
    version = subprocess.run([options.vigil, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc) if epoch else datetime.datetime.now(datetime.timezone.utc)
    title_date = when.strftime("%Y-%m-%d")

    all_commands = list(commands(dump["command"]))
    known = [path for path, _ in all_commands]
    written = []
    for subdir, (name, text) in [("man1", command_page(path, command, known, title_date, version)) for path, command in all_commands] + [
        ("man5", config_page(documented_config(options), title_date, version))
    ]:
        folder = os.path.join(options.output, subdir)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, name), "w", encoding="ascii") as f:
            f.write(text)
        written.append(os.path.join(subdir, name))
    print("\n".join(written))


if __name__ == "__main__":
    sys.exit(main())
