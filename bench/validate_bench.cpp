// Validation of generated models: chains and random DAGs of N actors.
//
//   validate_bench chain|dag N [json]
//
// Builds the model through the C++ API (or, with "json", writes it as a model
// file and loads that), validates it, and prints one line of key=value pairs:
// build and validation times, time per actor, and the process's peak RSS.
// Run each size in its own process so that peak RSS belongs to that size
// (bench/run_validate_bench.sh does).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>

#include "actors/builtin_actors.hpp"
#include "core/format.hpp"
#include "core/model_file.hpp"
#include "core/model_graph.hpp"
#include "core/time_mode_resolution.hpp"
#include "core/validate.hpp"
#include "core/width_inference.hpp"

namespace {

struct Spec {
  std::string name;
  std::string type;
  std::string params;  // JSON object text
};

/// The model as actors and connections, so that both the C++ and the JSON
/// path build the same thing.
struct Generated {
  std::vector<Spec> actors;
  std::vector<std::pair<std::string, std::string>> connections;
};

/// "a17".
std::string name_of(std::size_t i) { return ctde::concat({"a", std::to_string(i)}); }

Generated chain(std::size_t n) {
  Generated g;
  g.actors.push_back({"a0", "Sine", "{}"});
  for (std::size_t i = 1; i + 1 < n; ++i) {
    g.actors.push_back({name_of(i), "Gain", R"({"k": "k0 * 0.5"})"});
    g.connections.emplace_back(name_of(i - 1) + ".out", name_of(i) + ".in");
  }
  g.actors.push_back({name_of(n - 1), "Integrator", "{}"});
  g.connections.emplace_back(name_of(n - 2) + ".out", name_of(n - 1) + ".in");
  return g;
}

/// Random DAG of feedthrough actors plus integrators fed from anywhere
/// (cycles through integrators, which validation must accept).
Generated dag(std::size_t n) {
  std::mt19937_64 rng(42);
  Generated g;
  const std::size_t sources = std::max<std::size_t>(1, n / 100);
  const auto pick = [&](std::size_t below) {
    return name_of(std::uniform_int_distribution<std::size_t>(0, below - 1)(rng)) + ".out";
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = name_of(i);
    if (i < sources) {
      g.actors.push_back({name, "Sine", "{}"});
      continue;
    }
    const double u = std::uniform_real_distribution<double>(0, 1)(rng);
    if (u < 0.6) {
      g.actors.push_back({name, "Gain", R"({"k": 0.9})"});
      g.connections.emplace_back(pick(i), name + ".in");
    } else if (u < 0.85) {
      g.actors.push_back({name, "Sum", R"({"signs": "+-"})"});
      g.connections.emplace_back(pick(i), name + ".in0");
      g.connections.emplace_back(pick(i), name + ".in1");
    } else {
      g.actors.push_back({name, "Integrator", "{}"});
      g.connections.emplace_back(pick(n), name + ".in");  // from anywhere: feedback
    }
  }
  return g;
}

std::string to_json(const Generated& g) {
  std::ostringstream out;
  out << R"({"ctde": 1, "parameters": {"k0": 2}, "director": {"stop_time": 1}, "actors": [)";
  for (std::size_t i = 0; i < g.actors.size(); ++i) {
    out << (i ? ",\n" : "\n") << R"({"name": ")" << g.actors[i].name << R"(", "type": ")" << g.actors[i].type
        << R"(", "params": )" << g.actors[i].params << "}";
  }
  out << "],\n\"connections\": [";
  for (std::size_t i = 0; i < g.connections.size(); ++i) {
    out << (i ? ",\n" : "\n") << "[\"" << g.connections[i].first << "\", \"" << g.connections[i].second
        << "\"]";
  }
  out << "]}";
  return out.str();
}

ctde::Model build(const Generated& g) {
  ctde::Model model("bench");
  model.parameters().set("k0", 2.0);
  const auto& registry = ctde::builtin_actors();
  for (const auto& spec : g.actors) {
    auto& actor = model.top().add(registry.make(spec.type, spec.name));
    if (spec.type == "Gain") {
      actor.set_parameter("k", spec.params.find("k0") != std::string::npos ? ctde::ParamValue("k0 * 0.5")
                                                                           : ctde::ParamValue(0.9));
    } else if (spec.type == "Sum") {
      actor.set_parameter("signs", "+-");
    }
  }
  for (const auto& [from, to] : g.connections) model.connect(from, to);
  return model;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: validate_bench chain|dag N [json]\n");
    return 2;
  }
  const std::string kind = argv[1];
  const auto n = static_cast<std::size_t>(std::atof(argv[2]));
  const bool json = argc > 3 && std::string(argv[3]) == "json";
  Generated g = kind == "chain" ? chain(n) : dag(n);
  // The JSON path holds the model file's text while it loads, as `ctde`
  // does, but not the generator's lists: the peak is the loader's.
  std::string text;
  if (json) {
    text = to_json(g);
    g = Generated{};
  }

  auto start = std::chrono::steady_clock::now();
  ctde::Model model = json ? ctde::load_model_text(text, "bench.json", ctde::builtin_actors()) : build(g);
  const double build_s = seconds_since(start);
  std::string().swap(text);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double build_rss_mb = double(usage.ru_maxrss) / 1024.0;  // the load's peak (or the build's)
  // validate() is these four stages; timing them one by one says where the time goes.
  start = std::chrono::steady_clock::now();
  ctde::FlatModel flat = ctde::flatten(model);
  const double flatten_s = seconds_since(start);
  auto stage = std::chrono::steady_clock::now();
  ctde::resolve_time_modes(flat);
  const double modes_s = seconds_since(stage);
  stage = std::chrono::steady_clock::now();
  ctde::infer_widths(flat);
  const double widths_s = seconds_since(stage);
  stage = std::chrono::steady_clock::now();
  ctde::schedule(flat);
  const double schedule_s = seconds_since(stage);
  const double validate_s = seconds_since(start);

  getrusage(RUSAGE_SELF, &usage);
  std::printf(
      "kind=%s n=%zu path=%s build_s=%.4f validate_s=%.4f validate_us_per_actor=%.3f "
      "peak_rss_mb=%.1f build_peak_rss_mb=%.1f flatten_s=%.4f modes_s=%.4f widths_s=%.4f graph_s=%.4f\n",
      kind.c_str(), n, json ? "json" : "cpp", build_s, validate_s, 1e6 * validate_s / double(n),
      double(usage.ru_maxrss) / 1024.0, build_rss_mb, flatten_s, modes_s, widths_s, schedule_s);
  return 0;
}
