#!/usr/bin/env python3
"""The structure rules of docs/architecture.md ("Rules the lint checks"), checked
over the tracked sources: run by scripts/lint.sh.

- no file over 600 lines in core/, domains/, actors/, cli/ (MAX_FILE_LINES);
- no function over 80 lines (MAX_FUNCTION_LINES) in the library and front ends;
- no class or struct with more than 30 data members (MAX_MEMBERS; constants
  and function-pointer tables of a C API excepted: see DATA_TABLES);
- no include that crosses the layers the wrong way (LAYERS);
- no unused function: one whose name appears nowhere but where it is
  declared and defined (the tests and benchmarks count as users).

Functions, members and their extents come from Universal Ctags
(universal-ctags). Prints each finding as FILE:LINE: rule: what; exit 1
when there is one.
"""
import collections
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80
MAX_MEMBERS = 30
SIZE_FOLDERS = ("core/", "domains/", "actors/", "cli/")
CODE_FOLDERS = ("core/", "domains/", "actors/", "cli/", "run/", "results/", "sweep/", "python/src/")
# Structs that mirror a C API's table of functions (one pointer per function
# the standard defines) are exempt from MAX_MEMBERS: splitting them would
# hide the standard's list.
DATA_TABLES = {"ctde::fmi3::Functions", "ctde::Fmi2Functions"}

# The layers, lowest first: a file may include its own folder's headers and
# those of a lower layer. Folders on one line are siblings: neither includes
# the other. An actor family (actors/<family>/) reaches the others only
# through actors/base/.
LAYERS = [
    ["core"],
    ["domains/de", "domains/ct"],
    ["domains/ctde"],
    ["actors/base"],
    ["actors/*"],
    ["actors/builtin_actors"],
    ["run", "results"],
    ["sweep"],
    ["cli", "python/src"],
    ["include/ctde"],
]


def tracked(*patterns):
    out = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, check=True, capture_output=True, text=True)
    return [f for f in out.stdout.split() if f.startswith(CODE_FOLDERS) or f.startswith("include/")]


def group_of(path):
    """The layer folder of a source path, e.g. actors/math or domains/ct."""
    parts = path.split("/")
    if parts[0] in ("domains", "actors", "python", "include") and len(parts) > 2:
        return parts[0] + "/" + parts[1]
    if parts[0] == "actors":
        return "actors/" + os.path.splitext(parts[1])[0]
    return parts[0]


def rank_of(group):
    for rank, folders in enumerate(LAYERS):
        if group in folders:
            return rank
    if group.startswith("actors/"):
        return LAYERS.index(["actors/*"])
    return None


def included(path, line):
    """The source-root path of an #include "..." line of `path`, or None."""
    m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
    if not m:
        return None
    name = m.group(1)
    for candidate in (os.path.normpath(os.path.join(os.path.dirname(path), name)), name):
        if os.path.isfile(os.path.join(ROOT, candidate)):
            return candidate
    return None


def check_includes(files, findings):
    for path in files:
        mine = group_of(path)
        my_rank = rank_of(mine)
        if my_rank is None:
            continue
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                target = included(path, line)
                if target is None:
                    continue
                theirs = group_of(target)
                their_rank = rank_of(theirs)
                if theirs == mine or their_rank is None or their_rank < my_rank:
                    continue
                findings.append(f"{path}:{number}: layers: {mine} includes {target} ({theirs}: not a lower layer)")


def check_file_sizes(files, findings):
    for path in files:
        if not path.startswith(SIZE_FOLDERS):
            continue
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            lines = sum(1 for _ in f)
        if lines > MAX_FILE_LINES:
            findings.append(f"{path}:1: file size: {lines} lines (at most {MAX_FILE_LINES})")


def ctags(files, kinds):
    """Universal Ctags' tags of `files` (C++ kinds `kinds`), as dicts."""
    program = shutil.which("ctags-universal") or shutil.which("ctags")
    if program is None:
        sys.exit("check_structure: universal-ctags is missing (scripts/setup.sh installs it)")
    out = subprocess.run(
        [program, "--languages=C++", "--language-force=C++", f"--kinds-C++={kinds}", "--fields=+neKZS",
         "--extras=-q", "--output-format=u-ctags", "-o", "-", *files],
        cwd=ROOT, check=True, capture_output=True, text=True).stdout
    tags = []
    for line in out.splitlines():
        if line.startswith("!_"):
            continue
        fields = line.split("\t")
        tag = {"name": fields[0], "file": fields[1], "pattern": fields[2]}
        for field in fields[3:]:
            key, _, value = field.partition(":")
            tag[key] = value
        tags.append(tag)
    return tags


def check_functions(files, findings):
    for tag in ctags(files, "f"):
        if "end" not in tag or tag["name"].startswith("__anon"):
            continue  # a lambda counts in the function around it
        length = int(tag["end"]) - int(tag["line"]) + 1
        if length > MAX_FUNCTION_LINES:
            findings.append(f"{tag['file']}:{tag['line']}: function size: {tag.get('scope', '')} "
                            f"{tag['name']} has {length} lines (at most {MAX_FUNCTION_LINES})")


def check_members(files, findings):
    members = collections.defaultdict(list)
    for tag in ctags(files, "m"):
        if re.search(r"\bstatic\b", tag["pattern"]):
            continue  # constants are not the state of an object
        scope = tag.get("scope", "")
        members[scope.split(":", 1)[-1]].append(tag)
    for scope, tags in sorted(members.items()):
        if len(tags) > MAX_MEMBERS and scope not in DATA_TABLES:
            findings.append(f"{tags[0]['file']}:{tags[0]['line']}: class size: {scope} has {len(tags)} data "
                            f"members (at most {MAX_MEMBERS})")


def check_unused(files, users, findings):
    """Functions whose name appears only on the lines that declare or define them."""
    declared = collections.defaultdict(set)  # name -> {(file, line)}
    classes = {t["name"] for t in ctags(files, "cs")}
    for tag in ctags(files, "fp"):
        name = tag["name"]
        if name.startswith(("__anon", "operator", "~")) or name in classes or name == "main" or name.isupper():
            continue  # lambdas, operators, constructors, destructors, macros
        if re.search(r"\boverride\b|^/\^\s*static_assert", tag["pattern"]):
            continue  # an override is called through its base (std::streambuf's too)
        declared[name].add((tag["file"], int(tag["line"])))
    uses = collections.Counter()
    word = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
    for path in users:
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                code = line.split("//", 1)[0]
                for name in set(word.findall(code)):
                    if name in declared and (path, number) not in declared[name]:
                        uses[name] += 1
    for name, places in sorted(declared.items()):
        if uses[name] == 0:
            path, line = min(places)
            findings.append(f"{path}:{line}: unused function: {name} is declared and defined but never called")


def main():
    os.chdir(ROOT)
    sources = tracked("*.cpp", "*.hpp")
    users = subprocess.run(["git", "ls-files", "*.cpp", "*.hpp", "*.c", "*.h"], check=True, capture_output=True,
                           text=True).stdout.split()
    code = [f for f in sources if f.startswith(CODE_FOLDERS)]
    findings = []
    check_includes(sources, findings)
    check_file_sizes(code, findings)
    check_functions(code, findings)
    check_members(code, findings)
    check_unused(code, users, findings)
    for finding in findings:
        print(finding)
    if findings:
        print(f"check_structure: {len(findings)} findings (docs/architecture.md, \"Rules the lint checks\")",
              file=sys.stderr)
        return 1
    print(f"check_structure: {len(code)} files: sizes, layers and uses as the rules say")
    return 0


if __name__ == "__main__":
    sys.exit(main())
