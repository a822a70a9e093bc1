#pragma once
/// Read-only numpy views of C++ memory: the results reach Python without a copy.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>

namespace ctde::python {

/// A read-only 1-D numpy view of `size` values at `data`, kept alive by
/// `owner` (the array's base: a capsule, or the Python object holding them).
template <class T>
pybind11::array view(const T* data, std::size_t size, const pybind11::handle& owner) {
  pybind11::array_t<T> array({static_cast<pybind11::ssize_t>(size)},
                             {static_cast<pybind11::ssize_t>(sizeof(T))}, data, owner);
  pybind11::detail::array_proxy(array.ptr())->flags &= ~pybind11::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return array;
}

}  // namespace ctde::python
