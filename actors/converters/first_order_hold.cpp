#include "actors/converters/first_order_hold.hpp"

namespace ctde {

FirstOrderHold::FirstOrderHold(std::string name) : Hold(std::move(name), kInfo, /*order=*/1) {}

}  // namespace ctde
