#!/usr/bin/env python3
"""Checks that every import in Sources/ respects the layers (the architecture in Package.swift).

The folders under Sources/ are the layers, lowest first: System, Core, Domain, Views, Adapters, Runtime,
App.
A module (Sources/LAYER/MODULE) may import modules of its own layer or of a lower one, never of
a higher one. Besides:
  - Core is C-free and has no I/O: no C module of ours, no Foundation, no system calls.
  - each C module (a folder with a module.modulemap: a system library's, or a C target's in its
    include/ folder) is imported by exactly one module.
  - the Adapters layer has a second level, its kinds (Sources/Adapters/KIND/MODULE), with rules
    between them: C (the C modules), Buses (the D-Bus connection sensors and channels share),
    Sensors (detectors; they import no other sensor module but DetectorSupport, their shared
    support), Formats (files read and written: no C module), Storage (the log and sync: no
    sensor, channel or C module), Channels (how an alarm reaches the person: no sensor module), Calendars (iCalendar through
    libical: a C module, nothing else of the adapters).
  - the App layer's library modules (the command line) import no Adapters module: only a
    program (an executable target: its composition, which names the plug-ins) may; the commands
    reach files, the log and sensors through the Runtime's services.
  - each Swift module's imports of the package's modules and products are the dependencies
    Package.swift declares for it (`swift package dump-package`), no more and no fewer, but for
    link-only dependencies (CSensorLibraries) and modules a declared product brings (GRDBSQLite).
  - sizes: no Swift file in Sources/ over 600 lines (`SIZE_LIMIT`), and no function of the App
    layer over 40 lines of body (a command parses, calls one service, renders).
Every import of every .swift file is read, so the check sees the real graph, not Package.swift's.

Usage: scripts/check-layers.py [ROOT]     (ROOT defaults to the repository; the declared
                                          dependencies are read with `swift package dump-package`
                                          in ROOT, or from ROOT/.package-dump.json when it exists)
       scripts/check-layers.py --self-test
Exits 1 and names each file, line and rule broken; 0 with a one-line summary otherwise.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

LAYERS = ["System", "Core", "Domain", "Views", "Adapters", "Runtime", "App"]
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|internal|package|private|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_]\w*)")
# What the C-free core may import besides our own lower modules: the standard library's own.
CORE_ALLOWED = {"Glibc", "Musl", "Darwin", "Synchronization", "DequeModule"}


# The Adapters layer's kinds, in no order: which kinds a module of each may import (besides the
# layers below, and its own module).
ADAPTER_KINDS = {
    "C": set(),
    "Buses": {"C"},
    "Sensors": {"C", "Buses", "Sensors"},
    "Formats": {"Formats", "Sensors", "Storage"},
    "Storage": {"Storage", "Formats"},
    "Channels": {"C", "Buses"},
    "Calendars": {"C"},
}
# What a sensor module may import of the other sensor modules: their shared support.
SENSOR_SUPPORT = {"DetectorSupport"}
# A Swift file's lines at most, and a command's function body's at most.
SIZE_LIMIT = 600
COMMAND_BODY_LIMIT = 40
FUNC = re.compile(r"^(\s*)(?:@\w+\s+)*(?:(?:public|private|fileprivate|internal|static|mutating|override|final)\s+)*func\s+(\w+)")


def long_functions(lines, limit):
    """(name, first line, body lines) of each function whose body is over `limit` lines: from the
    line that opens it to the brace at its indentation that closes it."""
    found = []
    for i, line in enumerate(lines):
        m = FUNC.match(line)
        if not m:
            continue
        indent = m.group(1)
        k = i
        while k < len(lines) and not lines[k].rstrip().endswith("{"):
            k += 1
        for j in range(k + 1, len(lines)):
            if lines[j].rstrip() == indent + "}":
                if j - k - 1 > limit:
                    found.append((m.group(2), i + 1, j - k - 1))
                break
    return found


# Dependencies declared for linking only, and modules a declared product brings.
LINK_ONLY = {"CSensorLibraries"}
PRODUCT_MODULES = {"GRDBSQLite": "GRDB"}


def modules(root):
    """{module: (layer index, folder, is a C module, kind)} for every module under Sources/LAYER/
    (Sources/Adapters/KIND/ for the adapters), and the folders that are in no kind."""
    found = {}
    stray = []
    for rank, layer in enumerate(LAYERS):
        folder = os.path.join(root, "Sources", layer)
        if not os.path.isdir(folder):
            continue
        groups = [(None, folder)]
        if layer == "Adapters":
            groups = []
            for kind in sorted(os.listdir(folder)):
                if kind in ADAPTER_KINDS:
                    groups.append((kind, os.path.join(folder, kind)))
                else:
                    stray.append(f"Sources/Adapters/{kind}: not in a kind of adapter ({', '.join(sorted(ADAPTER_KINDS))})")
        for kind, group in groups:
            for name in sorted(os.listdir(group)):
                path = os.path.join(group, name)
                if os.path.isdir(path):
                    is_c = any(os.path.exists(os.path.join(path, *p, "module.modulemap")) for p in ([], ["include"]))
                    found[name] = (rank, path, is_c, kind)
    return found, stray


def declared(root, package=None):
    """{target: set of the dependencies it declares} from Package.swift (`package`: its dump, given
    by the self-test), or the reason it cannot be read."""
    if package is None:
        try:
            out = subprocess.run(["swift", "package", "dump-package"], cwd=root, capture_output=True, text=True, check=True).stdout
            package = json.loads(out)
        except subprocess.CalledProcessError as e:
            return f"`swift package dump-package` failed: {(e.stderr or '').strip()[:500]}"
        except (OSError, ValueError) as e:
            return f"`swift package dump-package` could not be run or read: {e}"
    deps = {}
    executables = set()
    for target in package.get("targets", []):
        if target.get("type") == "executable":
            executables.add(target["name"])
        names = set()
        for d in target.get("dependencies", []):
            for how in ("byName", "target", "product"):
                if how in d:
                    names.add(d[how][0])
        deps[target["name"]] = names
    return deps, executables


def check(root, package=None):
    mods, stray = modules(root)
    problems = list(stray)
    importers = {name: set() for name, (_, _, is_c, _) in mods.items() if is_c}
    stray = [n for n in sorted(os.listdir(os.path.join(root, "Sources"))) if n not in LAYERS]
    for n in stray:
        problems.append(f"Sources/{n}: not in a layer folder ({', '.join(LAYERS)})")
    deps = declared(root, package)
    executables = set()
    if isinstance(deps, str):
        problems.append(f"cannot read the declared dependencies: {deps}")
        deps = None
    else:
        deps, executables = deps
    files = 0
    for name, (rank, path, _, kind) in sorted(mods.items()):
        imported = set()
        for folder, _, names in os.walk(path):
            for file in sorted(names):
                if not file.endswith(".swift"):
                    continue
                files += 1
                full = os.path.join(folder, file)
                where = os.path.relpath(full, root)
                with open(full, encoding="utf-8") as f:
                    text = f.read().split("\n")
                if len(text) - (1 if text and text[-1] == "" else 0) > SIZE_LIMIT:
                    problems.append(f"{where}: {len(text) - 1} lines, over {SIZE_LIMIT}: split it where its parts are")
                if LAYERS[rank] == "App":
                    for func, first, body in long_functions(text, COMMAND_BODY_LIMIT):
                        problems.append(f"{where}:{first}: {func} is {body} lines, over {COMMAND_BODY_LIMIT}: a command parses, calls one service and renders")
                for number, line in enumerate(text, 1):
                    m = IMPORT.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    imported.add(target)
                    if target in mods:
                        other, _, is_c, other_kind = mods[target]
                        if is_c:
                            importers[target].add(name)
                        if other > rank:
                            problems.append(f"{where}:{number}: {name} ({LAYERS[rank]}) imports {target} ({LAYERS[other]}), a higher layer")
                        if LAYERS[rank] == "Core" and is_c:
                            problems.append(f"{where}:{number}: {name} is in the C-free core and imports the C module {target}")
                        if LAYERS[rank] == "Core" and LAYERS[other] == "System":
                            problems.append(f"{where}:{number}: {name} is in the core (no I/O) and imports {target}")
                        if LAYERS[rank] == "App" and LAYERS[other] == "Adapters" and name not in executables:
                            problems.append(f"{where}:{number}: {name} (App) imports the adapter {target}: commands reach adapters through the Runtime; only a program's composition imports them")
                        if kind and other_kind and target != name:
                            if other_kind not in ADAPTER_KINDS[kind]:
                                problems.append(f"{where}:{number}: {name} ({kind}) imports {target} ({other_kind}): {kind} import no {other_kind}")
                            elif kind == other_kind == "Sensors" and target not in SENSOR_SUPPORT:
                                problems.append(f"{where}:{number}: {name} imports the sensor {target}: sensors import no other sensor but {', '.join(sorted(SENSOR_SUPPORT))}")
                    elif LAYERS[rank] == "Core" and target not in CORE_ALLOWED:
                        problems.append(f"{where}:{number}: {name} is in the core (no I/O, no Foundation) and imports {target}")
        has_swift = any(f.endswith(".swift") for _, _, fs in os.walk(path) for f in fs)
        if deps is not None and has_swift and name not in deps:
            problems.append(f"Package.swift: Sources/.../{name} is no target of the package (its folder must be named as its target)")
        if deps is not None and name in deps and has_swift:
            known = set(mods) | {d for ds in deps.values() for d in ds}
            used = {i for i in imported if i in known} | {PRODUCT_MODULES[i] for i in imported if i in PRODUCT_MODULES}
            declared_here = deps[name] - LINK_ONLY
            for extra in sorted(declared_here - used):
                problems.append(f"Package.swift: {name} declares {extra} and imports it nowhere")
            for missing in sorted(used - deps[name] - {name}):
                problems.append(f"Package.swift: {name} imports {missing} without declaring it")
    for c, users in sorted(importers.items()):
        if len(users) != 1:
            who = ", ".join(sorted(users)) or "no module"
            problems.append(f"C module {c} must be imported by exactly one module; it is imported by {who}")
    return problems, files


def self_test():
    """The check must fail on each rule it states: a tree that breaks each one, then a clean one."""
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        def dump(deps):
            return {"targets": [{"name": n, "type": "executable" if n == "program" else "regular",
                                 "dependencies": [{"byName": [d, None]} for d in ds]} for n, ds in deps.items()]}
        write("Sources/System/Sys/F.swift", "import Glibc\n")
        write("Sources/Core/Kernel/A.swift", "import Foundation\nimport Sys\n")
        write("Sources/Domain/Figures/B.swift", "import Kernel\n@testable import Store\n")
        write("Sources/Adapters/Storage/Store/C.swift", "import Kernel\nimport CThing\n")
        write("Sources/Adapters/C/CThing/module.modulemap", "")
        write("Sources/Adapters/Sensors/Other/D.swift", "import CThing\nimport CTarget\n")
        write("Sources/Adapters/C/CTarget/include/module.modulemap", "")
        write("Sources/Adapters/Storage/Store/G.swift", "import CTarget\n")
        write("Sources/Adapters/Sensors/Radar/H.swift", "import Other\n")
        write("Sources/Adapters/Formats/Files/I.swift", "import CThing\n")
        write("Sources/Adapters/Gadgets/Thing/J.swift", "")
        write("Sources/Stray/E.swift", "")
        write("Sources/App/Commands/L.swift", "import Store\nfunc run() {\n" + "    step()\n" * 41 + "}\n")
        write("Sources/Domain/Figures/Big.swift", "import Kernel\n" + "// a line\n" * 600)
        write("Sources/App/program/main.swift", "import Store\nimport Commands\n")
        package = dump({"Commands": ["Store"], "program": ["Store", "Commands"], "Sys": [], "Kernel": ["Sys"], "Figures": ["Kernel", "Store"], "Store": ["Kernel", "CThing", "CTarget", "Figures"],
                        "Other": ["CThing", "CTarget"], "Radar": [], "Files": ["CThing"], "Thing": []})
        problems, _ = check(root, package)
        expected = ["Sources/Stray: not in a layer", "Kernel is in the core (no I/O, no Foundation) and imports Foundation",
                    "Kernel is in the core (no I/O) and imports Sys",
                    "Figures (Domain) imports Store (Adapters), a higher layer", "C module CThing must be imported by exactly one module",
                    "C module CTarget must be imported by exactly one module",
                    "Store (Storage) imports CThing (C): Storage import no C", "Store (Storage) imports CTarget (C): Storage import no C",
                    "Radar imports the sensor Other: sensors import no other sensor", "Files (Formats) imports CThing (C)",
                    "Sources/Adapters/Gadgets: not in a kind of adapter",
                    "Package.swift: Store declares Figures and imports it nowhere",
                    "Package.swift: Radar imports Other without declaring it",
                    "Commands (App) imports the adapter Store", "Sources/App/Commands/L.swift:2: run is 41 lines, over 40",
                    "Sources/Domain/Figures/Big.swift: 601 lines, over 600"]
        missing = [e for e in expected if not any(e in p for p in problems)]
        if missing or len(problems) != len(expected):
            print("check-layers self-test failed; missing:", missing, "got:", problems, file=sys.stderr)
            return 1
        for path in ["Sources/Domain/Figures/Big.swift", "Sources/App/Commands/L.swift", "Sources/App/program/main.swift", "Sources/Adapters/Sensors/Other/D.swift", "Sources/Stray/E.swift", "Sources/Adapters/Sensors/Radar/H.swift",
                     "Sources/Adapters/Formats/Files/I.swift", "Sources/Adapters/Gadgets/Thing/J.swift", "Sources/Adapters/Storage/Store/G.swift"]:
            os.remove(os.path.join(root, path))
        for folder in ["Sources/App/Commands", "Sources/App/program", "Sources/App", "Sources/Stray", "Sources/Adapters/Sensors/Other", "Sources/Adapters/Sensors/Radar", "Sources/Adapters/Formats/Files",
                       "Sources/Adapters/Gadgets/Thing", "Sources/Adapters/Gadgets"]:
            os.rmdir(os.path.join(root, folder))
        write("Sources/Core/Kernel/A.swift", "import Glibc\n")
        write("Sources/Domain/Figures/B.swift", "import Kernel\n")
        write("Sources/Adapters/Storage/Store/C.swift", "import Kernel\n")
        write("Sources/Adapters/Sensors/Probe/K.swift", "import CThing\nimport CTarget\nimport Kernel\n")
        package = dump({"Sys": [], "Kernel": [], "Figures": ["Kernel"], "Store": ["Kernel"], "Probe": ["CThing", "CTarget", "Kernel"]})
        problems, _ = check(root, package)
        if problems:
            print("check-layers self-test failed on a clean tree:", problems, file=sys.stderr)
            return 1
        # A module that is no target (its folder named otherwise) is said, not skipped.
        del package["targets"][-1]
        problems, _ = check(root, package)
        if not any("Probe is no target of the package" in p for p in problems):
            print("check-layers self-test: a folder that is no target passed:", problems, file=sys.stderr)
            return 1
    print("check-layers: self-test passed")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    problems, files = check(root)
    for p in problems:
        print(f"check-layers: {p}", file=sys.stderr)
    if problems:
        print(f"check-layers: {len(problems)} problem(s); see the layers in Package.swift's header", file=sys.stderr)
        return 1
    print(f"check-layers: {files} files, every import within its layer or below")
    return 0


if __name__ == "__main__":
    sys.exit(main())
