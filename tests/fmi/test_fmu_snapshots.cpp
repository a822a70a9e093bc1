// Snapshots of FMU actors (docs/fmi.md, "Snapshots"): the FMU-state
// functions of FMI 2.0 and 3.0 on the strict test FMUs (tests/fmi/fmu_state.c)
// — a state got, serialized, deserialized and set in a new instance brought
// to the same mode continues the run identically (Model Exchange and
// Co-Simulation, both versions); what the test FMUs refuse; the importer's
// call table; the description's capability flags; the SnapshotError of an
// FMU that cannot save its state; and whole runs resumed from a snapshot.
#include <doctest/doctest.h>

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "actors/fmi/fmi2_instance.hpp"
#include "actors/fmi/fmi2_library.hpp"
#include "actors/fmi/fmi_rules.hpp"
#include "actors/fmi/fmu_archive.hpp"
#include "actors/fmi/model_description.hpp"
#include "core/error.hpp"
#include "core/state_stream.hpp"
#include "support/fmi_helpers.hpp"
#include "support/model_helpers.hpp"
#include "support/snapshot_helpers.hpp"

using namespace ctde;
using namespace ctde::test;

namespace {

/// Instances of test FMU `name` made directly (no actor), with its FMU-state functions looked up.
struct Direct : DirectFmu {
  Direct(const std::string& name, bool me, bool fmi3) : DirectFmu(name, me, fmi3) {
    library->look_up_fmu_state();
  }
  [[nodiscard]] std::unique_ptr<Fmi2Instance> instance(const std::string& name = "i") const {
    return make_instance(name);
  }
};

/// Instantiated to Event Mode (ME) or Step Mode (CS): the experiment from 0 to 10 s.
void initialize(Fmi2Instance& fmu) {
  const auto& f = fmu.f();
  fmu.call(FmiCall::kSetupExperiment,
           [&] { return f.setup_experiment(fmu.component(), fmi2::kFalse, 0.0, 0.0, fmi2::kTrue, 10.0); });
  fmu.call(FmiCall::kEnterInitializationMode, [&] { return f.enter_initialization_mode(fmu.component()); });
  fmu.call(FmiCall::kExitInitializationMode, [&] { return f.exit_initialization_mode(fmu.component()); });
}

/// Event Mode to Continuous-Time Mode: the event iteration, then fmi2EnterContinuousTimeMode.
void settle(Fmi2Instance& fmu) {
  const auto& f = fmu.f();
  fmi2::EventInfo info{};
  info.new_discrete_states_needed = fmi2::kTrue;
  while (info.new_discrete_states_needed != fmi2::kFalse) {
    info = fmi2::EventInfo{};
    fmu.call(FmiCall::kNewDiscreteStates, [&] { return f.new_discrete_states(fmu.component(), &info); });
  }
  fmu.call(FmiCall::kEnterContinuousTimeMode, [&] { return f.enter_continuous_time_mode(fmu.component()); });
}

/// fmi2GetFMUstate, fmi2SerializedFMUstateSize, fmi2SerializeFMUstate, fmi2FreeFMUstate.
std::vector<fmi2::Byte> save(Fmi2Instance& fmu) {
  const auto& f = fmu.f();
  fmi2::FMUstate state = nullptr;
  fmu.call(FmiCall::kGetFMUState, [&] { return f.get_fmu_state(fmu.component(), &state); });
  REQUIRE(state != nullptr);
  std::size_t size = 0;
  fmu.call(FmiCall::kSerializedFMUStateSize,
           [&] { return f.serialized_fmu_state_size(fmu.component(), state, &size); });
  std::vector<fmi2::Byte> bytes(size);
  fmu.call(FmiCall::kSerializeFMUState,
           [&] { return f.serialize_fmu_state(fmu.component(), state, bytes.data(), bytes.size()); });
  fmu.call(FmiCall::kFreeFMUState, [&] { return f.free_fmu_state(fmu.component(), &state); });
  CHECK(state == nullptr);  // the standard: FreeFMUstate returns a null pointer
  return bytes;
}

/// fmi2DeSerializeFMUstate, fmi2SetFMUstate, fmi2FreeFMUstate.
void set(Fmi2Instance& fmu, const std::vector<fmi2::Byte>& bytes) {
  const auto& f = fmu.f();
  fmi2::FMUstate state = nullptr;
  fmu.call(FmiCall::kDeserializeFMUState,
           [&] { return f.deserialize_fmu_state(fmu.component(), bytes.data(), bytes.size(), &state); });
  fmu.call(FmiCall::kSetFMUState, [&] { return f.set_fmu_state(fmu.component(), state); });
  fmu.call(FmiCall::kFreeFMUState, [&] { return f.free_fmu_state(fmu.component(), &state); });
}

/// The importer's side of a Model Exchange run of the ball (2 states, 1 indicator).
struct BallRun {
  double t = 0;
  std::vector<double> x = std::vector<double>(2);
  std::vector<double> z = std::vector<double>(1);
};

/// `steps` explicit Euler steps of `h` in Continuous-Time Mode, an event
/// where the indicator reaches 0 from above; after each step its time,
/// states and indicator appended to `trace`.
void ball_steps(Fmi2Instance& fmu, BallRun& run, int steps, double h, std::vector<double>& trace) {
  const auto& f = fmu.f();
  const auto c = fmu.component();
  std::vector<double> dx(2);
  std::vector<double> z(1);
  for (int k = 0; k < steps; ++k) {
    fmu.call(FmiCall::kSetTime, [&] { return f.set_time(c, run.t); });
    fmu.call(FmiCall::kSetContinuousStates, [&] { return f.set_continuous_states(c, run.x.data(), 2); });
    fmu.call(FmiCall::kGetDerivatives, [&] { return f.get_derivatives(c, dx.data(), 2); });
    run.t += h;
    for (std::size_t i = 0; i < 2; ++i) run.x[i] += h * dx[i];
    fmu.call(FmiCall::kSetTime, [&] { return f.set_time(c, run.t); });
    fmu.call(FmiCall::kSetContinuousStates, [&] { return f.set_continuous_states(c, run.x.data(), 2); });
    fmi2::Boolean enter = fmi2::kFalse;
    fmi2::Boolean terminate = fmi2::kFalse;
    fmu.call(FmiCall::kCompletedIntegratorStep,
             [&] { return f.completed_integrator_step(c, fmi2::kTrue, &enter, &terminate); });
    fmu.call(FmiCall::kGetEventIndicators, [&] { return f.get_event_indicators(c, z.data(), 1); });
    if ((run.z[0] > 0 && z[0] <= 0) || enter != fmi2::kFalse) {
      fmu.call(FmiCall::kEnterEventMode, [&] { return f.enter_event_mode(c); });
      settle(fmu);
      fmu.call(FmiCall::kGetContinuousStates, [&] { return f.get_continuous_states(c, run.x.data(), 2); });
      fmu.call(FmiCall::kGetEventIndicators, [&] { return f.get_event_indicators(c, z.data(), 1); });
    }
    run.z = z;
    trace.insert(trace.end(), {run.t, run.x[0], run.x[1], run.z[0]});
  }
}

/// `steps` communication steps of 0.1 s from `t`; after each, the stair's count and level appended to
/// `trace`.
void stair_steps(Fmi2Instance& fmu, double& t, int steps, bool fmi3, std::vector<double>& trace) {
  const auto& f = fmu.f();
  const auto c = fmu.component();
  const fmi2::ValueReference count_vr = fmi3 ? 100 : 0;  // Int32 (FMI 3) or Integer (FMI 2) `count`
  const fmi2::ValueReference level_vr = 0;
  for (int k = 0; k < steps; ++k) {
    fmu.expect(FmiCall::kDoStep);
    fmu.require(f.do_step(c, t, 0.1, fmi2::kTrue), "fmi2DoStep");
    t += 0.1;
    fmi2::Integer count = 0;
    double level = 0;
    fmu.call(FmiCall::kGetVariables, [&] { return f.get_integer(c, &count_vr, 1, &count); });
    fmu.call(FmiCall::kGetVariables, [&] { return f.get_real(c, &level_vr, 1, &level); });
    trace.insert(trace.end(), {t, static_cast<double>(count), level});
  }
}

/// The message of the RunError that `call` throws, or "" when it throws none.
template <class Call>
std::string run_error(Call call) {
  try {
    call();
  } catch (const RunError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE(
    "an FMU state saved in Continuous-Time Mode and set in a new instance continues the ball identically") {
  for (const bool fmi3 : {false, true}) {
    CAPTURE(fmi3);
    const Direct d(fmi3 ? "ball_state3" : "ball_state", true, fmi3);
    const std::unique_ptr<Fmi2Instance> a = d.instance("a");
    initialize(*a);
    settle(*a);
    BallRun run;
    a->call(FmiCall::kGetContinuousStates,
            [&] { return a->f().get_continuous_states(a->component(), run.x.data(), 2); });
    a->call(FmiCall::kGetEventIndicators,
            [&] { return a->f().get_event_indicators(a->component(), run.z.data(), 1); });
    std::vector<double> before;
    ball_steps(*a, run, 40, 0.01, before);  // to t = 0.4 s, before the impact (t = 0.45 s)
    const std::vector<fmi2::Byte> bytes = save(*a);
    const BallRun at_save = run;
    std::vector<double> whole;
    ball_steps(*a, run, 80, 0.01, whole);  // through the impact
    REQUIRE(whole.size() == 80 * 4);
    bool bounced = false;
    for (std::size_t k = 2; k < whole.size(); k += 4) bounced = bounced || whole[k] > 0;
    CHECK(bounced);  // v > 0 after the impact: the event happened after the snapshot

    // A new instance brought to Continuous-Time Mode as the actor's restore does, then the state set.
    const std::unique_ptr<Fmi2Instance> b = d.instance("b");
    initialize(*b);
    settle(*b);
    set(*b, bytes);
    CHECK(b->mode() == FmiMode::kContinuousTime);
    std::vector<double> x(2);
    b->call(FmiCall::kGetContinuousStates,
            [&] { return b->f().get_continuous_states(b->component(), x.data(), 2); });
    CHECK(x == at_save.x);
    BallRun resumed = at_save;
    std::vector<double> rest;
    ball_steps(*b, resumed, 80, 0.01, rest);
    CHECK(rest == whole);
  }
}

TEST_CASE(
    "an FMU state saved in Step Mode and set in a new instance continues the stair's steps identically") {
  for (const bool fmi3 : {false, true}) {
    CAPTURE(fmi3);
    const Direct d(fmi3 ? "stair_state3" : "stair_state", false, fmi3);
    const std::unique_ptr<Fmi2Instance> a = d.instance("a");
    initialize(*a);
    double t = 0;
    std::vector<double> before;
    stair_steps(*a, t, 5, fmi3, before);
    const std::vector<fmi2::Byte> bytes = save(*a);
    const double at_save = t;
    std::vector<double> whole;
    stair_steps(*a, t, 7, fmi3, whole);
    CHECK(whole[1] == 6);  // one more stair at 0.6 s: the time events go on after the snapshot

    const std::unique_ptr<Fmi2Instance> b = d.instance("b");
    initialize(*b);
    set(*b, bytes);
    CHECK(b->mode() == FmiMode::kStep);
    double resumed = at_save;
    std::vector<double> rest;
    stair_steps(*b, resumed, 7, fmi3, rest);  // fmi2DoStep from 0.5 s: the FMU's time is the saved one
    CHECK(rest == whole);
  }
}

TEST_CASE("the test FMUs refuse a truncated, foreign, corrupt, misplaced or wrongly sized serialized state") {
  for (const bool fmi3 : {false, true}) {
    CAPTURE(fmi3);
    const std::string fn = fmi3 ? "fmi3DeserializeFMUState: " : "fmi2DeSerializeFMUstate: ";
    const Direct ball(fmi3 ? "ball_state3" : "ball_state", true, fmi3);
    const Direct stair_me(fmi3 ? "stair_state3" : "stair_state", true, fmi3);
    const Direct stair_cs(fmi3 ? "stair_state3" : "stair_state", false, fmi3);
    std::vector<fmi2::Byte> bytes;
    {
      const std::unique_ptr<Fmi2Instance> a = stair_me.instance();
      initialize(*a);
      bytes = save(*a);
    }
    const auto refused = [&](const Direct& d, const std::vector<fmi2::Byte>& b) {
      const std::unique_ptr<Fmi2Instance> i = d.instance();
      initialize(*i);
      return run_error([&] { set(*i, b); });
    };
    CHECK(refused(stair_me, bytes).empty());
    std::vector<fmi2::Byte> cut(bytes.begin(), bytes.end() - 8);
    CHECK(contains(refused(stair_me, cut), fn + std::to_string(cut.size()) +
                                               " bytes; a serialized state of "
                                               "this FMU has " +
                                               std::to_string(bytes.size()) + " (truncated or too long)"));
    CHECK(contains(refused(stair_me, std::vector<fmi2::Byte>(bytes.begin(), bytes.begin() + 4)),
                   "not a serialized state of this runtime"));
    CHECK(contains(refused(ball, bytes), "a serialized state of another FMU ({ctde-test-fmu-stair_state"));
    CHECK(contains(refused(stair_cs, bytes),
                   std::string("a serialized state of an FMI ") + (fmi3 ? "3" : "2") +
                       " Model Exchange instance; this one is FMI " + (fmi3 ? "3" : "2") + " Co-Simulation"));
    std::vector<fmi2::Byte> corrupt = bytes;
    corrupt[corrupt.size() / 2] = static_cast<fmi2::Byte>(corrupt[corrupt.size() / 2] ^ 1);
    CHECK(contains(refused(stair_me, corrupt), "checksum does not match (corrupt)"));

    // fmi2SerializeFMUstate into a byte vector of another size than fmi2SerializedFMUstateSize said.
    const std::unique_ptr<Fmi2Instance> i = stair_me.instance();
    initialize(*i);
    fmi2::FMUstate state = nullptr;
    i->call(FmiCall::kGetFMUState, [&] { return i->f().get_fmu_state(i->component(), &state); });
    std::vector<fmi2::Byte> small(bytes.size() - 1);
    const std::string wrong = run_error([&] {
      i->call(FmiCall::kSerializeFMUState,
              [&] { return i->f().serialize_fmu_state(i->component(), state, small.data(), small.size()); });
    });
    CHECK(contains(wrong, "a byte vector of " + std::to_string(small.size()) +
                              " bytes; the serialized state has " + std::to_string(bytes.size())));
    // In the error state the copy is still freed (both standards allow it).
    CHECK(i->mode() == FmiMode::kError);
    i->call(FmiCall::kFreeFMUState, [&] { return i->f().free_fmu_state(i->component(), &state); });
    CHECK(state == nullptr);
  }
}

TEST_CASE("a test FMU whose description does not declare the capability refuses the FMU-state functions") {
  SUBCASE("neither flag: every function refused") {
    const Direct d("dahlquist", true, false);
    const std::unique_ptr<Fmi2Instance> i = d.instance();
    fmi2::FMUstate state = nullptr;
    CHECK(contains(
        run_error([&] {
          i->call(FmiCall::kGetFMUState, [&] { return i->f().get_fmu_state(i->component(), &state); });
        }),
        "fmi2GetFMUstate: the model description's <ModelExchange> does not declare canGetAndSetFMUstate"));
  }
  SUBCASE("canGetAndSetFMUstate without canSerializeFMUstate: get and set, no serialization") {
    const Direct d("ball_get_set", true, false);
    const std::unique_ptr<Fmi2Instance> i = d.instance();
    initialize(*i);
    fmi2::FMUstate state = nullptr;
    i->call(FmiCall::kGetFMUState, [&] { return i->f().get_fmu_state(i->component(), &state); });
    i->call(FmiCall::kSetFMUState, [&] { return i->f().set_fmu_state(i->component(), state); });
    std::size_t size = 0;
    CHECK(contains(run_error([&] {
                     i->call(FmiCall::kSerializedFMUStateSize,
                             [&] { return i->f().serialized_fmu_state_size(i->component(), state, &size); });
                   }),
                   "fmi2SerializedFMUstateSize: the model description's <ModelExchange> does not declare "
                   "canSerializeFMUstate"));
    i->call(FmiCall::kFreeFMUState, [&] { return i->f().free_fmu_state(i->component(), &state); });
  }
  SUBCASE("FMI 3 spells them canGetAndSetFMUState") {
    const Direct d("stair3", false, true);
    const std::unique_ptr<Fmi2Instance> i = d.instance();
    fmi2::FMUstate state = nullptr;
    CHECK(contains(
        run_error([&] {
          i->call(FmiCall::kGetFMUState, [&] { return i->f().get_fmu_state(i->component(), &state); });
        }),
        "fmi3GetFMUState returned fmi3Error: fmi3GetFMUState: the model description's <CoSimulation> "
        "does not declare canGetAndSetFMUState"));
  }
}

TEST_CASE("the FMU-state functions are allowed in every mode of a live instance, and Free after an error") {
  for (const FmiKind kind :
       {FmiKind{false, true}, FmiKind{false, false}, FmiKind{true, true}, FmiKind{true, false}}) {
    CAPTURE(kind.fmi3);
    CAPTURE(kind.model_exchange);
    const std::vector<FmiMode> live =
        kind.model_exchange
            ? std::vector<FmiMode>{FmiMode::kInstantiated, FmiMode::kInitialization, FmiMode::kEvent,
                                   FmiMode::kContinuousTime, FmiMode::kTerminated}
            : std::vector<FmiMode>{FmiMode::kInstantiated, FmiMode::kInitialization, FmiMode::kStep,
                                   FmiMode::kTerminated};
    for (const FmiCall call :
         {FmiCall::kGetFMUState, FmiCall::kSetFMUState, FmiCall::kFreeFMUState,
          FmiCall::kSerializedFMUStateSize, FmiCall::kSerializeFMUState, FmiCall::kDeserializeFMUState}) {
      CAPTURE(fmi2_name(call));
      for (const FmiMode mode : live) {
        CHECK(allowed(call, mode, kind));
        CHECK(next_mode(call, mode, kind) == mode);  // ctde sets a state taken in the mode it is in
      }
      CHECK(allowed(call, FmiMode::kError, kind) == (call == FmiCall::kFreeFMUState));
    }
  }
}

TEST_CASE("the model description reads the FMU-state flags per interface in each version's spelling") {
  const ModelDescription two = parse_model_description(
      R"(<fmiModelDescription fmiVersion="2.0" modelName="m" guid="g">
           <ModelExchange modelIdentifier="m" canGetAndSetFMUstate="true" canSerializeFMUstate="true"/>
           <CoSimulation modelIdentifier="m" canGetAndSetFMUstate="true"/>
           <ModelVariables/><ModelStructure/></fmiModelDescription>)",
      "FMU 'm.fmu'");
  CHECK(two.model_exchange->can_get_and_set_fmu_state);
  CHECK(two.model_exchange->can_serialize_fmu_state);
  CHECK(two.co_simulation->can_get_and_set_fmu_state);
  CHECK_FALSE(two.co_simulation->can_serialize_fmu_state);
  const ModelDescription three = parse_model_description(
      R"(<fmiModelDescription fmiVersion="3.0" modelName="m" instantiationToken="g">
           <ModelExchange modelIdentifier="m" canGetAndSetFMUState="true" canSerializeFMUState="true"/>
           <CoSimulation modelIdentifier="m" canGetAndSetFMUstate="true" canSerializeFMUstate="true"/>
           <ModelVariables/><ModelStructure/></fmiModelDescription>)",
      "FMU 'm.fmu'");
  CHECK(three.model_exchange->can_get_and_set_fmu_state);
  CHECK(three.model_exchange->can_serialize_fmu_state);
  // FMI 2.0's spelling in an FMI 3.0 description is no capability.
  CHECK_FALSE(three.co_simulation->can_get_and_set_fmu_state);
  CHECK_FALSE(three.co_simulation->can_serialize_fmu_state);
}

TEST_CASE(
    "an FMU actor that cannot save its FMU state throws a SnapshotError naming it and the missing flag") {
  const auto message = [](const std::string& name, const std::string& params) {
    Model model = test::load(fmu_model(name, params, R"("stop_time": 1)", ""));
    const FlatModel flat = validate(model);
    const std::unique_ptr<ActorState> state = flat.actors.front().actor->make_state();
    StateWriter out;
    try {
      state->save(out);
    } catch (const SnapshotError& e) {
      return std::string(e.what());
    }
    return std::string("no SnapshotError");
  };
  CHECK(message("ball_get_set", "") ==
        "actor 'a' (FMU): its FMU cannot save its state (modelDescription has no canSerializeFMUstate), so "
        "this "
        "run cannot be snapshotted");
  CHECK(message("dahlquist", "") ==
        "actor 'a' (FMU): its FMU cannot save its state (modelDescription has no canGetAndSetFMUstate and no "
        "canSerializeFMUstate), so this run cannot be snapshotted");
  CHECK(message("stair3", R"("interface": "co-simulation", "communication_step": 0.1)") ==
        "actor 'a' (FMU): its FMU cannot save its state (modelDescription has no canGetAndSetFMUState and no "
        "canSerializeFMUState), so this run cannot be snapshotted");
}

TEST_CASE("a run asked for a snapshot with an FMU that cannot save its state ends naming the actor and why") {
  const Written written =
      run_written([&] { return test::load(fmu_model("dahlquist", "", R"("stop_time": 1)", R"("a.x")")); },
                  [](Director& d) { d.snapshot_at(0.5, [](const RunSnapshot&) {}); });
  CHECK(written.result.status == RunStatus::kError);
  CHECK(contains(written.result.message,
                 "actor 'a' (FMU): its FMU cannot save its state (modelDescription has "
                 "no canGetAndSetFMUstate and no canSerializeFMUstate)"));
}

TEST_CASE(
    "a run with an FMU resumed from a snapshot continues exactly: Model Exchange and Co-Simulation, FMI 2 "
    "and 3") {
  const auto model = [](const std::string& name, const std::string& params, const std::string& record) {
    return [=] {
      return test::load(fmu_model(name, params, R"("stop_time": 2, "output_interval": 0.05)", record));
    };
  };
  for (const char* name : {"ball_state", "ball_state3"}) {
    CAPTURE(name);
    // The impact at 0.4515 s, after a snapshot at 0.3 s; one at 1 s, between impacts.
    for (const double at : {0.3, 1.0}) {
      CAPTURE(at);
      check_resumes_exactly(model(name, "", R"("a.h", "a.v")"), at);
    }
  }
  for (const char* name : {"stair_state", "stair_state3"}) {
    CAPTURE(name);
    // Model Exchange: time events at 0.1 k (the snapshot at one, 1.0 s, and between two);
    // Co-Simulation: communication points at 0.1 k.
    for (const double at : {1.0, 1.05}) {
      CAPTURE(at);
      check_resumes_exactly(model(name, "", R"("a.count", "a.level")"), at);
      check_resumes_exactly(model(name, R"("interface": "co-simulation", "communication_step": 0.1)",
                                  R"("a.count", "a.level")"),
                            at);
    }
  }
}
