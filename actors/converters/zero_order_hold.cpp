#include "actors/converters/zero_order_hold.hpp"

namespace ctde {

ZeroOrderHold::ZeroOrderHold(std::string name) : Hold(std::move(name), kInfo, /*order=*/0) {}

}  // namespace ctde
