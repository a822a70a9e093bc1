// The schedule of models without zero-delay loops on flat arrays against
// the general path on Boost graphs: the same depths and schedules.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/acyclic_schedule.hpp"
#include "core/format.hpp"
#include "core/model_graph.hpp"
#include "core/time_mode_resolution.hpp"
#include "core/validate.hpp"
#include "core/width_inference.hpp"
#include "support/model_helpers.hpp"

using namespace ctde;
using ctde::test::add;

namespace {

/// `prefix` and `i` ("x3").
std::string named(const char* prefix, int i) { return ctde::concat({prefix, std::to_string(i)}); }

/// A random model of continuous and discrete actors whose connections into
/// feedthrough inputs all go forward (no zero-delay cycle), while
/// integrators, their resets and time delays take any signal, later ones
/// too: loops of the whole graph, which the discrete order must leave out.
Model random_model(std::uint64_t seed, int size) {
  std::mt19937_64 rng(seed);
  const auto pick = [&rng](const std::vector<std::string>& from) {
    return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
  };
  Model model;
  std::vector<std::string> continuous;
  std::vector<std::string> discrete;
  const int feedback = size / 10 + 1;
  for (int i = 0; i < feedback; ++i) {
    add(model, "Integrator", named("x", i));
    continuous.push_back(named("x", i) + ".out");
    add(model, "TimeDelay", named("z", i));
    discrete.push_back(named("z", i) + ".out");
    add(model, "DiscreteClock", named("clock", i));
    discrete.push_back(named("clock", i) + ".out");
  }
  for (int i = 0; i < size; ++i) {
    const std::string name = named("a", i);
    switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
      case 0:  // a continuous gain
        add(model, "Gain", name);
        model.connect(pick(continuous), name + ".in");
        continuous.push_back(name + ".out");
        break;
      case 1:  // a discrete gain
        add(model, "Gain", name);
        model.connect(pick(discrete), name + ".in");
        discrete.push_back(name + ".out");
        break;
      case 2:  // a continuous sum
        add(model, "Sum", name).set_parameter("signs", "+-");
        model.connect(pick(continuous), name + ".in0");
        model.connect(pick(continuous), name + ".in1");
        continuous.push_back(name + ".out");
        break;
      case 3:  // a sampler
        add(model, "Sampler", name);
        model.connect(pick(continuous), name + ".in");
        model.connect(pick(discrete), name + ".trigger");
        discrete.push_back(name + ".out");
        break;
      default:  // a hold
        add(model, "ZeroOrderHold", name);
        model.connect(pick(discrete), name + ".in");
        continuous.push_back(name + ".out");
        break;
    }
  }
  for (int i = 0; i < feedback; ++i) {
    const std::string x = named("x", i);
    model.connect(pick(continuous), x + ".in");
    if (i % 2 == 0) model.connect(pick(discrete), x + ".reset");
    model.connect(pick(discrete), named("z", i) + ".in");
  }
  return model;
}

/// The model flattened, its modes and widths resolved: ready for schedule().
FlatModel resolved(Model& model) {
  FlatModel flat = flatten(model);
  resolve_time_modes(flat);
  infer_widths(flat);
  return flat;
}

}  // namespace

TEST_CASE("schedules on flat arrays equal those on Boost graphs") {
  for (const std::uint64_t seed : {1U, 2U, 3U, 4U, 5U}) {
    CAPTURE(seed);
    Model model = random_model(seed, 300);
    FlatModel flat = resolved(model);
    FlatModel on_graphs = flat;
    REQUIRE(schedule_acyclic(flat));
    schedule_on_graphs(on_graphs);
    CHECK(flat.continuous_schedule == on_graphs.continuous_schedule);
    CHECK(flat.discrete_schedule == on_graphs.discrete_schedule);
    CHECK(!flat.discrete_schedule.empty());
    for (std::size_t a = 0; a < flat.actors.size(); ++a)
      CHECK(flat.actors[a].depth == on_graphs.actors[a].depth);
  }
}

TEST_CASE("a zero delay cycle is left to the general path") {
  Model model;
  add(model, "Gain", "a");
  add(model, "Gain", "b");
  model.connect("a.out", "b.in");
  model.connect("b.out", "a.in");
  FlatModel flat = flatten(model);
  resolve_time_modes(flat);
  infer_widths(flat);
  CHECK_FALSE(schedule_acyclic(flat));
  CHECK(flat.continuous_schedule.empty());
  schedule(flat);  // the general path finds the algebraic loop, to be solved
  REQUIRE(flat.algebraic_loops.size() == 1);
  CHECK(flat.algebraic_loops[0].cycle == "a -> b -> a");
}
