"""An exported FMU's binary loads on a machine that has only Debian's packages
(issue 34's target; docs/fmi.md, "What an exported FMU needs"):

- it carries no RPATH or RUNPATH (nothing points into a build tree);
- every library it needs resolves, in an empty environment, to a file of a
  Debian package under /lib or /usr/lib;
- those packages, beside the C and C++ run time, are exactly the ones
  docs/fmi.md names;
- a process started with an empty environment, in a directory with nothing
  but the unpacked FMU, loads it and gets fmi3GetVersion's "3.0".

    fresh_load.py CTDE SOURCE_DIR WORK_DIR
"""

import os
import re
import shutil
import subprocess
import sys
import zipfile

# The C and C++ run time: on every Debian machine (libc6, libgcc-s1, libstdc++6).
RUN_TIME = {"libc6", "libgcc-s1", "libstdc++6"}


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs).stdout


def package_of(path):
    """The Debian package that installed `path` (merged /usr aware)."""
    real = os.path.realpath(path)
    out = subprocess.run(["dpkg", "-S", "*/" + os.path.basename(real)], capture_output=True, text=True)
    for line in out.stdout.splitlines():
        package, _, owned = line.partition(": ")
        if os.path.realpath(owned) == real:
            return package.split(":")[0]
    fail(f"{path} ({real}) belongs to no Debian package")
    return None


def documented_packages(source_dir):
    """The packages docs/fmi.md's "What an exported FMU needs" names (in backquotes)."""
    with open(os.path.join(source_dir, "docs", "fmi.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("### What an exported FMU needs")
    end = text.index("\n#", start + 1)
    return set(re.findall(r"`(lib[a-z0-9.+-]+)`", text[start:end]))


def main():
    ctde, source_dir, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    clean = os.path.join(work, "clean")
    os.makedirs(clean)
    fmu = os.path.join(work, "ball.fmu")
    run([ctde, "export", os.path.join(source_dir, "examples", "models", "bouncing_ball.json"), "-o", fmu])
    with zipfile.ZipFile(fmu) as archive:
        archive.extractall(clean)
    binary = os.path.join(clean, "binaries", "x86_64-linux", "bouncing_ball.so")

    dynamic = run(["readelf", "-d", binary])
    if "RPATH" in dynamic or "RUNPATH" in dynamic:
        fail("the binary has an RPATH or RUNPATH:\n" + dynamic)
    needed = re.findall(r"Shared library: \[(.+?)\]", dynamic)
    if not needed:
        fail("readelf found no NEEDED libraries:\n" + dynamic)

    resolved = {}
    for line in run(["env", "-i", "/usr/bin/ldd", binary]).splitlines():
        if "not found" in line:
            fail("a library is missing in an empty environment: " + line.strip())
        m = re.match(r"\s*(\S+) => (\S+)", line)
        if m:
            resolved[m.group(1)] = m.group(2)
    packages = set()
    for lib in needed:
        path = resolved.get(lib) or ("/lib64/" + lib if lib.startswith("ld-linux") else None)
        if path is None:
            fail(f"ldd did not resolve {lib}")
        if not (path.startswith("/lib/") or path.startswith("/usr/lib/") or path.startswith("/lib64/")):
            fail(f"{lib} resolves outside the system's folders: {path}")
        packages.add(package_of(path))
    named = documented_packages(source_dir)
    needed_packages = packages - RUN_TIME
    if needed_packages != named:
        fail(f"docs/fmi.md names {sorted(named)}; the binary needs {sorted(needed_packages)}")

    probe = (
        "import ctypes, sys\n"
        "lib = ctypes.CDLL(sys.argv[1])\n"
        "lib.fmi3GetVersion.restype = ctypes.c_char_p\n"
        "print(lib.fmi3GetVersion().decode())\n"
    )
    version = run(["env", "-i", "/usr/bin/python3", "-c", probe, binary], cwd=clean).strip()
    if version != "3.0":
        fail(f"fmi3GetVersion gave {version!r}")
    print(f"ok: {len(needed)} libraries, packages {sorted(needed_packages)} and the run time; loads, FMI {version}")


if __name__ == "__main__":
    main()
