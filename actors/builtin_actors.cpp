#include "actors/builtin_actors.hpp"

#include "actors/continuous/integrator.hpp"
#include "actors/continuous/state_space.hpp"
#include "actors/continuous/transfer_function.hpp"
#include "actors/converters/first_order_hold.hpp"
#include "actors/converters/periodic_sampler.hpp"
#include "actors/converters/sampler.hpp"
#include "actors/converters/zero_order_hold.hpp"
#include "actors/discrete/accumulator.hpp"
#include "actors/discrete/counter.hpp"
#include "actors/discrete/merge.hpp"
#include "actors/discrete/queue.hpp"
#include "actors/discrete/server.hpp"
#include "actors/discrete/time_delay.hpp"
#include "actors/events/level_crossing_detector.hpp"
#include "actors/events/zero_crossing_detector.hpp"
#include "actors/math/abs.hpp"
#include "actors/math/expression.hpp"
#include "actors/math/gain.hpp"
#include "actors/math/lookup1d.hpp"
#include "actors/math/min_max.hpp"
#include "actors/math/product.hpp"
#include "actors/math/saturation.hpp"
#include "actors/math/sum.hpp"
#include "actors/modal/modal_model.hpp"
#include "actors/sinks/stop.hpp"
#include "actors/sources/clock.hpp"
#include "actors/sources/constant.hpp"
#include "actors/sources/discrete_clock.hpp"
#include "actors/sources/poisson_clock.hpp"
#include "actors/sources/ramp.hpp"
#include "actors/sources/sine.hpp"
#include "actors/sources/single_event.hpp"
#include "actors/sources/step.hpp"
#include "actors/sources/time_table.hpp"

