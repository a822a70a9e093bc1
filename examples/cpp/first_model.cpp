// The bouncing ball of examples/models/bouncing_ball.json, built in C++ (the
// user guide, docs/user-guide.md, shows the marked region). Writes the results
// CSV and the event trace, then prints the run's status.
//
// Usage: first_model [results.csv] [trace.jsonl]
//        (default: bouncing_ball.csv and bouncing_ball.jsonl in the current folder)

#include <cstdio>
#include <exception>
#include <string>

// [guide:first-model]
#include <ctde/ctde.hpp>

// Builds the bouncing ball: h'' = -g, and at each impact v⁺ = -e v⁻.
ctde::Model bouncing_ball() {
  ctde::Model model("bouncing_ball");
  model.parameters().set("g", 9.81);  // parameters: numbers or expressions
  model.parameters().set("e", 0.8);
  model.parameters().set("h0", 10.0);

  model.add<ctde::Constant>("gravity").set_parameter("value", "-g");
  model.add<ctde::Integrator>("v").set_parameter("initial", 0.0);
  model.add<ctde::Integrator>("h").set_parameter("initial", "h0");
  model.add<ctde::ZeroCrossingDetector>("ground").set_parameter("direction", "falling");
  model.add<ctde::Sampler>("v_at_impact");
  model.add<ctde::Gain>("rebound").set_parameter("k", "-e");

  model.connect("gravity.out", "v.in");
  model.connect("v.out", "h.in");
  model.connect("h.out", "ground.in");
  model.connect("v.out", "v_at_impact.in");
  model.connect("ground.out", "v_at_impact.trigger");
  model.connect("v_at_impact.out", "rebound.in");
  model.connect("rebound.out", "v.reset");
  model.record() = {"h.out", "v.out", "ground.out"};
  return model;
}

// Validates and runs it, writing the results and the trace; returns the status.
ctde::RunResult run(const std::string& results_path, const std::string& trace_path) {
  ctde::Model model = bouncing_ball();
  const ctde::FlatModel flat = ctde::validate(model);  // throws ctde::ModelError

  ctde::RunOptions options;  // the `director` keys of a model file
  options.stop_time = 10.0;
  options.rtol = 1e-9;
  options.atol = 1e-12;
  options.max_step = 0.5;
  options.output_interval = 0.02;

  ctde::TraceWriter trace(trace_path);
  ctde::CsvResults results(results_path, ctde::resolve_record(flat, model.record()));
  ctde::Director director(flat, options, model.name(), &trace, &results);
  return director.run();  // run-time failures are in the result, not thrown
}
// [/guide:first-model]

int main(int argc, char** argv) {
  const std::string results = argc > 1 ? argv[1] : "bouncing_ball.csv";
  const std::string trace = argc > 2 ? argv[2] : "bouncing_ball.jsonl";
  try {
    const ctde::RunResult result = run(results, trace);
    std::printf("status %s at t = %.17g s: %llu steps, %llu state events\n", ctde::to_string(result.status),
                result.time, static_cast<unsigned long long>(result.stats.steps),
                static_cast<unsigned long long>(result.stats.state_events));
    return result.status == ctde::RunStatus::kError ? 3 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "first_model: %s\n", e.what());
    return 2;
  }
}
