// PortOffsets: from a PortRef to its element of the flat model's port
// arrays, without the actor's FlatActor.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>

#include "actors/math/gain.hpp"
#include "actors/math/sum.hpp"
#include "actors/sources/constant.hpp"
#include "core/port_offsets.hpp"
#include "core/validate.hpp"

using namespace ctde;

namespace {

/// Actors of zero, one, two and three inputs (a Sum's made by configure()
/// from `signs`), in an order that puts a source between the others.
Model mixed_model() {
  Model model;
  model.add<Sum>("s3").set_parameter("signs", "+-+");
  model.add<Constant>("c").set_parameter("value", 1.0);
  model.add<Gain>("g").set_parameter("k", 2.0);
  model.add<Constant>("d").set_parameter("value", 2.0);
  model.add<Sum>("s2").set_parameter("signs", "++");
  model.connect("c.out", "s3.in0");
  model.connect("d.out", "s3.in1");
  model.connect("c.out", "s3.in2");
  model.connect("s3.out", "g.in");
  model.connect("g.out", "s2.in0");
  model.connect("d.out", "s2.in1");
  return model;
}

}  // namespace

TEST_CASE("port offsets name each port's element of the flat model's arrays") {
  Model model = mixed_model();
  const FlatModel flat = validate(model);
  const PortOffsets offsets(flat);
  REQUIRE(offsets.size() == flat.actors.size());
  std::size_t inputs = 0;
  std::size_t outputs = 0;
  for (std::uint32_t a = 0; a < flat.actors.size(); ++a) {
    const FlatActor& actor = flat.actors[a];
    for (std::uint32_t p = 0; p < actor.drivers.size(); ++p) {
      const std::size_t in = offsets.input({FlatIndex{a}, p});
      CHECK(in == inputs + p);
      CHECK(&flat.ports.input_widths[in] == &actor.input_widths[p]);
      CHECK(&flat.ports.drivers[in] == &actor.drivers[p]);
    }
    for (std::uint32_t o = 0; o < actor.output_widths.size(); ++o) {
      const std::size_t out = offsets.output({FlatIndex{a}, o});
      CHECK(out == outputs + o);
      CHECK(&flat.ports.output_kinds[out] == &actor.output_kinds[o]);
    }
    inputs += actor.drivers.size();
    outputs += actor.output_widths.size();
  }
  CHECK(inputs == 6);
  CHECK(outputs == 5);
}

TEST_CASE("port offsets lead from an input's driver to the output's element") {
  Model model = mixed_model();
  const FlatModel flat = validate(model);
  const PortOffsets offsets(flat);
  const FlatIndex s2 = *flat.find("s2");
  const PortRef driver = *flat[s2].drivers[0];  // g.out
  CHECK(driver.actor == *flat.find("g"));
  CHECK(&flat.ports.output_widths[offsets.output(driver)] == &flat[driver.actor].output_widths[0]);
  // s3's three inputs come first; g's one after the source c between them.
  CHECK(offsets.input({*flat.find("g"), 0}) == 3);
  CHECK(offsets.input({s2, 1}) == 5);
}

TEST_CASE("port offsets of a copied flat model view the copy's arrays") {
  Model model = mixed_model();
  const FlatModel original = validate(model);
  const FlatModel copy(
      original);  // NOLINT(performance-unnecessary-copy-initialization): the copy is the subject
  const PortOffsets offsets(copy);
  const FlatIndex g = *copy.find("g");
  CHECK(&copy.ports.input_widths[offsets.input({g, 0})] == &copy[g].input_widths[0]);
  CHECK(offsets.input({g, 0}) == PortOffsets(original).input({g, 0}));
}
