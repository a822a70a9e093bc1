// The bouncing ball exported as a Co-Simulation FMU (`ctde export
// examples/models/bouncing_ball.json`, FMI 3) and stepped by a minimal
// importer at a fixed communication step, against the native run of the same
// model (run_export_bench.sh exports it and runs this).
//
//   export_ball_bench BALL.fmu [step] [repeats]   (defaults 1e-3, 5)
//
// Runs to the model's stop time, each the best wall time of `repeats`:
//   load     the model file loaded and set up (load_model_file, set_up_run)
//   native   Director::run() of the model file, no sinks (what ctde run computes)
//   rows     the same run recording h and v at every communication point into
//            memory (output_interval = step): the native run that gives
//            what the FMU gives, the target's baseline
//   exact    the director paused at every communication point with its
//            solver stopped there (Director::Pause::kExact), h and v read
//   ahead    the same, the solver stepping on past the points
//            (Pause::kAhead, as the FMU's DoStep pauses)
//   fmu      instantiate, initialize, one fmi3DoStep and one fmi3GetFloat64
//            (h, v) per communication point, free: what an importer pays;
//            setup: the same without a step
// Prints key=value lines, the last h of each (they must agree) and the ratios.
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "actors/builtin_actors.hpp"
#include "actors/fmi/fmi3_api.hpp"
#include "actors/fmi/fmu_archive.hpp"
#include "core/columnar_results.hpp"
#include "core/model_file.hpp"
#include "core/time.hpp"
#include "domains/ctde/director.hpp"
#include "run/run_setup.hpp"

namespace {

using Clock = std::chrono::steady_clock;
namespace fmi3 = ctde::fmi3;

struct Timed {
  double seconds = std::numeric_limits<double>::infinity();
  double last_h = 0;
};

template <class F>
Timed best_of(int repeats, const F& run) {
  Timed best;
  for (int r = 0; r < repeats; ++r) {
    const auto start = Clock::now();
    const double h = run();
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    if (s < best.seconds) best = {s, h};
  }
  return best;
}

template <class T>
T symbol(void* library, const char* name) {
  void* f = dlsym(library, name);
  if (f == nullptr) {
    std::fprintf(stderr, "no %s in the FMU's binary\n", name);
    std::exit(2);
  }
  return reinterpret_cast<T>(f);
}

void log_message(fmi3::InstanceEnvironment, fmi3::Status, fmi3::String category, fmi3::String message) {
  std::fprintf(stderr, "[%s] %s\n", category, message);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: export_ball_bench BALL.fmu [step] [repeats]\n");
    return 2;
  }
  const double step = argc > 2 ? std::atof(argv[2]) : 1e-3;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 5;
  const std::string model_file = std::string(CTDE_SOURCE_DIR) + "/examples/models/bouncing_ball.json";
  ctde::Model model = ctde::load_model_file(model_file, ctde::builtin_actors());
  const ctde::RunSetup setup = ctde::set_up_run(model, std::nullopt);
  const double stop = setup.options.stop_time;
  const ctde::TimeResolution resolution(setup.options.time_resolution);
  const ctde::Tick ticks = resolution.to_ticks(step);
  const long points = static_cast<long>(resolution.to_ticks(stop) / ticks);

  const Timed load = best_of(repeats, [&] {
    ctde::Model loaded = ctde::load_model_file(model_file, ctde::builtin_actors());
    const ctde::RunSetup again = ctde::set_up_run(loaded, std::nullopt);
    return again.options.stop_time;
  });
  const Timed native = best_of(repeats, [&] {
    ctde::Director director(setup.flat, setup.options, model.name());
    (void)director.run();
    return 0.0;
  });
  const Timed rows = best_of(repeats, [&] {
    ctde::RunOptions options = setup.options;
    options.output_interval = step;
    ctde::ColumnarResults results(setup.signals, static_cast<std::size_t>(points) + 64);
    ctde::Director director(setup.flat, options, model.name(), nullptr, &results);
    (void)director.run();
    return results.column("h.out").back();
  });
  const auto paused_run = [&](ctde::Director::Pause how) {
    ctde::Director director(setup.flat, setup.options, model.name());
    (void)director.advance_to(0, how);
    const auto h = director.output_values("h.out");
    const auto v = director.output_values("v.out");
    double sum = 0;
    for (long k = 1; k <= points; ++k) {
      (void)director.advance_to(resolution.to_seconds(k * ticks), how);
      sum += v[0];
    }
    return h[0] + 0 * sum;
  };
  const Timed exact = best_of(repeats, [&] { return paused_run(ctde::Director::Pause::kExact); });
  const Timed ahead = best_of(repeats, [&] { return paused_run(ctde::Director::Pause::kAhead); });

