#include "actors/builtin_actors.hpp"

#include "actors/continuous/derivative.hpp"
#include "actors/continuous/integrator.hpp"
#include "actors/continuous/pid.hpp"
#include "actors/continuous/state_space.hpp"
#include "actors/continuous/transfer_function.hpp"
#include "actors/continuous/transport_delay.hpp"
#include "actors/converters/first_order_hold.hpp"
#include "actors/converters/periodic_sampler.hpp"
#include "actors/converters/sampler.hpp"
#include "actors/converters/zero_order_hold.hpp"
#include "actors/discrete/accumulator.hpp"
#include "actors/discrete/counter.hpp"
#include "actors/discrete/current_microstep.hpp"
#include "actors/discrete/current_time.hpp"
#include "actors/discrete/discrete_integrator.hpp"
#include "actors/discrete/discrete_pid.hpp"
#include "actors/discrete/discrete_state_space.hpp"
#include "actors/discrete/discrete_transfer_function.hpp"
#include "actors/discrete/exponential_random.hpp"
#include "actors/discrete/filter.hpp"
#include "actors/discrete/gaussian_random.hpp"
#include "actors/discrete/merge.hpp"
#include "actors/discrete/queue.hpp"
#include "actors/discrete/rate_limiter.hpp"
#include "actors/discrete/resettable_timer.hpp"
#include "actors/discrete/server.hpp"
#include "actors/discrete/time_delay.hpp"
#include "actors/discrete/uniform_random.hpp"
#include "actors/discrete/unit_delay.hpp"
#include "actors/discrete/variable_delay.hpp"
#include "actors/events/level_crossing_detector.hpp"
#include "actors/events/relay.hpp"
#include "actors/events/zero_crossing_detector.hpp"
#include "actors/fmi/fmu.hpp"
#include "actors/math/abs.hpp"
#include "actors/math/dead_zone.hpp"
#include "actors/math/demux.hpp"
#include "actors/math/expression.hpp"
#include "actors/math/gain.hpp"
#include "actors/math/lookup1d.hpp"
#include "actors/math/min_max.hpp"
#include "actors/math/mux.hpp"
#include "actors/math/product.hpp"
#include "actors/math/quantizer.hpp"
#include "actors/math/saturation.hpp"
#include "actors/math/selector.hpp"
#include "actors/math/sum.hpp"
#include "actors/math/switch.hpp"
#include "actors/modal/modal_model.hpp"
#include "actors/sinks/stop.hpp"
#include "actors/sources/clock.hpp"
#include "actors/sources/constant.hpp"
#include "actors/sources/discrete_clock.hpp"
#include "actors/sources/input.hpp"
#include "actors/sources/poisson_clock.hpp"
#include "actors/sources/ramp.hpp"
#include "actors/sources/sine.hpp"
#include "actors/sources/single_event.hpp"
#include "actors/sources/step.hpp"
#include "actors/sources/time_table.hpp"

namespace ctde {

void register_builtin_actors(ActorRegistry& registry) {
  register_actor<Abs>(registry);
  register_actor<Accumulator>(registry);
  register_actor<Clock>(registry);
  register_actor<Constant>(registry);
  register_actor<Counter>(registry);
  register_actor<CurrentMicrostep>(registry);
  register_actor<CurrentTime>(registry);
  register_actor<DeadZone>(registry);
  register_actor<Demux>(registry);
  register_actor<Derivative>(registry);
  register_actor<DiscreteClock>(registry);
  register_actor<DiscreteIntegrator>(registry);
  register_actor<DiscretePID>(registry);
  register_actor<DiscreteStateSpace>(registry);
  register_actor<DiscreteTransferFunction>(registry);
  register_actor<ExponentialRandom>(registry);
  register_actor<Expression>(registry);
  register_actor<Filter>(registry);
  register_actor<FirstOrderHold>(registry);
  register_actor<FMU>(registry);
  register_actor<Gain>(registry);
  register_actor<GaussianRandom>(registry);
  register_actor<Input>(registry);
  register_actor<Integrator>(registry);
  register_actor<LevelCrossingDetector>(registry);
  register_actor<Lookup1D>(registry);
  register_actor<Merge>(registry);
  register_actor<MinMax>(registry);
  register_actor<ModalModel>(registry);
  register_actor<Mux>(registry);
  register_actor<PID>(registry);
  register_actor<PeriodicSampler>(registry);
  register_actor<PoissonClock>(registry);
  register_actor<Product>(registry);
  register_actor<Quantizer>(registry);
  register_actor<Queue>(registry);
  register_actor<Ramp>(registry);
  register_actor<RateLimiter>(registry);
  register_actor<Relay>(registry);
  register_actor<ResettableTimer>(registry);
  register_actor<Sampler>(registry);
  register_actor<Saturation>(registry);
  register_actor<Selector>(registry);
  register_actor<Server>(registry);
  register_actor<Sine>(registry);
  register_actor<SingleEvent>(registry);
  register_actor<StateSpace>(registry);
  register_actor<Step>(registry);
  register_actor<Stop>(registry);
  register_actor<Sum>(registry);
  register_actor<Switch>(registry);
  register_actor<TimeDelay>(registry);
  register_actor<TimeTable>(registry);
  register_actor<TransferFunction>(registry);
  register_actor<TransportDelay>(registry);
  register_actor<UniformRandom>(registry);
  register_actor<UnitDelay>(registry);
  register_actor<VariableDelay>(registry);
  register_actor<ZeroCrossingDetector>(registry);
  register_actor<ZeroOrderHold>(registry);
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
