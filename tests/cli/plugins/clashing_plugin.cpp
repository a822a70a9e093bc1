// A plugin that registers a type the command already has (tests/cli/test_cli_plugins.cpp).
#include <ctde/ctde.hpp>

extern "C" void ctde_register_actors(ctde::ActorRegistry& registry) {
  ctde::register_actor<ctde::Gain>(registry);
}
