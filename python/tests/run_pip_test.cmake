# `pip install` of the repository's root builds and installs the package `ctde` (setup.py,
# docs/python.md), and `python3 -m build --wheel` makes a wheel that needs no ctde installed:
# with Debian's pip, setuptools and build (no build isolation) and offline (--no-index), into a
# fresh venv made by PYTHON with --system-site-packages (numpy from Debian). After each install,
# from an empty folder, the venv's Python imports ctde (the venv's copy, with the libctde beside
# it) and runs a ramp against its closed form; `pip uninstall` then leaves nothing behind.
#
# pip builds a copy of SOURCE_DIR in WORK_DIR/src: pip writes build/ and ctde.egg-info/ into the
# folder it installs, which stays untouched, and the copy's CMake build folder,
# build/temp.<platform>, is as deep in it as build/release in the sources, so that with
# CCACHE_BASEDIR at the copy the compiler commands are the usual build's and hit ccache.
cmake_minimum_required(VERSION 3.22)
foreach(var SOURCE_DIR WORK_DIR PYTHON VERSION)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_pip_test.cmake: -D${var}= missing")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/src ${WORK_DIR}/run)

# The sources: every top-level entry but the build, output and version-control ones.
file(GLOB entries RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*)
foreach(entry ${entries})
  if(NOT entry MATCHES "^(build.*|out|dist|stage|\\..*|.*\\.egg-info)$")
    file(COPY ${SOURCE_DIR}/${entry} DESTINATION ${WORK_DIR}/src)
  endif()
endforeach()

set(jobs $ENV{CMAKE_BUILD_PARALLEL_LEVEL})
if(NOT jobs)
  set(jobs 2)
endif()
# The environment pip and the checks run in: nothing from the caller's PYTHONPATH or CMAKE_ARGS.
set(env ${CMAKE_COMMAND} -E env --unset=PYTHONPATH --unset=CMAKE_ARGS --unset=PIP_REQUIRE_VIRTUALENV
        CCACHE_BASEDIR=${WORK_DIR}/src CMAKE_BUILD_PARALLEL_LEVEL=${jobs}
        PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1)
set(venv_python ${WORK_DIR}/venv/bin/python)

# step(NAME COMMAND...): runs the command in WORK_DIR/run, fails with its output, says how long it took.
function(step name)
  string(TIMESTAMP start "%s")
  execute_process(COMMAND ${env} ${ARGN} WORKING_DIRECTORY ${WORK_DIR}/run
                  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(TIMESTAMP end "%s")
  math(EXPR seconds "${end} - ${start}")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${name} failed (${result}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${name}: ${seconds} s")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

# Run with -I (no PYTHONPATH, no user site, not the current folder): the package must be the
# venv's, its libctde the one beside _ctde, its version the project's, and x = 2 t (the closed form).
set(check [=[
import importlib.metadata, pathlib, sys
import numpy as np
import ctde
site = pathlib.Path(sys.argv[1]).resolve()
package = pathlib.Path(ctde.__file__).resolve().parent
assert package.parent == site, f"ctde imported from {package}, not {site}"
libs = {line.split()[-1] for line in open("/proc/self/maps") if "libctde" in line}
assert libs == {str(package / "libctde.so")}, f"libctde loaded from {libs}"
assert ctde.__version__ == importlib.metadata.version("ctde") == sys.argv[2], ctde.__version__
m = ctde.Model("ramp", director={"stop_time": 1})
m.add("Constant", "slope", value=2.0)
m.add("Integrator", "x")
m.connect("slope.out", "x.in")
r = m.run()
assert r.status == "ok", r.message
assert np.allclose(r["x.out"], 2.0 * r.time, rtol=0, atol=1e-9) and r.time[-1] == 1.0
print("ctde", ctde.__version__, "from", package)
]=])
# No file of the package left in the venv after `pip uninstall ctde`.
set(check_gone [=[
import pathlib, sys
left = sorted(p.name for p in pathlib.Path(sys.argv[1]).iterdir() if p.name.lower().startswith("ctde"))
assert not left, f"left after pip uninstall: {left}"
]=])

step("venv" ${PYTHON} -m venv --system-site-packages ${WORK_DIR}/venv)
step("site-packages" ${venv_python} -c "import sysconfig\nprint(sysconfig.get_path('platlib'))")  # no ';' in a list
string(STRIP "${step_output}" site)
set(pip ${venv_python} -m pip)

step("pip install" ${pip} install --no-build-isolation --no-index ${WORK_DIR}/src)
step("check pip install" ${venv_python} -I -c "${check}" ${site} ${VERSION})
message(STATUS "${step_output}")
step("pip uninstall" ${pip} uninstall --yes ctde)
step("check pip uninstall" ${venv_python} -I -c "${check_gone}" ${site})

step("build wheel" ${PYTHON} -m build --wheel --no-isolation --outdir ${WORK_DIR}/dist ${WORK_DIR}/src)
file(GLOB wheel ${WORK_DIR}/dist/ctde-${VERSION}-*.whl)
list(LENGTH wheel count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "python3 -m build made no single ctde-${VERSION}-*.whl: ${wheel}")
endif()
step("pip install wheel" ${pip} install --no-index ${wheel})
step("check wheel" ${venv_python} -I -c "${check}" ${site} ${VERSION})
step("pip uninstall wheel" ${pip} uninstall --yes ctde)
step("check wheel uninstall" ${venv_python} -I -c "${check_gone}" ${site})
