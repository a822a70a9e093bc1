// Linearization (Director::linearize, docs/semantics.md "Linearization"):
// A, B, C, D of the continuous side where the run stands, by central
// differences over each state and each input element, the outputs
// evaluated as the run evaluates them (algebraic loops solved), the
// discrete values held; the eigenvalues of A from LAPACK.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/error.hpp"
#include "core/format.hpp"
#include "domains/ctde/director_impl.hpp"

// LAPACK's eigenvalues of a general matrix (Debian's liblapack; the
// trailing lengths are gfortran's hidden lengths of the two CHARACTER arguments).
// NOLINTNEXTLINE(readability-identifier-naming): LAPACK's name
extern "C" void dgeev_(const char* jobvl, const char* jobvr, const int* n, double* a, const int* lda,
                       double* wr, double* wi, double* vl, const int* ldvl, double* vr, const int* ldvr,
                       double* work, const int* lwork, int* info, std::size_t jobvl_length,
                       std::size_t jobvr_length);

namespace ctde {

namespace {

/// The perturbation step of a value v: relative, at least absolute 1e-6.
double step_for(double v) { return 1e-6 * std::max(1.0, std::abs(v)); }

/// The eigenvalues of the n x n matrix `a` (row-major; A and its transpose
/// have the same), sorted by real part, then imaginary part.
std::vector<std::complex<double>> eigenvalues_of(std::vector<double> a, std::size_t n) {
  if (n == 0) return {};
  const int size = static_cast<int>(n);
  std::vector<double> re(n);
  std::vector<double> im(n);
  const int one = 1;
  int lwork = -1;
  int info = 0;
  double query = 0;
  dgeev_("N", "N", &size, a.data(), &size, re.data(), im.data(), nullptr, &one, nullptr, &one, &query, &lwork,
         &info, 1, 1);
  lwork = std::max(1, static_cast<int>(query));
  std::vector<double> work(static_cast<std::size_t>(lwork));
  dgeev_("N", "N", &size, a.data(), &size, re.data(), im.data(), nullptr, &one, nullptr, &one, work.data(),
         &lwork, &info, 1, 1);
  if (info != 0)
    throw std::runtime_error("the eigenvalues of A did not converge (LAPACK dgeev info " +
                             std::to_string(info) + ")");
  std::vector<std::complex<double>> values;
  for (std::size_t i = 0; i < n; ++i) values.emplace_back(re[i], im[i]);
  std::sort(values.begin(), values.end(), [](const auto& x, const auto& y) {
    return x.real() != y.real() ? x.real() < y.real() : x.imag() < y.imag();
  });
  return values;
}

/// "name" for an element of a width-1 slot, else "name[i]".
std::string element_name(const std::string& name, std::uint32_t width, std::uint32_t i) {
  return width == 1 ? name : concat({name, "[", std::to_string(i), "]"});
}

}  // namespace

Director::Linearization Director::Impl::linearize(const std::vector<std::string>& inputs,
                                                  const std::vector<std::string>& outputs) {
  if (!initialized_) initialize();
  continuous_.settle_ahead();  // the states where the run stands
  Linearization lin;
  const double t = resolution_.to_seconds(now_.time);
  lin.time = t;
  lin.states = state_names();
  const std::vector<Perturbed> u = perturbed_inputs(inputs, lin.inputs);
  const std::vector<SignalIndex> y = linearized_outputs(outputs, lin.outputs);
  const std::size_t n = b_.x_storage.size();
  const std::size_t m = u.size();
  const std::size_t p = y.size();
  const std::vector<double> x0 = b_.x_storage;
  const std::vector<double> signals = b_.signals;
  // f(x, du): the derivatives and the outputs with states x and the inputs moved by du.
  std::vector<double> du(m, 0.0);
  std::vector<double> plus(n + p);
  std::vector<double> minus(n + p);
  const auto f = [&](std::vector<double>& out) {
    evaluate_perturbed(t, signals, u, du, out.data());
    for (std::size_t i = 0; i < p; ++i) out[n + i] = b_.signals[y[i].index()];
    for (const double v : out) {
      if (!std::isfinite(v))
        throw std::runtime_error("linearization: a derivative or an output is not finite");
    }
  };
  lin.a.assign(n * n, 0.0);
  lin.b.assign(n * m, 0.0);
  lin.c.assign(p * n, 0.0);
  lin.d.assign(p * m, 0.0);
  // Column j of [A; C] by the state j, of [B; D] by the input j.
  const auto column = [&](double* v, double h, std::size_t j, std::vector<double>& ab, std::size_t cols_ab,
                          std::vector<double>& cd) {
    const double v0 = *v;
    *v = v0 + h;
    f(plus);
    *v = v0 - h;
    f(minus);
    *v = v0;
    for (std::size_t i = 0; i < n; ++i) ab[i * cols_ab + j] = (plus[i] - minus[i]) / (2 * h);
    for (std::size_t i = 0; i < p; ++i) cd[i * cols_ab + j] = (plus[n + i] - minus[n + i]) / (2 * h);
  };
  try {
    for (std::size_t j = 0; j < n; ++j) column(&b_.x_storage[j], step_for(x0[j]), j, lin.a, n, lin.c);
    for (std::size_t j = 0; j < m; ++j)
      column(&du[j], step_for(signals[u[j].signal.index()]), j, lin.b, m, lin.d);
  } catch (const Failure& failure) {
    b_.x_storage = x0;
    b_.signals = signals;
    throw std::runtime_error("linearization: " + failure.message);
  }
  b_.x_storage = x0;
  b_.signals = signals;
  lin.eigenvalues = eigenvalues_of(lin.a, n);
  return lin;
}

void Director::Impl::evaluate_perturbed(double t, const std::vector<double>& held,
                                        const std::vector<Perturbed>& u, const std::vector<double>& du,
                                        double* dx) {
  b_.signals = held;
  b_.x = b_.x_storage.data();
  const auto move = [&](ActorId driver) {
    for (std::size_t k = 0; k < u.size(); ++k) {
      if (u[k].driver == driver) b_.signals[u[k].signal.index()] += du[k];
    }
  };
  for (std::size_t k = 0; k < u.size(); ++k) {
    if (layout_.timed[u[k].driver.index()] == 0)
      b_.signals[u[k].signal.index()] += du[k];  // held: moved once
  }
  for (const ActorId d : layout_.continuous) {
    evaluate_actor(d, t);
    move(d);
  }
  for (const ActorId d : layout_.stateful) {
    const StateSlice slice = b_.actors[d.index()].states;
    const std::span<double> out(dx + slice.offset.index(), slice.width);
    const ReadContext context(b_, services_, d, now_, t);
    guarded(d, [&] { layout_.actors[d.index()]->derivatives(context, out); });
  }
}

std::vector<Director::Impl::Perturbed> Director::Impl::perturbed_inputs(
    const std::vector<std::string>& names, std::vector<std::string>& element_names) {
  std::vector<Perturbed> u;
  for (const std::string& name : names) {
    const auto [actor, port] = find_port(name, /*input=*/true, "linearize");
    const FlatActor& target = model_[actor];
    if (!target.drivers[port]) throw ModelError(concat({"linearize: input '", name, "' is not connected"}));
    const ActorId driver = model_[target.drivers[port]->actor].depth;
    if (!b_.loop_of.empty() && b_.loop_of[driver.index()] != 0) {
      throw ModelError(concat({"linearize: input '", name, "' is driven from inside the algebraic loop ",
                               model_.algebraic_loops[b_.loop_of[driver.index()] - 1].cycle,
                               " (choose an input outside the loop)"}));
    }
    const SignalSlice slice = b_.inputs[b_.actors[target.depth.index()].input(port).index()];
    for (std::uint32_t i = 0; i < slice.width; ++i) {
      u.push_back({driver, slice.at(i)});
      element_names.push_back(element_name(name, slice.width, i));
    }
  }
  return u;
}

std::vector<SignalIndex> Director::Impl::linearized_outputs(const std::vector<std::string>& names,
                                                            std::vector<std::string>& element_names) {
  std::vector<SignalIndex> y;
  for (const std::string& name : names) {
    const auto [actor, port] = find_port(name, /*input=*/false, "linearize");
    const FlatActor& source = model_[actor];
    if (source.output_kinds[port] == PortKind::kDiscrete) {
      throw ModelError(concat({"linearize: output '", name,
                               "' is discrete: its value is held, so its rows of C and D would be zero"}));
    }
    const SignalSlice slice = b_.outputs[b_.actors[source.depth.index()].output(port).index()];
    for (std::uint32_t i = 0; i < slice.width; ++i) {
      y.push_back(slice.at(i));
      element_names.push_back(element_name(name, slice.width, i));
    }
  }
  return y;
}

std::pair<FlatIndex, std::size_t> Director::Impl::find_port(const std::string& name, bool input,
                                                            std::string_view caller) const {
  const char* what = input ? "input" : "output";
  const std::size_t dot = name.rfind('.');
  const std::optional<FlatIndex> actor =
      dot == std::string::npos ? std::nullopt : model_.find(name.substr(0, dot));
  if (!actor) {
    throw ModelError(concat(
        {caller, ": no actor for ", what, " '", name, "' (name it as actor.port, the actor's full path)"}));
  }
  const Actor& a = *model_[*actor].actor;
  const auto port = input ? a.find_input(name.substr(dot + 1)) : a.find_output(name.substr(dot + 1));
  if (!port) {
    throw ModelError(concat(
        {caller, ": actor '", model_[*actor].path, "' has no ", what, " '", name.substr(dot + 1), "'"}));
  }
  return {*actor, *port};
}

}  // namespace ctde
