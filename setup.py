"""Builds the Python package `ctde` for pip with the project's CMake (docs/python.md).

setuptools (pyproject.toml) copies the pure-Python half, python/ctde/*.py;
build_ext here configures CMake in setuptools' build_temp folder with the
package's targets alone (tests, benchmarks and examples off), builds `_ctde`
(which builds libctde and ctde_cli_lib, which it links) and installs CMake's
`python_wheel` component, `_ctde` and libctde.so beside it, found through an
$ORIGIN rpath, into the package: a wheel needs no ctde installed.

Environment: CMAKE_ARGS (more CMake options, e.g. "-DCTDE_MPI=OFF"),
CMAKE_BUILD_PARALLEL_LEVEL (compile jobs; default one per core),
CCACHE_BASEDIR (default this folder; ccache is used when installed).
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def cmake_version():
    """The version of the project's CMake `project()` call, the package's version."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(\s*ctde\s+VERSION\s+([0-9][0-9.]*)", text)
    if match is None:
        raise RuntimeError(f"no 'project(ctde VERSION x.y.z' in {ROOT / 'CMakeLists.txt'}")
    return match.group(1)


class CMakeBuild(build_ext):
    """Builds the extension `ctde._ctde` by running CMake instead of compiling sources."""

    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        build_dir = Path(self.build_temp).resolve()
        build_dir.mkdir(parents=True, exist_ok=True)
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DCTDE_BUILD_TESTS=OFF", "-DCTDE_BUILD_BENCH=OFF", "-DCTDE_BUILD_EXAMPLES=OFF",
            "-DCTDE_BUILD_PYTHON=ON", "-DCTDE_PYTHON_WHEEL=ON",
            f"-DPYTHON_EXECUTABLE={sys.executable}", f"-DPython_EXECUTABLE={sys.executable}",
        ]
        env = dict(os.environ)
        if shutil.which("ccache"):
            configure += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
            env.setdefault("CCACHE_BASEDIR", str(ROOT))  # as scripts/build.sh: other clones share the cache
        configure += shlex.split(env.get("CMAKE_ARGS", ""))
        build = ["cmake", "--build", str(build_dir), "--target", "_ctde"]
        if not env.get("CMAKE_BUILD_PARALLEL_LEVEL"):
            build += ["--parallel", str(os.cpu_count() or 1)]
        # The package's folder: `<prefix>/ctde`, with the component's DESTINATION `ctde`.
        install = ["cmake", "--install", str(build_dir), "--component", "python_wheel",
                   "--prefix", str(target.parent.parent)]
        for command in (configure, build, install):
            print(" ".join(shlex.quote(word) for word in command), flush=True)
            subprocess.run(command, check=True, env=env)
        if not target.is_file():
            raise RuntimeError(f"CMake installed no {target.name} in {target.parent} "
                               "(another Python's extension suffix?)")


setup(
    version=cmake_version(),
    packages=["ctde"],
    package_dir={"ctde": "python/ctde"},
    ext_modules=[Extension("ctde._ctde", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
