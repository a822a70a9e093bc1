#!/usr/bin/env python3
"""Lists the error messages of the loader and the command line that no test
asserts (issue 36): not run by CI, a to-do list for tests.

An error message is the text of a throw or raise (ModelError, CommandError,
OptionError, RunError, SnapshotError, std::runtime_error... and the loader's
helpers that throw: fail, fail_setup, refuse, reject...; and the lines
the command writes to stderr itself, "ctde: error: ..."; std::logic_error is
left out: it marks a bug in ctde, not a user's mistake) in the C++ and Python
sources of the folders below. Its fragments are its string literals (the
parts of an f-string outside the braces) of at least MIN_FRAGMENT characters (without the spaces,
quotes and punctuation at their ends);
it counts as tested when some test file (tests/, python/tests/) contains one
of them, as written there or with its escapes read (\\" as ", \\n as a newline),
or has a string literal of MIN_TEST_LITERAL+ characters that is part of one.
A message with no such fragment (all of it computed) cannot be looked for and
is counted apart.

Usage: scripts/untested_messages.py [--all] [--quiet]
  --all     every source folder (also domains/: the solvers' and the run's errors)
  --quiet   the counts only
Prints one line per untested message, FILE:LINE: its fragments, then the counts.
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
# The loader (model files, parameters, actors' checks, FMUs, sweep files, the
# director's options), the command line and the Python package.
SCOPE = ["core", "actors", "cli", "run", "sweep", "python/src", "python/ctde", "domains/ctde/run_options.cpp"]
EVERYTHING = SCOPE + ["domains"]
TESTS = ["tests", "python/tests"]
MIN_FRAGMENT = 10
MIN_TEST_LITERAL = 16
TRIM = " \n:;,.'\"()"  # what a test's own quoting may cut off a fragment's ends

CPP_TRIGGER = re.compile(
    r"\bthrow\s+(?!std::logic_error)[\w:]+\s*[({]"  # throw SomeError(... / {...
    r"|(?<![\w.])(?:fail|fail_setup|fail_for|refuse|reject|reject_assignment|fail_write)\s*\("
    r"|\.fail\s*\("
    r'|std::cerr\s*<<\s*(?="ctde: (?:error|internal error|interrupted|warning))')  # the command's own lines
PY_TRIGGER = re.compile(r"\braise\s+\w+(?:Error|Exception)\s*\(")
CPP_LITERAL = re.compile(r'R"([^(\s]*)\((.*?)\)\1"|"((?:[^"\\\n]|\\.)*)"', re.S)
PY_LITERAL = re.compile(r'([rbfRBF]{0,2})("""|\'\'\'|"|\')((?:\\.|(?!\2).)*?)\2', re.S)


def balanced(text, start):
    """The text from `start` (just after an opening bracket) to its closing one."""
    depth, i, quote = 1, start, None
    while i < len(text) and depth > 0:
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'" and not (c == "'" and text[i - 1].isalnum()):
            quote = c
        elif c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        i += 1
    return text[start:i - 1]


def unescape(s):
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), s)


def cpp_fragments(call):
    pieces = []
    for m in CPP_LITERAL.finditer(call):
        pieces.append(m.group(2) if m.group(2) is not None else unescape(m.group(3)))
    return pieces


def py_fragments(call):
    pieces = []
    for m in PY_LITERAL.finditer(call):
        prefix, body = m.group(1).lower(), m.group(3)
        parts = re.split(r"\{[^{}]*\}", body) if "f" in prefix else [body]
        pieces += [p if "r" in prefix else unescape(p) for p in parts]
    return pieces


def messages(path):
    """(line, fragments) of every error message in source file `path`."""
    text = path.read_text(encoding="utf-8", errors="replace")
    python = path.suffix == ".py"
    found = []
    for m in (PY_TRIGGER if python else CPP_TRIGGER).finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if text[line_start:m.start()].lstrip().startswith(("//", "#", "///", "*")):
            continue  # in a comment
        if text[m.end() - 1] in "({":
            call = balanced(text, m.end())
        else:  # a line the command writes: up to the end of the statement
            call = text[m.end():text.find(";", m.end())]
        pieces = py_fragments(call) if python else cpp_fragments(call)
        fragments = [f for f in (p.strip(TRIM) for p in pieces) if len(f) >= MIN_FRAGMENT]
        found.append((text.count("\n", 0, m.start()) + 1, fragments))
    return found


def sources(folders):
    for folder in folders:
        base = ROOT / folder
        files = [base] if base.is_file() else sorted(base.rglob("*"))
        for f in files:
            if f.suffix in (".cpp", ".hpp", ".py") and "tests" not in f.relative_to(ROOT).parts:
                yield f


def test_texts():
    """All the tests' text (as written and with escapes read), and their string
    literals of MIN_TEST_LITERAL+ characters (a test may assert a part of a message)."""
    parts, literals = [], set()
    for folder in TESTS:
        for f in sorted((ROOT / folder).rglob("*")):
            if f.is_file() and f.suffix in (".cpp", ".hpp", ".py", ".json", ".txt", ".cmake", ".ipynb"):
                raw = f.read_text(encoding="utf-8", errors="replace")
                parts += [raw, unescape(raw)]
                pieces = py_fragments(raw) if f.suffix == ".py" else cpp_fragments(raw)
                literals.update(p.strip(TRIM) for p in pieces if len(p.strip(TRIM)) >= MIN_TEST_LITERAL)
    return "\n".join(parts), literals


def asserted(fragments, corpus, literals):
    """Whether a test holds one of `fragments`, or a literal that is part of one."""
    return any(f in corpus for f in fragments) or any(t in f for f in fragments for t in literals)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    corpus, literals = test_texts()
    seen = set()
    total = tested = unsearchable = 0
    untested = []
    for path in sources(EVERYTHING if args.all else SCOPE):
        for line, fragments in messages(path):
            key = (str(path), tuple(fragments)) if fragments else (str(path), line)
            if key in seen:
                continue
            seen.add(key)
            total += 1
            if not fragments:
                unsearchable += 1
            elif asserted(fragments, corpus, literals):
                tested += 1
            else:
                untested.append(f"{path.relative_to(ROOT)}:{line}: " + " | ".join(fragments))
    if not args.quiet:
        print("\n".join(untested))
    print(f"{total} error messages: {tested} asserted by some test, {len(untested)} not, "
          f"{unsearchable} with no literal of {MIN_FRAGMENT}+ characters to look for", file=sys.stderr)


if __name__ == "__main__":
    main()
