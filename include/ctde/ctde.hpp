#pragma once
/// ctde's public API in one include: models and what checks them, the
/// actors, the model-file loader and the registry, the director and its
/// options and result, the trace writer and the results sinks.
///
///     #include <ctde/ctde.hpp>
///
/// Installed as <prefix>/include/ctde/ctde.hpp, beside the folders it
/// includes (core/, domains/, actors/: each header also works alone, as
/// <ctde/core/model.hpp>). In the source tree those folders are at the root,
/// which the build puts on the include path.

#include <ctde/version.hpp>

// Models, checks, errors.
#include "core/actor.hpp"
#include "core/actor_context.hpp"
#include "core/composite.hpp"
#include "core/error.hpp"
#include "core/model.hpp"
#include "core/param.hpp"
#include "core/time.hpp"
#include "core/validate.hpp"

// Model files and actor types by name.
#include "actors/builtin_actors.hpp"
#include "core/model_file.hpp"
#include "core/registry.hpp"

// Running: the director, its options and result; the trace and the results.
#include "core/columnar_results.hpp"
#include "core/csv_results.hpp"
#include "core/recorded_signal.hpp"
#include "core/results_sink.hpp"
#include "core/run_statistics.hpp"
#include "core/trace.hpp"
#include "domains/ctde/director.hpp"
#include "domains/ctde/run_options.hpp"
#include "domains/ctde/run_result.hpp"

// The actor library (docs/model-reference.md): every type's header
// (tests/actors/test_builtin_actors.cpp checks that none is missing).
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
