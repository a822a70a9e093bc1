#pragma once
/// StatesView: the director shows the actors other states than the run's
/// for a while (a solver's trial stage, a packed part's states in the run's
/// layout, the state at a row inside a step) by pointing RunBuffers::x at
/// them; the view puts it back at the run's own states (x_storage) when it
/// ends, also when an actor throws on the way.

#include "../../core/run_buffers.hpp"

namespace ctde {

/// Points `b.x` at `x` for the view's scope. Not copyable, not movable.
class StatesView {
 public:
  StatesView(RunBuffers& b, const double* x) : b_(b) { b_.x = x; }
  ~StatesView() { b_.x = b_.x_storage.data(); }
  StatesView(const StatesView&) = delete;
  StatesView& operator=(const StatesView&) = delete;
  StatesView(StatesView&&) = delete;
  StatesView& operator=(StatesView&&) = delete;

 private:
  RunBuffers& b_;
};

}  // namespace ctde
