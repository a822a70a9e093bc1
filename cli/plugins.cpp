#include "cli/plugins.hpp"

#include <dlfcn.h>

#include <stdexcept>

#include "actors/builtin_actors.hpp"
#include "run/command_error.hpp"

namespace ctde::cli {

namespace {

ActorRegistry& registry() {
  static ActorRegistry types = builtin_actors();
  return types;
}

}  // namespace

const ActorRegistry& command_actors() { return registry(); }

void load_plugin(const std::string& path) {
  const std::string what = "--load " + path;
  // A name without a slash would be searched for on the library path: a
  // plugin is named by its file, as the other inputs are.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  void* library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* error = dlerror();
    throw CommandError(kExitUsage, what + ": cannot load the library: " + (error != nullptr ? error : "?"));
  }
  using Register = void (*)(ActorRegistry&);
  auto* function = reinterpret_cast<Register>(dlsym(library, kPluginFunction));
  if (function == nullptr) {
    dlclose(library);
    throw CommandError(kExitUsage,
                       what + ": not a ctde plugin (it exports no " + kPluginFunction + " function)");
  }
  ActorRegistry extended = registry();  // all or nothing
  try {
    function(extended);
  } catch (const std::logic_error& e) {  // ActorRegistry::add: a type registered twice
    throw CommandError(kExitUsage, what + ": " + e.what());
  } catch (const std::exception& e) {
    throw CommandError(kExitUsage, what + ": its " + kPluginFunction + " failed: " + e.what());
  }
  registry() = std::move(extended);  // the library stays loaded: its factories are called later
}

}  // namespace ctde::cli
