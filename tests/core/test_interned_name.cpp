// Names held once for the process: equal texts give the one copy.
#include <doctest/doctest.h>

#include <string>

#include "core/interned_name.hpp"

using ctde::InternedName;

TEST_CASE("equal names are one copy, compared by text") {
  const std::string text = "gain_k";
  const InternedName a(text);
  const InternedName b("gain_k");
  CHECK(&a.str() == &b.str());
  CHECK(a == b);
  CHECK(a == "gain_k");
  CHECK(a == text);
  CHECK("gain_k" == a);
  CHECK(a.str() == "gain_k");
  const InternedName other("gain_kk");
  CHECK_FALSE(a == other);
  CHECK(a != "gain_kk");
  CHECK(&other.str() != &a.str());
  CHECK(InternedName("").str().empty());
}
