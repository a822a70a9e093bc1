// The bouncing ball exported as a Co-Simulation FMU (`ctde export
// examples/models/bouncing_ball.json`, FMI 3) and stepped by a minimal
// importer at a fixed communication step, against the native run of the same
// model (run_export_bench.sh exports it and runs this).
//
//   export_ball_bench BALL.fmu [step] [repeats]   (defaults 1e-3, 5)
//
// Three runs to the model's stop time, each the best wall time of `repeats`:
//   native   Director::run() of the model file, no sinks (what ctde run computes)
//   paused   the same director paused at every communication point
//            (Director::advance_to) and its outputs h and v read there: the
//            native run doing what the FMU does
//   fmu      instantiate, initialize, one fmi3DoStep and one fmi3GetFloat64
//            (h, v) per communication point, free: what an importer pays
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

  const Timed native = best_of(repeats, [&] {
    ctde::Director director(setup.flat, setup.options, model.name());
    (void)director.run();
    return 0.0;
  });
  const Timed paused = best_of(repeats, [&] {
    ctde::Director director(setup.flat, setup.options, model.name());
    (void)director.advance_to(0);
    const auto h = director.output_values("h.out");
    const auto v = director.output_values("v.out");
    double sum = 0;
    for (long k = 1; k <= points; ++k) {
      (void)director.advance_to(resolution.to_seconds(k * ticks));
      sum += v[0];
    }
    return h[0] + 0 * sum;
  });

  const ctde::FmuArchive archive(argv[1]);
  const std::string binary = (archive.folder() / "binaries/x86_64-linux/bouncing_ball.so").string();
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
  const Timed fmu = best_of(repeats, [&] {
    fmi3::Instance instance = instantiate("ball", token.c_str(), resources.c_str(), false, false, false,
                                          false, nullptr, 0, nullptr, log_message, nullptr);
    if (instance == nullptr || enter(instance, false, 0, 0, true, stop) != fmi3::Status::kOK ||
        exit_init(instance) != fmi3::Status::kOK) {
      std::exit(3);
    }
    double values[2] = {0, 0};
    double sum = 0;
    for (long k = 0; k < points; ++k) {
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
  });
  std::printf("step=%g\npoints=%ld\nnative_seconds=%.6f\npaused_seconds=%.6f\nfmu_seconds=%.6f\n", step,
              points, native.seconds, paused.seconds, fmu.seconds);
  std::printf("paused_last_h=%.17g\nfmu_last_h=%.17g\n", paused.last_h, fmu.last_h);
  std::printf("ratio_fmu_over_native=%.3f\nratio_fmu_over_paused=%.3f\n", fmu.seconds / native.seconds,
              fmu.seconds / paused.seconds);
  return paused.last_h == fmu.last_h ? 0 : 1;
}
