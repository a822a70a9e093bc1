#include "core/composite.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace ctde {

bool is_valid_name(std::string_view name) {
  if (name.empty()) return false;
  return std::none_of(name.begin(), name.end(),
                      [](char c) { return c == '.' || c == ' ' || c == '\t' || c == '\n' || c == '"'; });
}

Composite::Composite(std::string name) : Actor(std::move(name), "Composite", TimeMode::kHybrid) {}

Actor& Composite::add(std::unique_ptr<Actor> child, const SourceLocation& location) {
  if (!is_valid_name(child->name())) {
    throw ModelError("actor name '" + child->name() + "' in " +
                     (parent() == nullptr && name().empty() ? std::string("the model") : describe()) +
                     " is not valid (it must be non-empty, without dots or spaces)")
        .located(location);
  }
  if (find_child_index(child->name())) {
    child->parent_ = this;
    throw ModelError("duplicate actor name: '" + child->path() + "' is defined twice").located(location);
  }
  child->parent_ = this;
  children_.push_back(std::move(child));
  index_.insert(children_.back()->name(), static_cast<std::uint32_t>(children_.size() - 1));
  return *children_.back();
}

std::optional<std::size_t> Composite::find_child_index(std::string_view name) const {
  return index_.find(name, [this](std::uint32_t i) -> std::string_view { return children_[i]->name(); });
}

Actor* Composite::find_child(std::string_view name) const {
  const auto i = find_child_index(name);
  return i ? children_[*i].get() : nullptr;
}

void Composite::reserve(std::size_t children, std::size_t connections) {
  children_.reserve(children);
  connections_.reserve(connections);
}

void Composite::connect(std::string from, std::string to, SourceLocation location) {
  connections_.push_back({std::move(from), std::move(to), std::move(location)});
}

void Composite::export_input(std::string name, std::vector<std::string> inner, SourceLocation location) {
  if (find_input(name) || find_output(name)) {
    throw ModelError(describe() + " exports port '" + name + "' twice").located(location);
  }
  declare_input(name, PortKind::kPolymorphic);
  exported_inputs_.push_back({std::move(name), std::move(inner), std::move(location)});
}

void Composite::export_output(std::string name, std::string inner, SourceLocation location) {
  if (find_input(name) || find_output(name)) {
    throw ModelError(describe() + " exports port '" + name + "' twice").located(location);
  }
  declare_output(name, PortKind::kPolymorphic);
  exported_outputs_.push_back({std::move(name), {std::move(inner)}, std::move(location)});
}

}  // namespace ctde
