#!/usr/bin/env python3
"""Writes Sources/Adapters/C/CSensorLibraries/sensor-stubs.c: the sensor libraries (and libical), loaded when first used.

Every command used to load libpulse, libinput, libxcb and their own dependencies (about thirty
shared libraries) before `main`, even `vigil --help` and a report, which never open a sensor: a
third of a short command's start-up (issue 18). Instead, Vigil's binary defines each function it
calls from those libraries itself: the definition opens the library with dlopen the first time any
of its functions is called, finds the real function with dlsym, and calls it. The detectors and the
alarm sound ask for their library first (`vigil_load_libpulse` ...), so a missing library is a
sensor that says why, not a crash.

Each stub has the library's own prototype, read from its installed header by clang (the C compiler
checks that they agree), so no signature is written by hand. The functions come from symbols.txt
("LIBRARY FUNCTION" per line). The C modules link nothing themselves, so a function called from
Swift without a stub here is an undefined reference when Vigil is linked: add it and run this.

libgps's soname changes with gpsd's releases, and only the one this binary's header belongs to has
the struct layout it was compiled for: Package.swift reads it off the installed libgps.so and
passes it as VIGIL_LIBGPS_SONAME.

Usage: scripts/generate-sensor-stubs.py [--check]
  --check   exit 1 if the committed file differs from what would be generated (CI runs this)
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.path.join(ROOT, "Sources", "Adapters", "C", "CSensorLibraries")

# library: (soname, the loader's name, headers that declare its functions)
LIBRARIES = {
    "pulse": ("libpulse.so.0", "libpulse", ["pulse/pulseaudio.h", "pulse/thread-mainloop.h"]),
    "pulse-simple": ("libpulse-simple.so.0", "libpulse_simple", ["pulse/simple.h", "pulse/error.h"]),
    "input": ("libinput.so.10", "libinput", ["libinput.h"]),
    "udev": ("libudev.so.1", "libudev", ["libudev.h"]),
    "xcb": ("libxcb.so.1", "libxcb", ["xcb/xcb.h"]),
    "xcb-screensaver": ("libxcb-screensaver.so.0", "libxcb_screensaver", ["xcb/screensaver.h"]),
    "dbus-1": ("libdbus-1.so.3", "libdbus", ["dbus/dbus.h"]),
    # libgps's soname changes with gpsd's releases: the one this build's header belongs to, which
    # Package.swift reads off the installed libgps.so (VIGIL_LIBGPS_SONAME).
    "gps": (None, "libgps", ["gps.h"]),
    # Not a sensor, but loaded the same way: libical (the calendar, VigilCalendar) brings ICU, whose
    # data alone is 30 MB, and only the calendar's commands and a daemon that reads calendars need it.
    "ical": ("libical.so.3", "libical", ["libical/ical.h"]),
}
# Data the shims take the address of (not functions): reached through an accessor.
DATA = {"xcb-screensaver": ["xcb_screensaver_id"]}


def clang():
    for candidate in ("/opt/swift/usr/bin/clang", "clang"):
        if subprocess.run(["which", candidate], capture_output=True).returncode == 0 or os.path.exists(candidate):
            return candidate
    sys.exit("generate-sensor-stubs: needs clang (the Swift toolchain's)")


def declarations(headers):
    """{name: FunctionDecl} of every function the headers declare, from clang's JSON AST."""
    with tempfile.NamedTemporaryFile("w", suffix=".h", delete=False) as f:
        for h in headers:
            f.write(f"#include <{h}>\n")
        path = f.name
    try:
        flags = subprocess.run(["pkg-config", "--cflags", "dbus-1"], capture_output=True, text=True, check=True).stdout.split()
        out = subprocess.run([clang(), "-fsyntax-only", *flags, "-Xclang", "-ast-dump=json", path], capture_output=True, check=True).stdout
    finally:
        os.unlink(path)
    return {d["name"]: d for d in json.loads(out)["inner"] if d.get("kind") == "FunctionDecl" and "name" in d}