  const ctde::FmuArchive archive(argv[1]);
  // EXPORT_BENCH_BINARY: the same binary from elsewhere (a profiler finds its symbols there).
  const char* other = std::getenv("EXPORT_BENCH_BINARY");
  const std::string binary =
      other != nullptr ? other : (archive.folder() / "binaries/x86_64-linux/bouncing_ball.so").string();
  void* library = dlopen(binary.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  const std::string description = archive.text("modelDescription.xml");
  const auto token_at = description.find("instantiationToken=\"") + 20;
  const std::string token = description.substr(token_at, description.find('"', token_at) - token_at);
  const std::string resources = (archive.folder() / "resources").string() + "/";
  const auto instantiate = symbol<fmi3::InstantiateCoSimulationFn>(library, "fmi3InstantiateCoSimulation");
  const auto enter = symbol<fmi3::EnterInitializationModeFn>(library, "fmi3EnterInitializationMode");
  const auto exit_init = symbol<fmi3::ExitInitializationModeFn>(library, "fmi3ExitInitializationMode");
  const auto do_step = symbol<fmi3::DoStepFn>(library, "fmi3DoStep");
  const auto get = symbol<fmi3::GetFloat64Fn>(library, "fmi3GetFloat64");
  const auto free_instance = symbol<fmi3::FreeInstanceFn>(library, "fmi3FreeInstance");
  const fmi3::ValueReference refs[2] = {1, 2};  // h, v: the first two outputs after time
  const auto fmu_run = [&](long steps) {
    fmi3::Instance instance = instantiate("ball", token.c_str(), resources.c_str(), false, false, false,
                                          false, nullptr, 0, nullptr, log_message, nullptr);
    if (instance == nullptr || enter(instance, false, 0, 0, true, stop) != fmi3::Status::kOK ||
        exit_init(instance) != fmi3::Status::kOK) {
      std::exit(3);
    }
    double values[2] = {0, 0};
    double sum = 0;
    for (long k = 0; k < steps; ++k) {
      bool handling = false;
      bool terminate = false;
      bool early = false;
      double last = 0;
      if (do_step(instance, resolution.to_seconds(k * ticks), step, false, &handling, &terminate, &early,
                  &last) != fmi3::Status::kOK)
        std::exit(3);
      (void)get(instance, refs, 2, values, 2);
      sum += values[1];
    }
    free_instance(instance);
    return values[0] + 0 * sum;
  };
  const Timed fmu = best_of(repeats, [&] { return fmu_run(points); });
  const Timed setup_only = best_of(repeats, [&] { return fmu_run(0); });
  std::printf("step=%g\npoints=%ld\n", step, points);
  std::printf("native_seconds=%.6f\nrows_seconds=%.6f\nexact_seconds=%.6f\nahead_seconds=%.6f\n",
              native.seconds, rows.seconds, exact.seconds, ahead.seconds);
  std::printf("fmu_seconds=%.6f\nfmu_setup_seconds=%.6f\n", fmu.seconds, setup_only.seconds);
  std::printf("rows_last_h=%.17g\nahead_last_h=%.17g\nfmu_last_h=%.17g\n", rows.last_h, ahead.last_h,
              fmu.last_h);
  std::printf("ratio_fmu_over_rows=%.3f\nratio_fmu_over_native=%.3f\nratio_fmu_over_ahead=%.3f\n",
              fmu.seconds / rows.seconds, fmu.seconds / native.seconds, fmu.seconds / ahead.seconds);
  std::printf("load_seconds=%.6f\n", load.seconds);
  // The target's ratio: the FMU from instantiation to its last step against
  // the native run that gives the same values, from loading its file.
  std::printf("ratio_fmu_over_load_and_rows=%.3f\n", fmu.seconds / (load.seconds + rows.seconds));
  std::printf("ratio_fmu_steps_over_rows=%.3f\n", (fmu.seconds - setup_only.seconds) / rows.seconds);
  std::printf("ratio_ahead_over_rows=%.3f\nratio_exact_over_ahead=%.3f\n", ahead.seconds / rows.seconds,
              exact.seconds / ahead.seconds);
  // The FMU, the director paused ahead and the run's rows give one answer.
  return rows.last_h == fmu.last_h && ahead.last_h == fmu.last_h ? 0 : 1;
}
