// Port lists held once: shared by the actors that declare the same ports,
// copied when one actor's ports change.
#include <doctest/doctest.h>

#include "actors/math/gain.hpp"
#include "actors/math/sum.hpp"
#include "core/param.hpp"
#include "core/port_list.hpp"

using namespace ctde;

namespace {

/// An actor whose ports a test changes after another actor declared the same.
class Resizable : public Actor {
 public:
  explicit Resizable(std::string name) : Actor(std::move(name), "Resizable", TimeMode::kUnresolved) {
    in_ = declare_input("in", PortKind::kPolymorphic);
    declare_output("out", PortKind::kPolymorphic);
  }
  void widen(int width) { set_width(in_, width); }

 private:
  InputPort in_;
};

}  // namespace

TEST_CASE("actors that declare the same ports share one list") {
  const Gain a("a");
  const Gain b("b");
  CHECK(&a.inputs() == &b.inputs());
  CHECK(&a.outputs() == &b.outputs());
  REQUIRE(a.inputs().size() == 1);
  CHECK(a.inputs()[0].name == "in");
  CHECK(a.outputs()[0].name == "out");
}

TEST_CASE("variadic ports made by configure are lists of their own") {
  ParameterScope scope;
  scope.resolve();
  Sum three("three");
  Sum two("two");
  Sum also_two("also_two");
  three.set_parameter("signs", "+-+");
  two.set_parameter("signs", "+-");
  also_two.set_parameter("signs", "++");
  three.resolve_parameters(scope);
  two.resolve_parameters(scope);
  also_two.resolve_parameters(scope);
  REQUIRE(three.inputs().size() == 3);
  REQUIRE(two.inputs().size() == 2);
  CHECK(three.inputs()[2].name == "in2");
  CHECK(two.inputs()[1].name == "in1");
  CHECK(&three.inputs() != &two.inputs());
  CHECK(&two.inputs() == &also_two.inputs());  // the same ports, whatever the signs
}

TEST_CASE("changing one actors ports leaves the others sharing the old list") {
  Resizable a("a");
  Resizable b("b");
  REQUIRE(&a.inputs() == &b.inputs());
  a.widen(3);
  CHECK(a.inputs()[0].width == 3);
  CHECK(b.inputs()[0].width == kInferredWidth);
  CHECK(&a.inputs() != &b.inputs());
  CHECK(&a.outputs() == &b.outputs());
  b.widen(3);
  CHECK(&a.inputs() == &b.inputs());
}

TEST_CASE("interning finds equal lists by value") {
  const PortSpec in{"x", PortDirection::kInput, PortKind::kContinuous, 2, false};
  const PortList* one = intern_port_list({in});
  CHECK(one == with_port(*empty_port_list(), in));
  PortSpec optional = in;
  optional.optional = true;
  CHECK(intern_port_list({optional}) != one);
  CHECK(empty_port_list()->empty());
}
