#include "core/width_inference.hpp"

#include <deque>

#include "core/error.hpp"
#include "core/port_offsets.hpp"
#include "core/prefetch.hpp"

namespace ctde {

namespace {

class WidthInference {
 public:
  explicit WidthInference(FlatModel& model)
      : model_(model),
        offsets_(model),
        queued_(model.actors.size(), 0),
        inferred_input_(model.ports.input_widths.size(), 0) {}

  void run() {
    for (std::uint32_t i = 0; i < model_.actors.size(); ++i) {
      ahead(i);
      FlatActor& actor = model_.actors[i];
      const auto& inputs = actor.actor->inputs();
      const auto& outputs = actor.actor->outputs();
      for (std::size_t p = 0; p < inputs.size(); ++p) {
        actor.input_widths[p] = inputs[p].width;
        if (inputs[p].width == kInferredWidth) {
          inferred_input_[offsets_.input({FlatIndex{i}, static_cast<std::uint32_t>(p)})] = 1;
        }
      }
      for (std::size_t o = 0; o < outputs.size(); ++o) actor.output_widths[o] = outputs[o].width;
    }
    for (std::uint32_t i = 0; i < model_.actors.size(); ++i) {
      publish(i);
      enqueue(i);
    }
    drain();
    // Loops of inferred widths with no source of width: default to 1.
    for (std::uint32_t i = 0; i < model_.actors.size(); ++i) {
      for (auto& width : model_.actors[i].output_widths) {
        if (width != kInferredWidth) continue;
        width = 1;
        publish(i);
        drain();
      }
    }
    for (auto& actor : model_.actors) {  // optional inputs left unconnected
      for (std::size_t p = 0; p < actor.drivers.size(); ++p) {
        if (!actor.drivers[p] && actor.input_widths[p] == kInferredWidth) actor.input_widths[p] = 1;
      }
    }
    for (std::uint32_t i = 0; i < model_.actors.size(); ++i) {
      ahead(i);
      check(i);
    }
  }

 private:
  /// In a pass in the actors' order, before actor i: asks for the actor object kPrefetchAhead places on.
  void ahead(std::size_t i) const {
    if (i + kPrefetchAhead < model_.actors.size()) prefetch_object(model_.actors[i + kPrefetchAhead].actor);
  }

  void enqueue(std::uint32_t i) {
    if (queued_[i] != 0) return;
    queued_[i] = 1;
    work_.push_back(i);
  }

  void drain() {
    while (!work_.empty()) {
      const std::uint32_t i = work_.front();
      work_.pop_front();
      queued_[i] = 0;
      FlatActor& actor = model_.actors[i];
      bool changed = false;
      for (std::size_t o = 0; o < actor.output_widths.size(); ++o) {
        if (actor.actor->outputs()[o].width != kInferredWidth) continue;
        const int width = actor.actor->infer_output_width(o, actor.input_widths);
        if (width != kInferredWidth && width != actor.output_widths[o]) {
          actor.output_widths[o] = width;
          changed = true;
        }
      }
      if (changed) publish(i);
    }
  }

  /// Pushes actor i's known output widths into the inferred inputs they
  /// drive (each reached through the compact offsets, not its FlatActor).
  void publish(std::uint32_t i) {
    const FlatActor& actor = model_.actors[i];
    std::vector<int>& input_widths = model_.ports.input_widths;
    for (std::size_t o = 0; o < actor.receivers.size(); ++o) {
      const int width = actor.output_widths[o];
      if (width == kInferredWidth) continue;
      for (const PortRef& r : actor.receivers[o]) {
        const std::size_t in = offsets_.input(r);
        if (inferred_input_[in] == 0 || input_widths[in] == width) continue;
        input_widths[in] = width;
        enqueue(r.actor.value());
      }
    }
  }

  void check(std::uint32_t i) const {
    const FlatActor& actor = model_.actors[i];
    for (std::size_t p = 0; p < actor.drivers.size(); ++p) {
      if (!actor.drivers[p]) continue;
      const PortRef& from = *actor.drivers[p];
      const int out = model_.ports.output_widths[offsets_.output(from)];
      const int in = actor.input_widths[p];
      if (out != in) {
        const FlatActor& driver = model_[from.actor];
        throw ModelError("width mismatch: output '" + driver.path + "." +
                         driver.actor->outputs()[from.port].name + "' has width " + std::to_string(out) +
                         " but input '" + actor.path + "." + actor.actor->inputs()[p].name + "' has width " +
                         std::to_string(in))
            .located(std::string(actor.driver_locations[p]));
      }
    }
    try {
      actor.actor->check_widths(actor.input_widths, actor.output_widths);
    } catch (const ModelError& e) {
      throw e.located(actor.actor->location());
    }
    actor.actor->widths_resolved(actor.input_widths, actor.output_widths);
  }

  FlatModel& model_;
  PortOffsets offsets_;
  std::vector<char> queued_;
  std::vector<char> inferred_input_;  ///< per input of the port arrays: its declared width is inferred
  std::deque<std::uint32_t> work_;
};

}  // namespace

void infer_widths(FlatModel& model) { WidthInference(model).run(); }

}  // namespace ctde
