#include "actors/math/unary_function.hpp"

#include "core/actor_context.hpp"

namespace ctde {

UnaryFunction::UnaryFunction(std::string name, const ActorInfo& info)
    : UnaryActor(std::move(name), info, TimeMode::kUnresolved) {}

void UnaryFunction::evaluate(EvalContext& context) const { apply(context.input(in_), context.output(out_)); }

}  // namespace ctde
