// The three contexts an actor is given (core/actor_context.hpp): what each
// call may do is checked by the compiler, so these are mostly static checks.
#include <doctest/doctest.h>

#include <concepts>
#include <span>
#include <type_traits>

#include "core/actor.hpp"
#include "core/actor_context.hpp"

using namespace ctde;

namespace {

template <class C>
concept WritesOutputs = requires(C& c) {
  { c.output(OutputPort{}) } -> std::same_as<std::span<double>>;
};
template <class C>
concept Emits = requires(C& c) {
  c.emit(OutputPort{}, 1.0);
};
template <class C>
concept RequestsTimeEvents = requires(C& c) {
  c.fire_at(Tick{0});
};
template <class C>
concept ResetsStates = requires(C& c) {
  c.mutable_states();
};
template <class C>
concept StopsTheRun = requires(C& c) {
  c.request_stop();
};
template <class C>
concept ChangesModes = requires(C& c) {
  c.mode_changed("a", "", "b");
};
template <class C>
concept ReadsTokens = requires(C& c) {
  c.has_token(InputPort{});
  c.token(InputPort{});
};
template <class C>
concept TakesBareIndices = requires(C& c) {
  c.input(std::size_t{0});
}
|| requires(C& c) { c.input({0}); }
|| requires(C& c) { c.output(std::size_t{0}); }
|| requires(C& c) { c.output({0}); }
|| requires(C& c) { c.has_token(std::size_t{0}); }
|| requires(C& c) { c.token(std::size_t{0}); }
|| requires(C& c) { c.emit(0, 1.0); }
|| requires(C& c) { c.emit({0}, 1.0); };
template <class C>
concept Reads = requires(C& c) {
  { c.input(InputPort{}) } -> std::same_as<std::span<const double>>;
  { c.states() } -> std::same_as<std::span<const double>>;
  c.time();
  c.tag();
};

}  // namespace

// derivatives() and guards(): const ReadContext& — reads only.
static_assert(Reads<const ReadContext>);
static_assert(!WritesOutputs<const ReadContext> && !Emits<const ReadContext> &&
              !RequestsTimeEvents<const ReadContext> && !ResetsStates<const ReadContext> &&
              !StopsTheRun<const ReadContext> && !ChangesModes<const ReadContext> &&
              !ReadsTokens<const ReadContext>);

// evaluate(): EvalContext& — reads, and writes its outputs; nothing else.
static_assert(Reads<EvalContext> && WritesOutputs<EvalContext>);
static_assert(!Emits<EvalContext> && !RequestsTimeEvents<EvalContext> && !ResetsStates<EvalContext> &&
              !StopsTheRun<EvalContext> && !ChangesModes<EvalContext> && !ReadsTokens<EvalContext>);
static_assert(!WritesOutputs<const EvalContext>);  // a helper given it as const only reads

// initialize() and fire(): FireContext& — reads, tokens and the director's services; no outputs.
static_assert(Reads<FireContext> && ReadsTokens<FireContext> && Emits<FireContext> &&
              RequestsTimeEvents<FireContext> && ResetsStates<FireContext> && StopsTheRun<FireContext> &&
              ChangesModes<FireContext>);
static_assert(!WritesOutputs<FireContext>);
static_assert(!Emits<const FireContext> && !RequestsTimeEvents<const FireContext> &&
              !ResetsStates<const FireContext> && ReadsTokens<const FireContext>);

// Ports are named by their handles, never by a bare index.
static_assert(!TakesBareIndices<EvalContext> && !TakesBareIndices<FireContext>);
static_assert(!std::is_convertible_v<std::size_t, InputPort> &&
              !std::is_convertible_v<std::size_t, OutputPort>);

// The actor's calls take those types.
static_assert(std::is_same_v<decltype(&Actor::initialize), void (Actor::*)(FireContext&) const>);
static_assert(std::is_same_v<decltype(&Actor::fire), void (Actor::*)(FireContext&) const>);
static_assert(std::is_same_v<decltype(&Actor::evaluate), void (Actor::*)(EvalContext&) const>);
static_assert(std::is_same_v<decltype(&Actor::derivatives),
                             void (Actor::*)(const ReadContext&, std::span<double>) const>);
static_assert(
    std::is_same_v<decltype(&Actor::guards), void (Actor::*)(const ReadContext&, std::span<double>) const>);

// Small values, made on the stack for each call.
static_assert(std::is_trivially_copyable_v<ReadContext> && std::is_trivially_copyable_v<EvalContext> &&
              std::is_trivially_copyable_v<FireContext>);
static_assert(sizeof(EvalContext) == sizeof(ReadContext));

TEST_CASE("a context reads and writes the ports its handles name") {
  // One actor: outputs a (width 1) and b (width 2), inputs u (width 2) and v (width 1).
  RunBuffers b;
  b.actors.push_back(ActorSlots{InputId{0}, OutputId{0}, StateSlice{StateIndex{0}, 1}, GuardSlice{}});
  b.outputs = {{SignalIndex{0}, 1}, {SignalIndex{1}, 2}};
  b.inputs = {{SignalIndex{3}, 2}, {SignalIndex{5}, 1}};
  b.input_tokens = {{TokenIndex{0}, 2}, {TokenIndex{2}, 1}};
  b.signals = {0, 0, 0, 7, 8, 9};
  b.tokens_now = {0, 0, 4};
  b.present_now = {kAbsent, kSentBefore};
  b.states.push_back(nullptr);
  b.x_storage = {5};
  b.x = b.x_storage.data();
  const InputPort u{0};
  const InputPort v{1};
  const OutputPort a{0};
  const OutputPort out_b{1};

  EvalContext eval(b, nullptr, ctde::ActorId{0}, Tag{3, 1}, 0.25);
  CHECK(eval.time() == 0.25);
  CHECK(eval.tag() == Tag{3, 1});
  CHECK(eval.input(u)[1] == 8);
  CHECK(eval.input(v)[0] == 9);
  CHECK(eval.width(out_b) == 2);
  CHECK(eval.states()[0] == 5);
  eval.output(out_b)[1] = 2;
  eval.output(a)[0] = 1;
  CHECK(b.signals[0] == 1);
  CHECK(b.signals[2] == 2);

  FireContext fire(b, nullptr, ctde::ActorId{0}, Tag{3, 1}, 0.25, true);
  CHECK(fire.time_event());
  CHECK_FALSE(fire.has_token(u));
  CHECK(fire.has_token(v));
  CHECK(fire.token_sent_before(v));
  CHECK(fire.token(v)[0] == 4);
  fire.mutable_states()[0] = 6;  // no director: nothing to tell
  CHECK(b.x_storage[0] == 6);
}
