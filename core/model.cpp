#include "core/model.hpp"

namespace ctde {

Model::Model(std::string name) : name_(std::move(name)), top_(std::make_unique<Composite>("")) {}
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;
Model::~Model() = default;

}  // namespace ctde
