#!/usr/bin/env python3
"""Checks that every import in Sources/ respects the layers (the architecture in Package.swift).

The folders under Sources/ are the layers, lowest first: System, Core, Domain, Adapters, Runtime, App.
A module (Sources/LAYER/MODULE) may import modules of its own layer or of a lower one, never of
a higher one. Besides:
  - Core is C-free and has no I/O: no C module of ours, no Foundation, no system calls.
  - each C module (a folder with a module.modulemap: a system library's, or a C target's in its
    include/ folder) is imported by exactly one module.
Every import of every .swift file is read, so the check sees the real graph, not Package.swift's.

Usage: scripts/check-layers.py [ROOT]     (ROOT defaults to the repository)
       scripts/check-layers.py --self-test
Exits 1 and names each file, line and rule broken; 0 with a one-line summary otherwise.
"""
import os
import re
import sys
import tempfile

LAYERS = ["System", "Core", "Domain", "Adapters", "Runtime", "App"]
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|internal|package|private|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_]\w*)")
# What the C-free core may import besides our own lower modules: the standard library's own.
CORE_ALLOWED = {"Glibc", "Musl", "Darwin", "Synchronization", "DequeModule"}


def modules(root):
    """{module: (layer index, folder, is a C module)} for every module under Sources/LAYER/."""
    found = {}
    for rank, layer in enumerate(LAYERS):
        folder = os.path.join(root, "Sources", layer)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isdir(path):
                is_c = any(os.path.exists(os.path.join(path, *p, "module.modulemap")) for p in ([], ["include"]))
                found[name] = (rank, path, is_c)
    return found


def check(root):
    mods = modules(root)
    problems = []
    importers = {name: set() for name, (_, _, is_c) in mods.items() if is_c}
    stray = [n for n in sorted(os.listdir(os.path.join(root, "Sources"))) if n not in LAYERS]
    for n in stray:
        problems.append(f"Sources/{n}: not in a layer folder ({', '.join(LAYERS)})")
    files = 0
    for name, (rank, path, _) in sorted(mods.items()):
        for folder, _, names in os.walk(path):
            for file in sorted(names):
                if not file.endswith(".swift"):
                    continue
                files += 1
                full = os.path.join(folder, file)
                where = os.path.relpath(full, root)
                with open(full, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = IMPORT.match(line)
                        if not m:
                            continue
                        target = m.group(1)
                        if target in mods:
                            other, _, is_c = mods[target]
                            if is_c:
                                importers[target].add(name)
                            if other > rank:
                                problems.append(f"{where}:{number}: {name} ({LAYERS[rank]}) imports {target} ({LAYERS[other]}), a higher layer")
                            if LAYERS[rank] == "Core" and is_c:
                                problems.append(f"{where}:{number}: {name} is in the C-free core and imports the C module {target}")
                            if LAYERS[rank] == "Core" and LAYERS[other] == "System":
                                problems.append(f"{where}:{number}: {name} is in the core (no I/O) and imports {target}")
                        elif LAYERS[rank] == "Core" and target not in CORE_ALLOWED:
                            problems.append(f"{where}:{number}: {name} is in the core (no I/O, no Foundation) and imports {target}")
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
        write("Sources/System/Sys/F.swift", "import Glibc\n")
        write("Sources/Core/Kernel/A.swift", "import Foundation\nimport Sys\n")
        write("Sources/Domain/Figures/B.swift", "import Kernel\n@testable import Store\n")
        write("Sources/Adapters/Store/C.swift", "import Kernel\nimport CThing\n")
        write("Sources/Adapters/CThing/module.modulemap", "")
        write("Sources/Adapters/Other/D.swift", "import CThing\nimport CTarget\n")
        write("Sources/Adapters/CTarget/include/module.modulemap", "")
        write("Sources/Adapters/Store/G.swift", "import CTarget\n")
        write("Sources/Stray/E.swift", "")
        problems, _ = check(root)
        expected = ["Sources/Stray: not in a layer", "Kernel is in the core (no I/O, no Foundation) and imports Foundation",
                    "Kernel is in the core (no I/O) and imports Sys",
                    "Figures (Domain) imports Store (Adapters), a higher layer", "C module CThing must be imported by exactly one module",
                    "C module CTarget must be imported by exactly one module"]
        missing = [e for e in expected if not any(e in p for p in problems)]
        if missing or len(problems) != len(expected):
            print("check-layers self-test failed; expected:", expected, "got:", problems, file=sys.stderr)
            return 1
        os.remove(os.path.join(root, "Sources/Adapters/Other/D.swift"))
        os.remove(os.path.join(root, "Sources/Stray/E.swift"))
        os.rmdir(os.path.join(root, "Sources/Stray"))
        write("Sources/Core/Kernel/A.swift", "import Glibc\n")
        write("Sources/Domain/Figures/B.swift", "import Kernel\n")
        problems, _ = check(root)
        if problems:
            print("check-layers self-test failed on a clean tree:", problems, file=sys.stderr)
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
