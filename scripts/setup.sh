#!/usr/bin/env bash
# Installs what ctde needs from Debian's packages (only what is missing).
#   scripts/setup.sh [MORE_PACKAGES...]   (scripts/fuzz.sh adds clang's)
set -euo pipefail

packages=(
  build-essential cmake pkg-config ccache   # ccache: rebuilds of unchanged sources are cache hits
  libboost-dev libboost-graph-dev     # model graph (Boost.Graph), event queue candidates (Boost.Heap)
  libsundials-dev                     # ARKODE, CVODE (BDF) and the KLU linear solver module
  libsuitesparse-dev                  # KLU, the sparse direct solver behind linear_solver "klu"
  liblapack-dev                       # eigenvalues of a linearization (ctde linearize)
  libspdlog-dev libfmt-dev            # logging and the trace sink
  doctest-dev nlohmann-json3-dev libcli11-dev libmuparser-dev
  libsystemc-dev                      # the DE benchmark baseline
  python3-matplotlib                  # ctde run --plot and scripts/plot_results.py (run by /usr/bin/python3)
  python3-scipy                       # the scipy benchmark baseline; ctde plot reads .mat results with it
  graphviz                            # ctde graph -o model.svg (the `dot` program)
  clang-format clang-tidy             # scripts/lint.sh, run by the test command
  universal-ctags                     # scripts/check_structure.py (in lint): functions and members
  pybind11-dev python3-dev            # the Python package (python/, docs/python.md), for /usr/bin/python3
  python3-numpy python3-pandas        # its results as arrays and frames
  python3-pytest                      # its tests (ctest's `python` test)
  python3-pip python3-venv            # pip install of the package into a venv (ctest's `python_pip` test)
  python3-setuptools python3-wheel python3-build  # setup.py's build backend; python3 -m build --wheel, offline
  python3-nbclient python3-nbconvert python3-ipykernel  # the example notebook, executed by those tests
  libzip-dev libpugixml-dev           # FMU import: FMU archives and modelDescription.xml (actors/fmi/)
  libhdf5-dev                         # results in HDF5: the serial flavour, on purpose (docs/sweep.md)
  libmatio-dev                        # results in MATLAB's .mat (ctde run -o x.mat)
  libopenmpi-dev openmpi-bin          # mpirun ctde sweep (find_package(MPI)); the tests run mpirun -np 2 and 3
  python3-h5py                        # ctde plot reads .h5 results; the sweep tests read them back (scipy the .mat)
  python3-distributed                 # ctde.sweep(..., client=) on a Dask cluster; its test starts a LocalCluster
  bc valgrind                         # bench/sweep/run_sweep_bench.sh (times, instruction counts)
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "setup: installing ${missing[*]}" >&2
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
