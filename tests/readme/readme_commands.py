"""Runs the README's "Using it" commands and its Python block as a newcomer
would: from a repository root, in order, each as written.

    readme_commands.py SOURCE_DIR BUILD_DIR WORK_DIR

The root is WORK_DIR/root: `examples` is the source tree's, `build/release`
is BUILD_DIR. Every command must succeed, the files the README says it
writes must be there, the Python block run as a script must print what its
comments promise, and nothing may be left in the root but `out/` (which git
ignores). Open MPI's permission to run as root and to oversubscribe the
cores is given here, for this test alone.
"""
import os
import pathlib
import shutil
import subprocess
import sys


def block(readme, heading, fence):
    """The lines of the first `fence` code block after `heading`."""
    lines = readme.splitlines()
    at = lines.index(heading)
    start = next(i for i in range(at, len(lines)) if lines[i].startswith(fence)) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
    return lines[start:end]


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def make_root(source, build, work):
    root = work / "root"
    shutil.rmtree(work, ignore_errors=True)
    (root / "build").mkdir(parents=True)
    (root / "examples").symlink_to(source / "examples")
    (root / "build" / "release").symlink_to(build)
    return root


def run_commands(lines, root, env):
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        done = subprocess.run(["bash", "-c", line], cwd=root, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
        print(f"$ {line}\n{done.stdout}", end="")
        if done.returncode != 0:
            fail(f"exit status {done.returncode}: {line}")


def check_outputs(lines, root):
    """Each file a command names after -o, --trace or --plot exists and is not empty."""
    for line in lines:
        words = line.split("#")[0].split()
        for flag, path in zip(words, words[1:]):
            if flag in ("-o", "--trace", "--plot"):
                written = root / path
                if not written.is_file() or written.stat().st_size == 0:
                    fail(f"'{line}' did not write {path}")
                if not path.startswith("out/"):
                    fail(f"'{line}' writes {path} outside out/")


def run_python(lines, root, build, env):
    script = "\n".join(lines) + "\n"
    done = subprocess.run(["/usr/bin/python3", "-c", script], cwd=root, text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, env=dict(env, PYTHONPATH=str(build / "python")), timeout=300)
    print(f"$ python block\n{done.stdout}", end="")
    if done.returncode != 0:
        fail("the Python block failed")
    printed = done.stdout.splitlines()
    if len(printed) != 3:
        fail(f"the Python block printed {len(printed)} lines, not 3")
    status, zeno_time = printed[0].split()[0], float(printed[1].split()[0])
    if status != "error" or "Zeno" not in printed[0] or abs(zeno_time - 8.09) > 0.005:
        fail("the Python block's run did not end in Zeno at 8.09 s, as its comment says")
    if abs(float(printed[2]) - 2.0) > 1e-12:  # x(1) = 2 for x' = 2, x(0) = 0
        fail("the ramp's x(1) is not 2")


def main():
    source, build, work = (pathlib.Path(a).resolve() for a in sys.argv[1:4])
    readme = (source / "README.md").read_text()
    root = make_root(source, build, work)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1", MPLBACKEND="Agg")
    commands = block(readme, "## Using it", "```sh")
    run_commands(commands, root, env)
    check_outputs(commands, root)
    run_python(block(readme, "## Using it", "```python"), root, build, env)
    left = sorted(p.name for p in root.iterdir())
    if left != ["build", "examples", "out"]:
        fail(f"the README's commands left {left} in the repository root; only out/ may be added")
    print("ok: every command of the README ran and left only out/")


if __name__ == "__main__":
    main()
