// Hostile model files end in a clear model error naming the file and the
// JSON location, never a crash, a hang or a silently wrong run.
#include <doctest/doctest.h>

#include <string>

#include "support/run_helpers.hpp"

using namespace ctde;
using ctde::test::model_file_error;

TEST_CASE("reliability: JSON nested 100,000 deep inside a mode-chart parameter is a model error") {
  for (const char* open_close : {"[]", "{}"}) {
    CAPTURE(open_close);
    std::string deep;
    for (int i = 0; i < 100000; ++i) deep += open_close[0] == '[' ? "[" : R"({"a": )";
    deep += "1";
    deep += std::string(100000, open_close[1]);
    const std::string model = R"({"ctde": 1, "director": {"stop_time": 1},
      "actors": [{"name": "m", "type": "ModalModel", "params": {"modes": )" +
                              deep + "}}]}";
    const std::string error = model_file_error(model);
    CHECK(error.find("test.json at /actors/0/params/modes/") != std::string::npos);
    CHECK(error.find("nest more than 64 levels deep") != std::string::npos);
  }
}

TEST_CASE("reliability: a key given twice in one object is refused, naming it and where") {
  CHECK(model_file_error(R"({"ctde": 1, "director": {"stop_time": 1, "stop_time": 2}, "actors": []})") ==
        "test.json at /director/stop_time: the key 'stop_time' appears twice in this object; give each key "
        "once");
  CHECK(model_file_error(R"({"ctde": 1, "director": {"stop_time": 1},
    "actors": [{"name": "c", "type": "Constant", "params": {"value": 1, "value": 2}}]})")
            .find("test.json at /actors/0/params/value: the key 'value' appears twice") != std::string::npos);
}

TEST_CASE("reliability: an Expression that assigns is refused at validation") {
  // muparser would write to the variable: "k = 3" changed a parameter, "in0 =
  // 3" outputs 3, and both threw an uncaught muparser error in some runs.
  for (const std::string expr : {"k = 3", "in0 = 3", "t = 3", "in0 += 1", "2 * (k = 1)"}) {
    CAPTURE(expr);
    const std::string error =
        model_file_error(R"({"ctde": 1, "parameters": {"k": 1}, "director": {"stop_time": 1},
      "actors": [{"name": "u", "type": "Constant", "params": {"value": 1}},
                 {"name": "e", "type": "Expression", "params": {"expr": ")" +
                         expr + R"("}}],
      "connections": [["u.out", "e.in0"]]})");
    CHECK(error.find("parameter 'expr'") != std::string::npos);
    CHECK(error.find("assigns with '='") != std::string::npos);
  }
  // Comparisons are not assignments.
  CHECK(model_file_error(R"json({"ctde": 1, "director": {"stop_time": 1},
      "actors": [{"name": "u", "type": "Constant", "params": {"value": 1}},
                 {"name": "e", "type": "Expression", "params": {"expr": "(in0 <= 1) + (in0 >= 1) + (in0 == 1) + (in0 != 2)"}}],
      "connections": [["u.out", "e.in0"]]})json") == "");
}

TEST_CASE("reliability: a parameter expression that assigns is refused") {
  const std::string error = model_file_error(R"({"ctde": 1, "parameters": {"k": 1, "m": "k = 5"},
    "director": {"stop_time": 1}, "actors": [{"name": "c", "type": "Constant", "params": {"value": "m"}}]})");
  CHECK(error.find("assigns with '='") != std::string::npos);
}
