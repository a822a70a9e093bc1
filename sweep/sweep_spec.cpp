#include "sweep/sweep_spec.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <numbers>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/json_text.hpp"
#include "results/hdf5_file.hpp"

namespace ctde::sweep {

namespace {

using json = nlohmann::ordered_json;

/// Streams of the random actors' seeds start here, far from the parameters'.
constexpr std::uint64_t kActorStreams = std::uint64_t{1} << 32;
/// A uniform double in [0, 1) from 53 random bits.
constexpr double kUnit = 0x1p-53;

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27U)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31U);
}

double unit(std::uint64_t bits) { return static_cast<double>(bits >> 11U) * kUnit; }

class Parser {
 public:
  explicit Parser(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    throw ModelError(message).located(file_ + " at " + (pointer.empty() ? "/" : pointer));
  }

  double number(const json& value, const std::string& pointer) const {
    if (!value.is_number()) fail(pointer, "expected a number, got " + value.dump());
    const double x = value.get<double>();
    if (!std::isfinite(x)) fail(pointer, "expected a finite number");
    return x;
  }

  std::uint64_t whole(const json& value, const std::string& pointer, std::uint64_t least) const {
    if (!value.is_number_integer() ||
        (value.is_number_integer() && !value.is_number_unsigned() && value.get<std::int64_t>() < 0)) {
      fail(pointer, "expected a whole number >= " + std::to_string(least) + ", got " + value.dump());
    }
    const auto n = value.get<std::uint64_t>();
    if (n < least)
      fail(pointer, "expected a whole number >= " + std::to_string(least) + ", got " + value.dump());
    return n;
  }

  void name(const std::string& key, const std::string& pointer) {
    if (key.empty()) fail(pointer, "a parameter name is empty");
    if (results::is_reserved_name(key)) {
      fail(pointer, "'" + key + "' cannot be swept: the results file uses the name itself");
    }
    if (!names_.insert(key).second) fail(pointer, "the parameter '" + key + "' is swept twice");
  }

  /// {"uniform": [a, b]} or {"normal": [mean, sd]}.
  RandomParameter law(const std::string& key, const json& value, const std::string& pointer) const {
    if (!value.is_object() || value.size() != 1) {
      fail(pointer, "expected {\"uniform\": [low, high]} or {\"normal\": [mean, sd]}");
    }
    const auto first = value.begin();
    const std::string& kind = first.key();
    const json& bounds = first.value();
    const std::string at = pointer + "/" + kind;
    RandomParameter p{key, RandomParameter::Law::kUniform, 0, 1};
    if (kind == "uniform") {
      p.law = RandomParameter::Law::kUniform;
    } else if (kind == "normal") {
      p.law = RandomParameter::Law::kNormal;
    } else {
      fail(at, "unknown distribution '" + kind + "' (known: uniform, normal)");
    }
    if (!bounds.is_array() || bounds.size() != 2) fail(at, "expected two numbers");
    p.a = number(bounds[0], at + "/0");
    p.b = number(bounds[1], at + "/1");
    if (p.law == RandomParameter::Law::kUniform && !(p.a <= p.b))
      fail(at, "the low bound is above the high one");
    if (p.law == RandomParameter::Law::kNormal && p.b < 0)
      fail(at + "/1", "the standard deviation is negative");
    return p;
  }

  /// {"until": T}: T, a finite number (its place in the run is checked against the model).
  double warm_start(const json& value, const std::string& pointer) const {
    if (!value.is_object()) fail(pointer, "expected {\"until\": T} (T in s)");
    for (const auto& [key, item] : value.items()) {
      if (key != "until")
        fail(concat({pointer, "/", key}), concat({"unknown key '", key, "' (known: until)"}));
    }
    if (!value.contains("until")) fail(pointer, "missing \"until\": T, the time (s) the runs branch at");
    return number(value["until"], concat({pointer, "/until"}));
  }

