// The loader's messages for the mistakes a newcomer makes first, asserted
// whole: the file, the JSON location, the actor and parameter, and what to
// do (scripts/untested_messages.py lists the messages no test asserts yet).
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "run/run_setup.hpp"
#include "support/model_helpers.hpp"

namespace {

struct Mistake {
  const char* what;     ///< the mistake, for the failure report
  const char* model;    ///< the model file's text
  const char* message;  ///< the whole ModelError message
};

const Mistake kMistakes[] = {
    {"a model without \"actors\"", R"json({"ctde": 1, "director": {"stop_time": 1}})json",
     "test.json at /: missing \"actors\": a model needs at least one actor"},
    {"\"record\" that is not an array",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "c", "type": "Constant"}], "record": "c.out"})json",
     "test.json at /record: must be an array of \"actor.port\" strings"},
    {"\"connections\" that is not an array",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "c", "type": "Constant"}], "connections": {}})json",
     "test.json at /connections: must be an array of [from, to] pairs"},
    {"an actor without a name",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"type": "Constant"}]})json",
     "test.json at /actors/0: an actor needs a \"name\""},
    {"an actor without a type",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "c"}]})json",
     "test.json at /actors/0: an actor needs a \"type\""},
    {"a key given twice", R"json({"ctde": 1, "ctde": 1, "actors": [{"name": "c", "type": "Constant"}]})json",
     "test.json at /ctde: the key 'ctde' appears twice in this object; give each key once"},
    {"a DiscreteClock of period 0",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "DiscreteClock", "params": {"period": 0}}]})json",
     "test.json at /actors/0: actor 'a' (DiscreteClock), parameter 'period': must be > 0 (or \"inf\"), got "
     "0"},
    {"a DiscreteClock offset beyond its period",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "DiscreteClock", "params": {"period": 1, "offsets": [1.5]}}]})json",
     "test.json at /actors/0: actor 'a' (DiscreteClock), parameter 'offsets': offset 1.5 is outside [0, "
     "period)"},
    {"DiscreteClock offsets that decrease",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "DiscreteClock", "params": {"period": 1, "offsets": [0.5, 0.2], "values": [1, 2]}}]})json",
     "test.json at /actors/0: actor 'a' (DiscreteClock), parameter 'offsets': offsets must increase"},
    {"DiscreteClock values fewer than its offsets",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "DiscreteClock", "params": {"period": 1, "offsets": [0, 0.5], "values": [1]}}]})json",
     "test.json at /actors/0: actor 'a' (DiscreteClock): 'values' has 1 entries but 'offsets' has 2; give "
     "one value per offset"},
    {"a parameter that evaluates to NaN",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "c", "type": "Constant", "params": {"value": "k"}}], "parameters": {"k": "sqrt(-1)"}})json",
     "test.json at /parameters/k: parameter 'k': expression \"sqrt(-1)\" evaluates to NaN"},
    {"a connection endpoint without a dot",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "c", "type": "Constant", "params": {"value": 1}}, {"name": "x", "type": "Integrator"}], "connections": [["c", "x.in"]]})json",
     "test.json at /connections/0: connection 'c' -> 'x.in': 'c' is not an endpoint of the form actor.port"},
    {"a connection from an input",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "c", "type": "Constant", "params": {"value": 1}}, {"name": "x", "type": "Integrator"}], "connections": [["x.in", "c.out"]]})json",
     "test.json at /connections/0: connection 'x.in' -> 'c.out': 'x.in' is an input; a connection goes from "
     "an output to an input"},
    {"a connection to an output",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "c", "type": "Constant", "params": {"value": 1}}, {"name": "x", "type": "Integrator"}], "connections": [["c.out", "x.out"]]})json",
     "test.json at /connections/0: connection 'c.out' -> 'x.out': 'x.out' is an output; a connection goes "
     "from an output to an input"},
    {"a Lookup1D of one point",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "Lookup1D", "params": {"x": [0], "y": [1]}}]})json",
     "test.json at /actors/0: actor 'a' (Lookup1D), parameter 'x': needs at least two points"},
    {"a Lookup1D with more y than x",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "Lookup1D", "params": {"x": [0, 1], "y": [1, 2, 3]}}]})json",
     "test.json at /actors/0: actor 'a' (Lookup1D): 'x' has 2 points but 'y' has 3"},
    {"a Lookup1D whose x repeats",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "Lookup1D", "params": {"x": [0, 0], "y": [1, 2]}}]})json",
     "test.json at /actors/0: actor 'a' (Lookup1D), parameter 'x': must increase strictly"},
    {"a MinMax mode that is neither min nor max",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "MinMax", "params": {"mode": "mid"}}]})json",
     "test.json at /actors/0: actor 'a' (MinMax), parameter 'mode': must be \"min\" or \"max\", got \"mid\""},
    {"a Saturation whose lower exceeds upper",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "Saturation", "params": {"lower": 1, "upper": 0}}]})json",
     "test.json at /actors/0: actor 'a' (Saturation): 'lower' (1) must not exceed 'upper' (0)"},
    {"a negative Selector index",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "Selector", "params": {"indices": [-1]}}]})json",
     "test.json at /actors/0: actor 'a' (Selector), parameter 'indices': must be whole numbers >= 0 (element "
     "indices, from 0), got -1"},
    {"a TransferFunction denominator led by zero",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "TransferFunction", "params": {"num": [1], "den": [0, 1]}}]})json",
     "test.json at /actors/0: actor 'a' (TransferFunction), parameter 'den': must have a non-zero leading "
     "coefficient"},
    {"an improper TransferFunction",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "TransferFunction", "params": {"num": [1, 0, 0], "den": [1, 1]}}]})json",
     "test.json at /actors/0: actor 'a' (TransferFunction): the numerator's degree (2) exceeds the "
     "denominator's (1): not proper"},
    {"an unknown ZeroCrossingDetector direction",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "ZeroCrossingDetector", "params": {"direction": "up"}}]})json",
     "test.json at /actors/0: actor 'a' (ZeroCrossingDetector), parameter 'direction': must be \"rising\", "
     "\"falling\" or \"both\", got \"up\""},
    {"a Queue of capacity 0",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "Queue", "params": {"capacity": 0}}]})json",
     "test.json at /actors/0: actor 'a' (Queue), parameter 'capacity': must be a whole number >= 1 or "
     "\"inf\", got 0"},
    {"a negative GaussianRandom standard deviation",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "GaussianRandom", "params": {"standard_deviation": -1}}]})json",
     "test.json at /actors/0: actor 'a' (GaussianRandom), parameter 'standard_deviation': must be a finite "
     "number >= 0, got -1"},
    {"a Relay initial state that is neither on nor off",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "Relay", "params": {"initial": "maybe"}}]})json",
     "test.json at /actors/0: actor 'a' (Relay), parameter 'initial': must be \"on\" or \"off\", got "
     "\"maybe\""},
    {"an empty list as a parameter",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "Constant", "params": {"value": []}}]})json",
     "test.json at /actors/0/params/value: actor 'a' (Constant), parameter 'value' must not be an empty "
     "list"},
    {"a parameter of arrays nested too deeply",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "Constant", "params": {"value": [[[[[[[[[[1]]]]]]]]]]}}]})json",
     "test.json at /actors/0/params/value: arrays nest too deeply for a parameter (a matrix is two levels)"},
    {"a Composite without actors",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "k", "type": "Composite"}]})json",
     "test.json at /actors/0: a Composite needs \"actors\""},
    {"a negative RateLimiter rate",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "RateLimiter", "params": {"rising": -1, "falling": 1}}]})json",
     "test.json at /actors/0: actor 'a' (RateLimiter), parameter 'rising': must be a rate >= 0 (units per "
     "second), got -1"},
    {"a Demux output of width 0",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "Demux", "params": {"widths": [0]}}]})json",
     "test.json at /actors/0: actor 'a' (Demux), parameter 'widths': must be whole numbers >= 1 (one "
     "output's width each), got 0"},
    {"a DiscreteTransferFunction denominator led by zero",
     R"json({"ctde": 1, "director": {"stop_time": 1}, "actors": [{"name": "a", "type": "DiscreteTransferFunction", "params": {"num": [1], "den": [0, 1]}}]})json",
     "test.json at /actors/0: actor 'a' (DiscreteTransferFunction), parameter 'den': must start with a "
     "non-zero coefficient (the highest power of z)"},
};

}  // namespace

TEST_CASE("each model-file mistake a newcomer is likely to make is refused with its exact message") {
  for (const Mistake& m : kMistakes) {
    CAPTURE(std::string(m.what));
    CHECK(ctde::test::model_file_error(m.model) == std::string(m.message));
  }
}

TEST_CASE("a record entry without a dot is refused as the run is set up, naming it") {
  ctde::Model model = ctde::test::load(R"json({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "c", "type": "Constant", "params": {"value": 1}}], "record": ["cout"]})json");
  std::string message;
  try {
    (void)ctde::set_up_run(model, std::nullopt);
  } catch (const ctde::ModelError& e) {
    message = e.what();
  }
  CHECK(message == "test.json at /record: record: 'cout' is not of the form actor.port");
}
