// The flat model's per-port arrays: each actor's runs of them, its drivers
// and receivers, and copies that view their own arrays.
#include <doctest/doctest.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "actors/math/gain.hpp"
#include "actors/math/sum.hpp"
#include "actors/sources/constant.hpp"
#include "core/validate.hpp"

using namespace ctde;

namespace {

/// Two sources into Sums of three and two inputs (ports made by configure()
/// from `signs`), one output driving four inputs through connections
/// written out of order, and a Gain that drives nothing.
Model variadic_model() {
  Model model;
  model.add<Constant>("c").set_parameter("value", 1.0);
  model.add<Constant>("d").set_parameter("value", 2.0);
  model.add<Sum>("s3").set_parameter("signs", "+-+");
  model.add<Sum>("s2").set_parameter("signs", "++");
  model.add<Gain>("g").set_parameter("k", 2.0);
  model.connect("c.out", "s3.in2");
  model.connect("d.out", "s3.in1");
  model.connect("c.out", "s2.in0");
  model.connect("c.out", "s3.in0");
  model.connect("s3.out", "s2.in1");
  model.connect("c.out", "g.in");
  return model;
}

PortRef port(const FlatModel& flat, const char* actor, std::uint32_t p) { return {*flat.find(actor), p}; }

/// Every actor's runs are as long as its ports, one after the other in each array.
void check_runs(const FlatModel& flat) {
  std::size_t in = 0;
  std::size_t out = 0;
  for (const FlatActor& a : flat.actors) {
    const std::size_t n_in = a.actor->inputs().size();
    const std::size_t n_out = a.actor->outputs().size();
    CHECK(a.input_kinds.size() == n_in);
    CHECK(a.input_widths.size() == n_in);
    CHECK(a.drivers.size() == n_in);
    CHECK(a.driver_locations.size() == n_in);
    CHECK(a.output_kinds.size() == n_out);
    CHECK(a.output_widths.size() == n_out);
    CHECK(a.receivers.size() == n_out);
    CHECK(a.input_kinds.data() == flat.ports.input_kinds.data() + in);
    CHECK(a.input_widths.data() == flat.ports.input_widths.data() + in);
    CHECK(a.drivers.data() == flat.ports.drivers.data() + in);
    CHECK(a.driver_locations.data() == flat.ports.driver_locations.data() + in);
    CHECK(a.output_kinds.data() == flat.ports.output_kinds.data() + out);
    CHECK(a.output_widths.data() == flat.ports.output_widths.data() + out);
    in += n_in;
    out += n_out;
  }
  CHECK(flat.ports.drivers.size() == in);
  CHECK(flat.ports.output_kinds.size() == out);
}

}  // namespace

TEST_CASE("each actor views a run of the port arrays as long as its ports") {
  Model model = variadic_model();
  const FlatModel flat = validate(model);
  check_runs(flat);
  CHECK(flat[*flat.find("s3")].drivers.size() == 3);
  CHECK(flat[*flat.find("s2")].drivers.size() == 2);
}

TEST_CASE("drivers are the connected outputs and receivers list them in the connections order") {
  Model model = variadic_model();
  const FlatModel flat = validate(model);
  const FlatActor& s3 = flat[*flat.find("s3")];
  CHECK(s3.drivers[0] == port(flat, "c", 0));
  CHECK(s3.drivers[1] == port(flat, "d", 0));
  CHECK(s3.drivers[2] == port(flat, "c", 0));
  const auto c = flat[*flat.find("c")].receivers[0];
  const std::vector<PortRef> from_c(c.begin(), c.end());
  CHECK(from_c == std::vector<PortRef>{port(flat, "s3", 2), port(flat, "s2", 0), port(flat, "s3", 0),
                                       port(flat, "g", 0)});
  const auto d = flat[*flat.find("d")].receivers[0];
  CHECK(std::vector<PortRef>(d.begin(), d.end()) == std::vector<PortRef>{port(flat, "s3", 1)});
  const auto s3_out = s3.receivers[0];
  CHECK(std::vector<PortRef>(s3_out.begin(), s3_out.end()) == std::vector<PortRef>{port(flat, "s2", 1)});
  CHECK(flat[*flat.find("g")].receivers[0].empty());
  // Every receiver's driver is the output that lists it, and the other way round.
  std::size_t listed = 0;
  for (std::uint32_t a = 0; a < flat.actors.size(); ++a) {
    for (std::uint32_t o = 0; o < flat.actors[a].receivers.size(); ++o) {
      for (const PortRef& r : flat.actors[a].receivers[o]) {
        CHECK(flat[r.actor].drivers[r.port] == PortRef{FlatIndex{a}, o});
        ++listed;
      }
    }
  }
  CHECK(listed == flat.ports.receivers.size());
  CHECK(listed == 6);
}

TEST_CASE("a copied flat model views its own arrays and a moved one keeps its views") {
  Model model = variadic_model();
  FlatModel flat = validate(model);
  const FlatModel copy =
      flat;  // NOLINT(performance-unnecessary-copy-initialization): the copy is the subject
  check_runs(copy);
  for (std::size_t a = 0; a < flat.actors.size(); ++a) {
    const FlatActor& x = flat.actors[a];
    const FlatActor& y = copy.actors[a];
    CHECK(std::vector<int>(x.input_widths.begin(), x.input_widths.end()) ==
          std::vector<int>(y.input_widths.begin(), y.input_widths.end()));
    CHECK(std::vector<std::optional<PortRef>>(x.drivers.begin(), x.drivers.end()) ==
          std::vector<std::optional<PortRef>>(y.drivers.begin(), y.drivers.end()));
    for (std::size_t o = 0; o < x.receivers.size(); ++o) {
      CHECK(x.receivers[o].size() == y.receivers[o].size());
      if (!y.receivers[o].empty()) CHECK(y.receivers[o].data() >= copy.ports.receivers.data());
    }
  }
  REQUIRE(copy.ports.input_widths[0] == 1);  // s3.in0, the first input
  flat.ports.input_widths[0] = 7;            // the copy's arrays are its own
  CHECK(copy.ports.input_widths[0] == 1);
  CHECK(copy[*copy.find("s3")].input_widths[0] == 1);
  const FlatModel moved = std::move(flat);
  check_runs(moved);
}
