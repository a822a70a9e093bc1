# `cmake --install` puts the Python package where the interpreter finds it:
# installs the build into WORK_DIR/prefix, then imports ctde from
# <prefix>/<CTDE_PYTHON_INSTALL_DIR> alone (not the build's copy) and runs a model.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE result OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${err}")
endif()
set(code [=[
import pathlib, sys, ctde
prefix = pathlib.Path(sys.argv[1]).resolve()
assert prefix in pathlib.Path(ctde.__file__).resolve().parents, ctde.__file__
m = ctde.Model("ramp", director={"stop_time": 1})
m.add("Constant", "slope", value=2.0)
m.add("Integrator", "x")
m.connect("slope.out", "x.in")
r = m.run()
assert r.status == "ok" and abs(r["x.out"][-1] - 2.0) < 1e-9, r.message
print("installed ctde", ctde.__version__, "at", ctde.__file__)
]=])
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${WORK_DIR}/prefix/${INSTALL_DIR}
                        ${PYTHON} -c "${code}" ${WORK_DIR}/prefix
                WORKING_DIRECTORY ${WORK_DIR}  # not ctest's, <build>/python, which holds the build's copy
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the installed package does not work (${result}):\n${out}\n${err}")
endif()
message(STATUS "${out}")