namespace ctde {

void register_builtin_actors(ActorRegistry& registry) {
  register_actor<Integrator>(registry, "Integrator", "continuous",
                             "x' = in, out = x, x(start) = initial (a vector: the width; a scalar: broadcast to in's width).");
  register_actor<StateSpace>(registry, "StateSpace", "continuous",
                             "x' = A x + B u, y = C x + D u, x(start) = initial.");
  register_actor<TransferFunction>(registry, "TransferFunction", "continuous",
                                   "Y(s)/U(s) = num(s)/den(s), coefficients from the highest power down.");
  register_actor<FirstOrderHold>(registry, "FirstOrderHold", "converters",
                                 "A discrete-to-continuous converter: the output extrapolates linearly from "
                                 "the last two tokens received (`initial` before the first).");
  register_actor<PeriodicSampler>(registry, "PeriodicSampler", "converters",
                                  "A continuous-to-discrete converter: an event carrying the input's value "
                                  "at offset + k * period, k = 0, 1, ...");
  register_actor<Sampler>(registry, "Sampler", "converters",
                          "A continuous-to-discrete converter: at each event on `trigger`, an event carrying "
                          "the value of `in` at that tag.");
  register_actor<ZeroOrderHold>(registry, "ZeroOrderHold", "converters",
                                "A discrete-to-continuous converter: the output holds the last token "
                                "received (`initial` before the first; scalar or of the input's width).");
  register_actor<Accumulator>(registry, "Accumulator", "discrete",
                              "The running sum of the tokens received, starting from `initial`.");
  register_actor<Counter>(registry, "Counter", "discrete",
                          "The number of events received so far (of any width), sent at each event.");
  register_actor<Merge>(registry, "Merge", "discrete",
                        "Every token on any of `inputs` inputs goes out; simultaneous tokens go out in input "
                        "order, one microstep apart.");
  register_actor<Queue>(registry, "Queue", "discrete",
                        "A FIFO of tokens: tokens on `in` are stored (up to `capacity`; beyond it they are "
                        "dropped); each event on the optional `trigger` sends the oldest.");
  register_actor<Server>(registry, "Server", "discrete",
                         "A single server with an unbounded FIFO queue: each token waits its turn, is served "
                         "for `service_time`, then departs on `out`.");
  register_actor<TimeDelay>(registry, "TimeDelay", "discrete",
                            "Each token sent to it at (t, n) is sent again at (t + delay, 0); a delay of 0 "
                            "sends it at (t, n + 1), the microstep after the one it was sent at, whatever "
                            "path brought it.");
  register_actor<LevelCrossingDetector>(
      registry, "LevelCrossingDetector", "events",
      "A state-event generator: when the input crosses `level` in `direction` (\"rising\", \"falling\" or "
      "\"both\"), an event carrying the input's value at the located crossing.");
  register_actor<ZeroCrossingDetector>(
      registry, "ZeroCrossingDetector", "events",
      "A state-event generator: when the input crosses zero in `direction` (\"rising\", \"falling\" or "
      "\"both\"), an event carrying the input's value at the located crossing.");
  register_actor<Abs>(registry, "Abs", "math", "|u|, element by element.");
  register_actor<Expression>(registry, "Expression", "math",
                             "y = expr, a muparser expression over in0..in{inputs-1}, t and the model's "
                             "parameters (\"in0 * sin(t) + k\").");
  register_actor<Gain>(registry, "Gain", "math",
                       "y = k u: a scalar k scales every element; a matrix k (rows x cols) takes an input of "
                       "width cols to an output of width rows.");
  register_actor<Lookup1D>(registry, "Lookup1D", "math",
                           "y = the piecewise-linear interpolation of the table (x, y) at u, element by "
                           "element; constant beyond the ends.");
  register_actor<MinMax>(
      registry, "MinMax", "math",
      "The element-wise minimum (\"min\") or maximum (\"max\") of `inputs` inputs of equal width.");
  register_actor<Product>(registry, "Product", "math",
                          "y = product of in_i (for '*') or 1/in_i (for '/'), element by element, one input "
                          "per character of `ops` (\"**/\").");
  register_actor<Saturation>(registry, "Saturation", "math",
                             "min(max(u, lower), upper), element by element.");
  register_actor<Sum>(registry, "Sum", "math",
                      "y = sum of +in_i or -in_i, one input per character of `signs` (\"+-+\").");
  register_actor<ModalModel>(
      registry, "ModalModel", "modal",
      "A mode chart over continuous states: per-mode derivatives and outputs, transitions taken when their "
      "guard predicate becomes true (located as state events), compound transitions through instantaneous "
      "modes with entry and set actions (docs/modal.md).");
  register_actor<Stop>(registry, "Stop", "sinks", "Any event on `in` ends the run with status \"stopped\".");
  register_actor<Clock>(registry, "Clock", "sources",
                        "The model time t, in seconds, as a continuous signal.");
  register_actor<Constant>(registry, "Constant", "sources", "A constant value (scalar or vector).");
  register_actor<DiscreteClock>(registry, "DiscreteClock", "sources",
                                "Events at offsets[i] + k * period for k = 0, 1, ..., carrying values[i].");
  register_actor<PoissonClock>(registry, "PoissonClock", "sources",
                               "Events at exponentially distributed intervals of mean `mean_interval`, drawn "
                               "from a generator seeded with `seed`: the same seed gives the same times.");
  register_actor<Ramp>(registry, "Ramp", "sources", "0 before `start_time`, then slope * (t - start_time).");
  register_actor<Sine>(
      registry, "Sine", "sources",
      "amplitude * sin(2 pi frequency t + phase) + bias, frequency in Hz, phase in radians.");
  register_actor<SingleEvent>(registry, "SingleEvent", "sources",
                              "One event at `time` carrying `value` (scalar or vector).");
  register_actor<Step>(registry, "Step", "sources", "`before` until `time`, `after` from `time` on.");
  register_actor<TimeTable>(registry, "TimeTable", "sources",
                            "A signal given by points [t, v0, v1, ...] (inline, or a CSV file of the same "
                            "columns), interpolated \"linear\" or \"hold\".");
}

const ActorRegistry& builtin_actors() {
  static const ActorRegistry registry = [] {
    ActorRegistry made;
    register_builtin_actors(made);
    return made;
  }();
  return registry;
}

}  // namespace ctde
