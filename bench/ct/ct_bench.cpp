// The CT benchmark models built from ctde actors, the same ODEs as
// handwritten_arkode.cpp and scipy_baseline.py (erk45 = Dormand-Prince,
// rtol 1e-6, atol 1e-9, t in [0, 100]):
//
//   statespace  one StateSpace actor (8 states: four unit masses, springs 1,
//               dampers 0.1, a constant force 1 on the last mass)
//   chain1000   1000 masses between two walls built from scalar actors:
//               per mass two Integrators, two Sums and two Gains (and a Sine
//               driving the first), about 6000 actors
//
//   ct_bench [statespace|chain1000|all] [repeats]
//
// Prints key=value lines: best wall time of the runs, steps, RHS evaluations,
// and the sum of the final states (to compare with the baselines).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "actors/builtin_actors.hpp"
#include "bench/ct/ct_models.hpp"
#include "core/csv_results.hpp"
#include "core/validate.hpp"
#include "domains/ctde/director.hpp"

namespace {

using ct_models::kDamper;
using ct_models::kSpring;

ctde::Actor& add(ctde::Model& model, const std::string& type, const std::string& name) {
  return model.top().add(ctde::builtin_actors().make(type, name));
}

std::string indexed(const char* prefix, int i) {
  std::string name = prefix;
  name += std::to_string(i);
  return name;
}

ctde::Model statespace() {
  const ct_models::StateSpace ode;  // the matrices, as the baselines use them
  constexpr int kN = ct_models::StateSpace::kN;
  const ctde::Matrix a{kN, kN, std::vector<double>(ode.a.begin(), ode.a.end())};
  const ctde::Matrix b{kN, 1, std::vector<double>(ode.b.begin(), ode.b.end())};
  ctde::Matrix c{kN, kN, std::vector<double>(kN * kN, 0.0)};
  for (int i = 0; i < kN; ++i) c.data[static_cast<std::size_t>(i * kN + i)] = 1.0;
  ctde::Model model("statespace");
  add(model, "Constant", "u").set_parameter("value", 1.0);
  auto& ss = add(model, "StateSpace", "masses");
  ss.set_parameter("A", a);
  ss.set_parameter("B", b);
  ss.set_parameter("C", c);
  model.connect("u.out", "masses.in");
  model.record().push_back("masses.out");
  return model;
}

ctde::Model chain(int masses) {
  ctde::Model model("chain");
  for (int i = 0; i < masses; ++i) {
    add(model, "Integrator", indexed("p", i));
    add(model, "Integrator", indexed("v", i));
    // spring: p[i-1] - 2 p[i] + p[i+1] (walls at both ends are 0)
    std::string signs = "--";
    if (i > 0) signs += "+";
    if (i + 1 < masses) signs += "+";
    add(model, "Sum", indexed("ps", i)).set_parameter("signs", signs);
    add(model, "Sum", indexed("vs", i)).set_parameter("signs", signs);
    add(model, "Gain", indexed("k", i)).set_parameter("k", kSpring);
    add(model, "Gain", indexed("c", i)).set_parameter("k", kDamper);
    add(model, "Sum", indexed("a", i)).set_parameter("signs", i == 0 ? "+++" : "++");
  }
  add(model, "Sine", "drive").set_parameter("frequency", 0.5 / std::acos(-1.0));  // sin(t)
  for (int i = 0; i < masses; ++i) {
    const std::string p = indexed("p", i);
    const std::string v = indexed("v", i);
    for (const char* kind : {"p", "v"}) {
      const std::string sum = std::string(kind) + "s" + std::to_string(i);
      const std::string self = std::string(kind) + std::to_string(i);
      model.connect(self + ".out", sum + ".in0");
      model.connect(self + ".out", sum + ".in1");
      int next = 2;
      if (i > 0)
        model.connect(std::string(kind) + std::to_string(i - 1) + ".out",
                      sum + ".in" + std::to_string(next++));
      if (i + 1 < masses)
        model.connect(std::string(kind) + std::to_string(i + 1) + ".out", sum + ".in" + std::to_string(next));
    }
    model.connect(indexed("ps", i) + ".out", indexed("k", i) + ".in");
    model.connect(indexed("vs", i) + ".out", indexed("c", i) + ".in");
    model.connect(indexed("k", i) + ".out", indexed("a", i) + ".in0");
    model.connect(indexed("c", i) + ".out", indexed("a", i) + ".in1");
    if (i == 0) model.connect("drive.out", "a0.in2");
    model.connect(indexed("a", i) + ".out", v + ".in");
    model.connect(v + ".out", p + ".in");
  }
  for (int i = 0; i < masses; ++i) model.record().push_back(indexed("p", i) + ".out");
  for (int i = 0; i < masses; ++i) model.record().push_back(indexed("v", i) + ".out");
  return model;
}

/// Sums the last row of the results (the final states).
struct LastRowSum : std::streambuf {
  std::string line;
  std::string last;
  int overflow(int c) override {
    if (c == '\n') {
      last = line;
      line.clear();
    } else {
      line += static_cast<char>(c);
    }
    return c;
  }
  [[nodiscard]] double sum() const {
    double total = 0;
    std::size_t start = 0;
    int column = 0;
    while (true) {
      const auto comma = last.find(',', start);
      if (column >= 2) total += std::atof(last.substr(start, comma - start).c_str());
      if (comma == std::string::npos) break;
      start = comma + 1;
      ++column;
    }
    return total;
  }
};

void bench(const char* name, ctde::Model model, int repeats) {
  const ctde::FlatModel flat = ctde::validate(model);
  ctde::RunOptions options;
  options.stop_time = 100;
  options.rtol = 1e-6;
  options.atol = 1e-9;
  double best = 1e300;
  ctde::RunResult result;
  double checksum = 0;
  for (int r = 0; r < repeats; ++r) {
    ctde::Director director(flat, options, name);
    const auto start = std::chrono::steady_clock::now();
    result = director.run();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  {  // one more run that records only the end, for the checksum
    const ctde::RunOptions& last = options;
    LastRowSum sink;
    std::ostream out(&sink);
    ctde::CsvResults results(out, ctde::resolve_record(flat, model.record()));
    ctde::Director director(flat, last, name, nullptr, &results);
    (void)director.run();
    checksum = sink.sum();
  }
  std::printf(
      "impl=ctde model=%s actors=%zu wall_s=%.6f steps=%llu rhs_evals=%llu checksum=%.17g status=%s\n", name,
      flat.actors.size(), best, static_cast<unsigned long long>(result.stats.steps),
      static_cast<unsigned long long>(result.stats.rhs_evals), checksum, ctde::to_string(result.status));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "all";
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 0;
  if (which == "all" || which == "statespace") bench("statespace", statespace(), repeats > 0 ? repeats : 50);
  if (which == "all" || which == "chain1000") bench("chain1000", chain(1000), repeats > 0 ? repeats : 3);
  return 0;
}
