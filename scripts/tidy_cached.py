#!/usr/bin/env python3
"""clang-tidy over the compile units of a build folder whose path matches a pattern,
skipping the units it already passed unchanged, as ccache skips compiles.

    scripts/tidy_cached.py BUILD_DIR PATTERN

A unit's key hashes what decides clang-tidy's answer: clang-tidy's version,
.clang-tidy, the unit's compile command (the checkout's folder written out of it,
so clones in other folders share the cache), and the content of every file the
compiler read for it (the dependency file the build wrote beside the object). A
unit with no dependency file is always checked. Only a unit with no finding is
remembered (an empty file named by its key, under $CTDE_TIDY_CACHE or
~/.cache/ctde-clang-tidy). Findings go to standard output as clang-tidy prints
them; the exit status is 1 when there was any or clang-tidy failed.
"""

import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

FINDING = re.compile(r"^/.*: (warning|error):")


class Hasher:
    """The hashes of files' contents, each file read once."""

    def __init__(self):
        self.known = {}

    def of(self, path):
        if path not in self.known:
            try:
                self.known[path] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            except OSError:
                self.known[path] = "missing"
        return self.known[path]


def dependencies(build, unit):
    """The files the compiler read for `unit` (absolute), or None without a dependency file."""
    output = re.search(r"-o (\S+)", unit["command"])
    if not output:
        return None
    depfile = Path(unit["directory"]) / (output.group(1) + ".d")
    if not depfile.is_file():
        return None
    text = depfile.read_text().replace("\\\n", " ")
    _, _, listed = text.partition(":")
    return [os.path.normpath(os.path.join(unit["directory"], name)) for name in listed.split()]


def key_of(unit, root, salt, hasher, build):
    files = dependencies(build, unit)
    if files is None:
        return None
    digest = hashlib.sha256(salt)
    digest.update(unit["command"].replace(root, "<root>").encode())
    # Sorted by the names as hashed (the checkout's folder replaced), so that the order, and the
    # key, do not depend on where the checkout is ("/tmp/x" sorts before "/usr", "/work/x" after).
    for shown, name in sorted((name.replace(root, "<root>"), name) for name in set(files)):
        digest.update(shown.encode() + b"\0" + hasher.of(name).encode())
    return digest.hexdigest()


def tidy(build, unit):
    run = subprocess.run(["clang-tidy", "-p", build, "-quiet", unit["file"]], capture_output=True, text=True)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", run.stdout + run.stderr)
    findings = sorted({line for line in plain.splitlines() if FINDING.match(line)})
    return run.returncode, findings


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: tidy_cached.py BUILD_DIR PATTERN")
    build, pattern = os.path.abspath(sys.argv[1]), re.compile(sys.argv[2])
    root = str(Path(__file__).resolve().parent.parent)
    cache = Path(os.environ.get("CTDE_TIDY_CACHE", Path.home() / ".cache" / "ctde-clang-tidy"))
    cache.mkdir(parents=True, exist_ok=True)
    version = subprocess.run(["clang-tidy", "--version"], capture_output=True, text=True).stdout
    salt = (version + (Path(root) / ".clang-tidy").read_text()).encode()
    units = [u for u in json.loads((Path(build) / "compile_commands.json").read_text()) if pattern.search(u["file"])]
    hasher = Hasher()
    to_check = []
    for unit in units:
        key = key_of(unit, root, salt, hasher, build)
        if key is None or not (cache / key).exists():
            to_check.append((unit, key))
    failed = False
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda item: (item, tidy(build, item[0])), to_check)
        for (unit, key), (status, findings) in results:
            if findings or status != 0:
                failed = True
                print("\n".join(findings) or f"clang-tidy exited {status} on {unit['file']}")
            elif key is not None:
                (cache / key).touch()
    print(f"tidy_cached: {len(units)} units, {len(units) - len(to_check)} unchanged since they passed, "
          f"{len(to_check)} checked", file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
