// Documentation that cannot drift: docs/model-reference.md against the actor
// registry and the loader, and the snippets of docs/user-guide.md against the
// files they are copied from.
//
// The reference's tables are generated here (expected_reference_markdown()):
// when the check fails, the message says which rows to add or remove, and the
// whole generated skeleton is written to a file (its path is in the message)
// so that fixing the doc is copy-paste. Prose between the tables is free.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "domains/ctde/run_options.hpp"
#include "support/actor_samples.hpp"
#include "support/cli_helpers.hpp"
#include "support/model_helpers.hpp"

using namespace ctde;

namespace {

// ---------------------------------------------------------------- the generator

/// The families, in the reference's order, with their section titles.
const std::vector<std::pair<std::string, std::string>> kFamilies = {
    {"sources", "Sources"},       {"math", "Math (polymorphic)"},
    {"continuous", "Continuous"}, {"discrete", "Discrete"},
    {"converters", "Converters"}, {"events", "State-event generators"},
    {"modal", "Modal models"},    {"sinks", "Sinks"},
    {"fmi", "FMI import"}};

std::string kind_letter(PortKind kind) {
  switch (kind) {
    case PortKind::kContinuous:
      return "C";
    case PortKind::kDiscrete:
      return "D";
    case PortKind::kPolymorphic:
      return "P";
    case PortKind::kConstant:
      return "K";
  }
  return "?";
}

std::string width_text(int width) { return width == kInferredWidth ? "inferred" : std::to_string(width); }

std::string port_row(const PortSpec& port, const std::string& shown_name) {
  std::string row = "| ";
  row += shown_name;
  row += " | ";
  row += port.direction == PortDirection::kInput ? (port.optional ? "input (optional)" : "input") : "output";
  row += " | ";
  row += kind_letter(port.kind);
  row += " | ";
  row += width_text(port.width);
  row += " |";
  return row;
}

std::string param_row(const ParamSlot& slot) {
  std::string row = "| `";
  row += slot.name.str();
  row += "` | ";
  row += to_string(slot.kind);
  row += " | ";
  if (slot.value) {
    row += '`';
    row += slot.value.get().to_string();
    row += '`';
  } else {
    row += slot.optional ? "optional" : "required";
  }
  row += " |";
  return row;
}

/// What the reference must say about one type.
struct TypeReference {
  std::string type;
  std::string family;
  std::string summary;
  std::vector<std::string> port_rows;
  std::vector<std::string> param_rows;
  std::string problem;  ///< a failure to configure with the sample values
};

bool is_numbered_input(const std::string& name) {
  return name.size() > 2 && name.compare(0, 2, "in") == 0 &&
         std::all_of(name.begin() + 2, name.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

TypeReference reference_of(const ActorRegistry::Entry& entry) {
  TypeReference ref{entry.type, entry.family, entry.summary, {}, {}, {}};
  const auto declared = builtin_actors().make(entry.type, "a");
  for (const auto& port : declared->inputs()) ref.port_rows.push_back(port_row(port, "`" + port.name + "`"));
  for (const auto& slot : declared->parameters()) ref.param_rows.push_back(param_row(slot));

  // Numbered inputs appear in configure(): configure the type's sample
  // (ActorInfo::sample_params) and look for inputs the declaration lacks.
  try {
    const auto sample = ctde::test::configured_sample(entry);
    const auto& inputs = sample.actor->inputs();
    const bool numbered = std::any_of(inputs.begin(), inputs.end(), [&](const PortSpec& p) {
      return is_numbered_input(p.name) && !declared->find_input(p.name);
    });
    if (numbered) {
      PortSpec first = inputs.front();
      for (const auto& p : inputs) {
        if (p.name == "in0") first = p;
      }
      ref.port_rows.push_back(port_row(first, "`in0`..`in{N-1}` (numbered)"));
    }
  } catch (const std::exception& e) {
    ref.problem = "type " + entry.type;
    ref.problem += " does not configure with its sample parameters (";
    ref.problem += e.what();
    ref.problem += "): fix kInfo.sample_params in its header";
  }
  for (const auto& port : declared->outputs()) ref.port_rows.push_back(port_row(port, "`" + port.name + "`"));
  return ref;
}

std::vector<TypeReference> expected_types() {
  std::vector<TypeReference> out;
  for (const auto& entry : builtin_actors().entries()) out.push_back(reference_of(entry));
  return out;
}

/// The keys that the loader accepts in one place, read from its message for an unknown key.
std::vector<std::string> loader_keys(const std::string& model_text, const std::string& marker) {
  std::string message;
  try {
    (void)ctde::test::load(model_text);
  } catch (const ModelError& e) {
    message = e.what();
  }
  const auto start = message.find(marker);
  REQUIRE_MESSAGE(start != std::string::npos, "the loader's message for an unknown key changed: " << message);
  const auto end = message.find(')', start);
  std::vector<std::string> keys;
  std::istringstream list(message.substr(start + marker.size(), end - start - marker.size()));
  for (std::string key; std::getline(list, key, ',');) {
    key.erase(0, key.find_first_not_of(' '));
    keys.push_back(key);
  }
  return keys;
}

std::vector<std::string> top_level_keys() { return loader_keys(R"({"ctde": 1, "zzz": 1})", "(known here: "); }
std::vector<std::string> actor_keys() {
  return loader_keys(R"({"ctde": 1, "actors": [{"name": "a", "type": "Clock", "zzz": 1}]})", "(known here: ");
}
std::vector<std::string> composite_keys() {
  return loader_keys(R"({"ctde": 1, "actors": [{"name": "a", "type": "Composite", "zzz": 1}]})",
                     "(known here: ");
}

/// The default of a director option as the reference shows it ("—": unset).
std::string director_default(const std::string& key) {
  ParameterScope scope;
  scope.resolve();
  const RunOptions o = make_run_options({{"stop_time", 1.0}}, scope);
  const auto code = [](const std::string& text) { return "`" + text + "`"; };
  const auto optional = [&](const std::optional<double>& v) { return v ? code(format_double(*v)) : "—"; };
  if (key == "start_time") return code(format_double(o.start_time));
  if (key == "stop_time") return "required";
  if (key == "time_resolution") return code(format_double(o.time_resolution));
  if (key == "solver") return code(std::string("\"") + to_string(o.solver) + "\"");
  if (key == "rtol") return code(format_double(o.rtol));
  if (key == "atol") return code(format_double(o.atol));
  if (key == "initial_step") return optional(o.initial_step);
  if (key == "min_step") return optional(o.min_step);
  if (key == "max_step") return optional(o.max_step);
  if (key == "max_microsteps") return code(std::to_string(o.max_microsteps));
  if (key == "event_tolerance") return optional(o.event_tolerance);
  if (key == "events") return code(o.events == EventMode::kNormal ? "\"normal\"" : "\"none\"");
  if (key == "event_state") {
    return code(o.event_state == EventState::kInterpolated ? "\"interpolated\"" : "\"integrated\"");
  }
  if (key == "output_interval") return optional(o.output_interval);
  if (key == "subsystems") return code(o.subsystems == Subsystems::kSplit ? "\"split\"" : "\"joined\"");
  if (key == "linear_solver") return code(std::string("\"") + to_string(o.linear_solver) + "\"");
  if (key == "integrator") return code(o.integrator == OdeIntegrator::kCtde ? "\"ctde\"" : "\"arkode\"");
  if (key == "algebraic_loops")
    return code(o.algebraic_loops == AlgebraicLoops::kSolve ? "\"solve\"" : "\"error\"");
  return "? (unknown to director_default() in tests/core/test_model_reference.cpp)";
}

std::string key_row(const std::string& key) { return "| `" + key + "` |"; }

/// The generated part of docs/model-reference.md: the key tables and every
/// type's summary and tables (the prose around them is written by hand).
std::string expected_reference_markdown() {
  std::string md;
  const auto key_table = [&](const std::string& header, const std::vector<std::string>& keys) {
    md += "| " + header + " | meaning |\n|---|---|\n";
    for (const auto& key : keys) md += key_row(key) + " |\n";
    md += '\n';
  };
  key_table("top-level key", top_level_keys());
  key_table("actor key", actor_keys());
  key_table("Composite key", composite_keys());
  md += "| director option | default | checks |\n|---|---|---|\n";
  for (const auto& key : director_keys()) md += "| `" + key + "` | " + director_default(key) + " | |\n";
  md += '\n';

  const auto types = expected_types();
  for (const auto& [family, title] : kFamilies) {
    md += "## " + title + " (`actors/" + family + "/`)\n\n";
    for (const auto& ref : types) {
      if (ref.family != family) continue;
      md += "### `" + ref.type + "`\n\n" + ref.summary + "\n\n";
      if (ref.port_rows.empty()) {
        md += "No fixed ports.\n\n";
      } else {
        md += "| port | direction | kind | width |\n|---|---|---|---|\n";
        for (const auto& row : ref.port_rows) md += row + '\n';
        md += '\n';
      }
      if (ref.param_rows.empty()) {
        md += "No parameters.\n\n";
      } else {
        md += "| parameter | kind | default |\n|---|---|---|\n";
        for (const auto& row : ref.param_rows) md += row + '\n';
        md += '\n';
      }
    }
  }
  return md;
}

// ---------------------------------------------------------------- the doc, parsed

std::string trim(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) text.pop_back();
  text.erase(0, std::min(text.size(), text.find_first_not_of(" \t")));
  return text;
}

std::string read_file(const std::string& relative) {
  std::ifstream in(std::string(CTDE_SOURCE_DIR) + "/" + relative, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << relative);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

/// The first cell of a table row, "| `rtol` | ..." → "`rtol`".
std::string first_cell(const std::string& row) {
  const auto second_bar = row.find('|', 1);
  return trim(row.substr(1, second_bar == std::string::npos ? std::string::npos : second_bar - 1));
}

/// The first two cells, "| `rtol` | `1e-06` | ..." → "| `rtol` | `1e-06` |".
std::string first_two_cells(const std::string& row) {
  const auto second_bar = row.find('|', 1);
  const auto third_bar = second_bar == std::string::npos ? std::string::npos : row.find('|', second_bar + 1);
  if (third_bar == std::string::npos) return row;
  return "| " + first_cell(row) + " | " + trim(row.substr(second_bar + 1, third_bar - second_bar - 1)) + " |";
}

struct DocType {
  std::string family;
  std::string summary;
  std::vector<std::string> port_rows;
  std::vector<std::string> param_rows;
};

struct Doc {
  std::map<std::string, DocType> types;
  std::vector<std::string> type_order;
  std::map<std::string, std::vector<std::string>> key_rows;  ///< table header → rows
};

Doc parse_reference(const std::string& text) {
  Doc doc;
  std::string family;
  std::string type;
  std::string table;  // the header's first cell, while inside a table
  bool want_summary = false;
  for (const std::string& raw : lines_of(text)) {
    const std::string line = trim(raw);
    if (line.rfind("## ", 0) == 0) {
      const auto at = line.find("(`actors/");
      family = at == std::string::npos ? "" : line.substr(at + 9, line.find('/', at + 9) - at - 9);
      type.clear();
      table.clear();
      continue;
    }
    if (line.rfind("### `", 0) == 0) {
      type = line.substr(5, line.find('`', 5) - 5);
      doc.types[type].family = family;
      doc.type_order.push_back(type);
      want_summary = true;
      table.clear();
      continue;
    }
    if (line.rfind("#", 0) == 0) {
      type.clear();
      table.clear();
      continue;
    }
    if (want_summary && !line.empty()) {  // the line after a type's heading (it may start with '|': "|u|")
      doc.types[type].summary = line;
      want_summary = false;
      continue;
    }
    if (line.rfind("|", 0) != 0) {
      table.clear();
      continue;
    }
    if (table.empty()) {  // a header
      table = first_cell(line);
      continue;
    }
    if (line.rfind("|---", 0) == 0 || line.rfind("| ---", 0) == 0) continue;
    if (!type.empty() && table == "port") {
      doc.types[type].port_rows.push_back(line);
    } else if (!type.empty() && table == "parameter") {
      doc.types[type].param_rows.push_back(line);
    } else {
      doc.key_rows[table].push_back(line);
    }
  }
  return doc;
}

/// Rows in `expected` missing from `actual` ("add") and the reverse ("remove").
void compare_rows(const std::string& what, const std::vector<std::string>& expected,
                  const std::vector<std::string>& actual, std::string& problems) {
  for (const auto& row : expected) {
    if (std::find(actual.begin(), actual.end(), row) == actual.end())
      problems += "  add to " + what + ": " + row + '\n';
  }
  for (const auto& row : actual) {
    if (std::find(expected.begin(), expected.end(), row) == expected.end()) {
      problems += "  remove from " + what + ": " + row + '\n';
    }
  }
}

std::string write_generated(const std::string& markdown) {
  const auto path = ctde::test::scratch_root() / "ctde-model-reference.generated.md";
  std::ofstream out(path, std::ios::binary);
  out << markdown;
  return path.string();
}

/// The source region between `// [guide:NAME]` and `// [/guide:NAME]` (the
/// marker lines excluded), or the whole file when `name` is empty.
std::string marked_region(const std::string& file, const std::string& name) {
  const std::string text = read_file(file);
  if (name.empty()) return text;
  const std::string begin = "// [guide:" + name + "]";
  const std::string end = "// [/guide:" + name + "]";
  const auto b = text.find(begin);
  REQUIRE_MESSAGE(b != std::string::npos, file << " has no marker " << begin);
  const auto first = text.find('\n', b) + 1;
  const auto e = text.find(end, first);
  REQUIRE_MESSAGE(e != std::string::npos, file << " has no marker " << end);
  const auto last = text.rfind('\n', e);
  return text.substr(first, last + 1 - first);
}

}  // namespace

// ---------------------------------------------------------------- the tests

TEST_CASE("the model reference lists exactly the registered actor types, their ports and parameters") {
  const std::string text = read_file("docs/model-reference.md");
  const Doc doc = parse_reference(text);
  const auto expected = expected_types();
  std::string problems;
  std::set<std::string> registered;
  for (const auto& ref : expected) {
    registered.insert(ref.type);
    if (!ref.problem.empty()) problems += "  " + ref.problem + '\n';
    const auto it = doc.types.find(ref.type);
    if (it == doc.types.end()) {
      problems += "  add a section \"### `" + ref.type + "`\" under the family '" + ref.family + "'\n";
      continue;
    }
    const DocType& d = it->second;
    if (d.family != ref.family) {
      problems += "  move `" + ref.type + "` under the family '" + ref.family + "' (it is under '" +
                  d.family + "')\n";
    }
    if (d.summary != ref.summary) {
      problems += "  the summary of `" + ref.type + "` must read: " + ref.summary + '\n';
    }
    compare_rows("the ports of `" + ref.type + "`", ref.port_rows, d.port_rows, problems);
    compare_rows("the parameters of `" + ref.type + "`", ref.param_rows, d.param_rows, problems);
  }
  for (const auto& type : doc.type_order) {
    if (!registered.contains(type))
      problems += "  remove the section of `" + type + "`: no such registered type\n";
  }
  if (!problems.empty()) {
    const std::string generated = write_generated(expected_reference_markdown());
    FAIL_CHECK("docs/model-reference.md is out of date with the actor registry:\n"
               << problems << "(the generated tables are in " << generated << ")");
  }
}

TEST_CASE("the model reference lists exactly the keys the loader accepts, and the director's defaults") {
  const Doc doc = parse_reference(read_file("docs/model-reference.md"));
  std::string problems;
  const auto keys_of = [&](const std::string& header) {
    std::vector<std::string> rows;
    const auto it = doc.key_rows.find(header);
    if (it == doc.key_rows.end()) {
      problems += "  add a table whose header starts \"| " + header + " |\"\n";
      return rows;
    }
    for (const auto& row : it->second) rows.push_back("| " + first_cell(row) + " |");
    return rows;
  };
  const auto rows_of = [](const std::vector<std::string>& keys) {
    std::vector<std::string> rows;
    for (const auto& key : keys) rows.push_back(key_row(key));
    return rows;
  };
  compare_rows("the top-level keys", rows_of(top_level_keys()), keys_of("top-level key"), problems);
  compare_rows("the actor keys", rows_of(actor_keys()), keys_of("actor key"), problems);
  compare_rows("the Composite keys", rows_of(composite_keys()), keys_of("Composite key"), problems);

  std::vector<std::string> expected_director;
  for (const auto& key : director_keys()) {
    expected_director.push_back("| `" + key + "` | " + director_default(key) + " |");
  }
  std::vector<std::string> documented_director;
  if (const auto it = doc.key_rows.find("director option"); it != doc.key_rows.end()) {
    for (const auto& row : it->second) documented_director.push_back(first_two_cells(row));
  } else {
    problems += "  add a table whose header starts \"| director option |\"\n";
  }
  compare_rows("the director options (option and default)", expected_director, documented_director, problems);
  if (!problems.empty()) {
    const std::string generated = write_generated(expected_reference_markdown());
    FAIL_CHECK("docs/model-reference.md is out of date with the loader:\n"
               << problems << "(the generated tables are in " << generated << ")");
  }
}

TEST_CASE("the model reference generator covers every registered type in a known family") {
  std::set<std::string> families;
  for (const auto& [family, title] : kFamilies) families.insert(family);
  for (const auto& entry : builtin_actors().entries()) {
    CHECK_MESSAGE(families.contains(entry.family),
                  "type " << entry.type << " has family '" << entry.family
                          << "': add it to kFamilies in tests/core/test_model_reference.cpp");
  }
  const std::string markdown = expected_reference_markdown();
  CHECK(markdown.find("### `Sum`") != std::string::npos);
  CHECK(markdown.find("| `in0`..`in{N-1}` (numbered) | input | P | inferred |") != std::string::npos);
}

TEST_CASE("the user guide's snippets are the marked regions of the files they come from") {
  // A snippet is announced by `<!-- snippet: FILE -->` (the whole file) or
  // `<!-- snippet: FILE NAME -->` (the region between `// [guide:NAME]` and
  // `// [/guide:NAME]`) on the line before its fenced block.
  const auto lines = lines_of(read_file("docs/user-guide.md"));
  int snippets = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const std::string tag = "<!-- snippet: ";
    if (line.rfind(tag, 0) != 0) continue;
    std::istringstream words(line.substr(tag.size(), line.rfind(" -->") - tag.size()));
    std::string file;
    std::string name;
    words >> file >> name;
    REQUIRE_MESSAGE(i + 1 < lines.size(), "a snippet marker at the end of docs/user-guide.md");
    REQUIRE_MESSAGE(lines[i + 1].rfind("```", 0) == 0,
                    "docs/user-guide.md line " << i + 2 << ": a fenced block must follow " << line);
    std::string block;
    std::size_t j = i + 2;
    for (; j < lines.size() && lines[j].rfind("```", 0) != 0; ++j) block += lines[j] + '\n';
    REQUIRE_MESSAGE(j < lines.size(), "docs/user-guide.md: the block after " << line << " is not closed");
    CHECK_MESSAGE(block == marked_region(file, name), "docs/user-guide.md line "
                                                          << i + 1 << ": the snippet differs from " << file
                                                          << (name.empty() ? "" : " [guide:" + name + "]")
                                                          << "; copy the region into the guide again");
    ++snippets;
    i = j;
  }
  CHECK(snippets >= 3);
}