def return_type(function_type):
    """'pa_context *(pa_mainloop_api *, const char *)' -> 'pa_context *'."""
    depth = 0
    for i in range(len(function_type) - 1, -1, -1):
        c = function_type[i]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth == 0:
                return function_type[:i].strip()
    sys.exit(f"generate-sensor-stubs: cannot read the function type {function_type!r}")


def stub(library, name, decl):
    ftype = decl["type"]["qualType"]
    if "..." in ftype:
        sys.exit(f"generate-sensor-stubs: {name} takes variable arguments, which a stub cannot pass on")
    params = [p for p in decl.get("inner", []) if p.get("kind") == "ParmVarDecl"]
    declared = []
    typedefs = []
    for i, p in enumerate(params):
        t = p["type"]["qualType"]
        if "(*)" in t and t.count("(*)") == 1 and "[" not in t:
            # A callback (libical's recurrence walk): named by a typedef, as C spells a function pointer.
            alias = f"vigil_{name}_a{i}"
            typedefs.append(f"typedef {t.replace('(*)', f'(*{alias})')};\n")
            t = alias
        elif "(" in t or "[" in t:
            sys.exit(f"generate-sensor-stubs: {name}'s parameter {i} has the type {t!r}: give it a typedef in the stub")
        declared.append(f"{t} a{i}")
    arguments = ", ".join(f"a{i}" for i in range(len(params)))
    result = return_type(ftype)
    call = f"VIGIL_STUB_FUNCTION({library}, {name})({arguments})"
    body = f"{call};" if result == "void" else f"return {call};"
    return "".join(typedefs) + f"{result} {name}({', '.join(declared) or 'void'}) {{ {body} }}\n"


def generate():
    wanted = {}
    with open(os.path.join(TARGET, "symbols.txt"), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            library, name = line.split()
            if library not in LIBRARIES:
                sys.exit(f"symbols.txt:{number}: {library} is not one of {', '.join(LIBRARIES)}")
            wanted.setdefault(library, []).append(name)
    headers = sorted({h for _, _, hs in LIBRARIES.values() for h in hs})
    decls = declarations(headers)
    out = [
        "// Generated by scripts/generate-sensor-stubs.py from symbols.txt and the libraries' headers: do not edit.\n",
        "// Each function opens its library the first time it is called (sensor-libraries.c).\n\n",
        '#include "sensor-libraries.h"\n\n',
    ]
    for h in headers:
        out.append(f"#include <{h}>\n")
    out.append("\n")
    for library, (soname, loader, _) in LIBRARIES.items():
        index = list(LIBRARIES).index(library)
        out.append(f"// {soname or 'libgps (VIGIL_LIBGPS_SONAME)'}\n")
        out.append(f"int vigil_load_{loader}(char *error, size_t size) {{ return vigil_library_load({index}, error, size); }}\n")
        for name in sorted(wanted.get(library, [])):
            if name not in decls:
                sys.exit(f"generate-sensor-stubs: {name} ({library}) is not declared in {', '.join(LIBRARIES[library][2])}")
            out.append(stub(index, name, decls[name]))
        for name in DATA.get(library, []):
            out.append(f"void *vigil_{name}(void) {{ return vigil_library_symbol({index}, \"{name}\"); }}\n")
        out.append("\n")
    out.append("const char *const vigil_library_sonames[] = {\n")
    for soname, _, _ in LIBRARIES.values():
        out.append(f'    "{soname}",\n' if soname else "    VIGIL_LIBGPS_SONAME,\n")
    out.append("};\nconst int vigil_library_count = %d;\n" % len(LIBRARIES))
    return "".join(out)


def main():
    text = generate()
    path = os.path.join(TARGET, "sensor-stubs.c")
    if sys.argv[1:] == ["--check"]:
        with open(path, encoding="utf-8") as f:
            if f.read() != text:
                sys.exit(f"{os.path.relpath(path, ROOT)} is not what scripts/generate-sensor-stubs.py generates: run it")
        print("generate-sensor-stubs: sensor-stubs.c is up to date")
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()