  SweepSpec parse(const std::string& text) {
    const json root = read_json_text(text, file_);  // errors at file:line:column, as a model file's
    if (!root.is_object()) fail("", "a sweep file is a JSON object");
    SweepSpec spec;
    spec.text = text;
    if (!root.contains("ctde_sweep") && root.contains("ctde")) {
      fail("",
           "this is a model file (it has \"ctde\" and no \"ctde_sweep\"), not a sweep file: "
           "are the model and the sweep swapped? (ctde sweep MODEL.json SWEEP.json)");
    }
    if (!root.contains("ctde_sweep")) fail("", "missing \"ctde_sweep\": 1 (the sweep file's format version)");
    if (root["ctde_sweep"] != 1)
      fail("/ctde_sweep",
           "unsupported sweep format version " + root["ctde_sweep"].dump() + " (this ctde reads 1)");
    for (const auto& [key, value] : root.items()) {
      const std::string pointer = "/" + key;
      if (key == "ctde_sweep") continue;
      if (key == "grid") {
        if (!value.is_object()) fail(pointer, "expected an object of parameter: [values]");
        for (const auto& [parameter, values] : value.items()) {
          const std::string at = pointer + "/" + parameter;
          name(parameter, at);
          if (!values.is_array() || values.empty()) fail(at, "expected a non-empty array of numbers");
          std::vector<double> list;
          for (std::size_t i = 0; i < values.size(); ++i)
            list.push_back(number(values[i], at + "/" + std::to_string(i)));
          spec.grid.emplace_back(parameter, std::move(list));
        }
      } else if (key == "random") {
        if (!value.is_object()) fail(pointer, "expected an object of parameter: distribution");
        for (const auto& [parameter, law_value] : value.items()) {
          name(parameter, pointer + "/" + parameter);
          spec.random.push_back(law(parameter, law_value, pointer + "/" + parameter));
        }
      } else if (key == "samples") {
        spec.samples = whole(value, pointer, 1);
      } else if (key == "seed") {
        spec.seed = whole(value, pointer, 0);
      } else if (key == "stop_time") {
        spec.stop_time = number(value, pointer);
        if (*spec.stop_time <= 0) fail(pointer, "the stop time must be > 0");
      } else if (key == "warm_start") {
        spec.warm_start_until = warm_start(value, pointer);
      } else {
        fail(pointer, "unknown key '" + key +
                          "' (known: ctde_sweep, grid, random, samples, seed, stop_time, warm_start)");
      }
    }
    if (spec.grid.empty() && spec.random.empty()) fail("", "nothing to sweep: give \"grid\" or \"random\"");
    if (spec.run_count() == 0) fail("", "too many runs");
    return spec;
  }

 private:
  std::string file_;
  std::set<std::string> names_;
};

}  // namespace

std::uint64_t SweepSpec::run_count() const {
  std::uint64_t count = samples;
  for (const auto& [name, values] : grid) {
    if (count > UINT64_MAX / values.size()) return 0;
    count *= values.size();
  }
  return count;
}

std::vector<std::string> SweepSpec::names() const {
  std::vector<std::string> out;
  for (const auto& entry : grid) out.push_back(entry.first);
  for (const auto& p : random) out.push_back(p.name);
  return out;
}

std::vector<std::pair<std::string, double>> SweepSpec::values(std::uint64_t k) const {
  std::vector<std::pair<std::string, double>> out(grid.size());
  std::uint64_t point = k / samples;
  for (std::size_t i = grid.size(); i-- > 0;) {  // the last varies fastest
    const auto& [name, list] = grid[i];
    out[i] = {name, list[point % list.size()]};
    point /= list.size();
  }
  for (std::size_t j = 0; j < random.size(); ++j) {
    const RandomParameter& p = random[j];
    const double u = unit(draw_bits(seed, k, 2 * j));
    double x = 0;
    if (p.law == RandomParameter::Law::kUniform) {
      x = p.a + (p.b - p.a) * u;
    } else {  // Box-Muller: 1 - u is in (0, 1], so its logarithm is finite
      const double v = unit(draw_bits(seed, k, 2 * j + 1));
      x = p.a + p.b * std::sqrt(-2.0 * std::log(1.0 - u)) * std::cos(2.0 * std::numbers::pi * v);
    }
    out.emplace_back(p.name, x);
  }
  return out;
}

std::uint64_t draw_bits(std::uint64_t seed, std::uint64_t k, std::uint64_t stream) {
  return splitmix(splitmix(splitmix(seed) ^ k) ^ stream);
}

double actor_seed(std::uint64_t seed, std::uint64_t k, std::uint64_t actor) {
  return static_cast<double>(draw_bits(seed, k, kActorStreams + actor) >> 11U);
}

SweepSpec parse_sweep(const std::string& text, const std::string& file) { return Parser(file).parse(text); }

SweepSpec load_sweep_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError("cannot read the sweep file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_sweep(text.str(), path);
}

}  // namespace ctde::sweep
