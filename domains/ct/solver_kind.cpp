#include "domains/ct/solver_kind.hpp"

#include <array>
#include <string>
#include <utility>

namespace ctde {

namespace {

constexpr std::array<std::pair<SolverKind, const char*>, 8> kSolvers{{
    {SolverKind::kErk45, "erk45"},
    {SolverKind::kErk23, "erk23"},
    {SolverKind::kRk4Fixed, "rk4-fixed"},
    {SolverKind::kDirk, "dirk"},
    {SolverKind::kArkImex, "ark-imex"},
    {SolverKind::kRkf45, "rkf45"},
    {SolverKind::kBdf, "bdf"},
    {SolverKind::kAuto, "auto"},
}};

constexpr std::array<std::pair<LinearSolverKind, const char*>, 5> kLinearSolvers{{
    {LinearSolverKind::kAuto, "auto"},
    {LinearSolverKind::kDense, "dense"},
    {LinearSolverKind::kBand, "band"},
    {LinearSolverKind::kKlu, "klu"},
    {LinearSolverKind::kGmres, "gmres"},
}};

template <class Kind, std::size_t N>
const char* name_of(const std::array<std::pair<Kind, const char*>, N>& table, Kind kind) {
  for (const auto& [k, name] : table) {
    if (k == kind) return name;
  }
  return "?";
}

template <class Kind, std::size_t N>
std::optional<Kind> kind_of(const std::array<std::pair<Kind, const char*>, N>& table, std::string_view name) {
  for (const auto& [k, text] : table) {
    if (name == text) return k;
  }
  return std::nullopt;
}

/// "a, b, c": every name of `table`, in its order.
template <class Kind, std::size_t N>
std::string names_of(const std::array<std::pair<Kind, const char*>, N>& table) {
  std::string out;
  for (const auto& entry : table) {
    if (!out.empty()) out += ", ";
    out += entry.second;
  }
  return out;
}

}  // namespace

std::string solver_names() { return names_of(kSolvers); }
std::string linear_solver_names() { return names_of(kLinearSolvers); }

const char* to_string(SolverKind solver) { return name_of(kSolvers, solver); }
std::optional<SolverKind> solver_kind(std::string_view name) { return kind_of(kSolvers, name); }
bool is_implicit(SolverKind solver) {
  return solver == SolverKind::kDirk || solver == SolverKind::kArkImex || solver == SolverKind::kBdf ||
         solver == SolverKind::kAuto;
}

const char* to_string(LinearSolverKind kind) { return name_of(kLinearSolvers, kind); }
std::optional<LinearSolverKind> linear_solver_kind(std::string_view name) {
  return kind_of(kLinearSolvers, name);
}

}  // namespace ctde
