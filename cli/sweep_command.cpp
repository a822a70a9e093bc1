#include "cli/sweep_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include "cli/model_path.hpp"
#include "cli/plugins.hpp"
#include "results/hdf5_file.hpp"
#include "results/write_error.hpp"
#include "run/command_error.hpp"
#include "run/interrupt.hpp"
#include "run/output_file.hpp"
#include "sweep/mpi_pool.hpp"
#include "sweep/sweep_run.hpp"
#include "sweep/worker_pool.hpp"

namespace ctde::cli {

namespace {

using Clock = std::chrono::steady_clock;

bool is_hdf5_path(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  return extension == ".h5" || extension == ".hdf5";
}

bool ended_well(const std::string& status) { return status == "ok" || status == "stopped"; }

/// The file, the progress line and the counts, on the writing process.
class SweepWriter {
 public:
  SweepWriter(const SweepRequest& request, const sweep::SweepModel& model)
      : file_(NamedPath{"-o", request.output}, OutputFile::Writer::kHelper),
        total_(model.spec.run_count()),
        progress_(!request.quiet && isatty(request.progress_fd) != 0),
        fd_(request.progress_fd),
        started_(Clock::now()),
        last_draw_(started_) {
    try {
      hdf5_.emplace(file_.write_path());
      hdf5_->set_text("model", model.text);
      hdf5_->set_text("sweep", model.spec.text);
      hdf5_->set_text("model_file", model.path);
    } catch (const results::WriteError& e) {
      throw CommandError(kExitUsage, e.what());
    }
    summary_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(total_, 1U << 20U)));
  }

  void add(results::RunRecord&& record) {
    if (!ended_well(record.status)) ++failed_;
    try {
      hdf5_->write_run("/runs/" + std::to_string(record.index), record);
    } catch (const results::WriteError& e) {
      throw CommandError(kExitRunFailed, e.what());
    }
    summary_.push_back(results::summary_row(record));
    draw(false);
  }

  /// Writes the summary, closes and renames the file.
  void finish(const std::vector<std::string>& names) {
    draw(true);
    std::sort(summary_.begin(), summary_.end(),
              [](const auto& a, const auto& b) { return a.index < b.index; });
    try {
      hdf5_->write_summary(names, summary_);
      hdf5_->close();
    } catch (const results::WriteError& e) {
      throw CommandError(kExitRunFailed, e.what());
    }
    file_.commit();
  }

  [[nodiscard]] std::uint64_t done() const { return summary_.size(); }
  [[nodiscard]] std::uint64_t failed() const { return failed_; }
  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(Clock::now() - started_).count();
  }

 private:
  void draw(bool last) {
    if (!progress_) return;
    const auto now = Clock::now();
    if (!last && now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    std::string text = "\r";
    if (last) {
      text += std::string(60, ' ') + "\r";
    } else {
      const double elapsed = seconds();
      const auto n = static_cast<double>(done());
      const double eta = n > 0 ? elapsed / n * static_cast<double>(total_ - done()) : -1.0;
      text += format_sweep_progress(done(), total_, failed_, eta);
    }
    (void)!::write(fd_, text.data(), text.size());
  }

  OutputFile file_;
  std::optional<results::Hdf5File> hdf5_;
  std::uint64_t total_;
  std::uint64_t failed_ = 0;
  std::vector<results::SummaryRow> summary_;
  bool progress_;
  int fd_;
  Clock::time_point started_;
  Clock::time_point last_draw_;
};

}  // namespace

std::string format_sweep_progress(std::uint64_t done, std::uint64_t total, std::uint64_t failed, double eta) {
  std::string eta_text = "--:--:--";
  if (eta >= 0 && std::isfinite(eta)) {
    const auto s = static_cast<unsigned long long>(std::llround(eta));
    std::array<char, 32> buffer{};
    std::snprintf(buffer.data(), buffer.size(), "%llu:%02llu:%02llu", s / 3600, s / 60 % 60, s % 60);
    eta_text = buffer.data();
  }
  return "runs " + std::to_string(done) + "/" + std::to_string(total) + "  failed " + std::to_string(failed) +
         "  ETA " + eta_text;
}

int sweep_command(const SweepRequest& request) {
  if (!is_hdf5_path(request.output)) {
    throw CommandError(kExitUsage,
                       "-o '" + request.output + "': a sweep is written to an HDF5 file (.h5 or .hdf5)");
  }
  std::optional<sweep::MpiSession> mpi;
  if (sweep::launched_by_mpi()) mpi.emplace();
  const bool writer_rank = !mpi || mpi->rank() == 0;
  check_paths({{"MODEL", request.model}, {"SWEEP", request.sweep}}, {{"-o", request.output}});
  const sweep::SweepModel model = sweep::check_sweep(request.model, request.sweep, command_actors(),
                                                     command_model_path(), request.filter);
  const std::uint64_t count = model.spec.run_count();
  const auto stop = [] { return interrupt_signal() != 0; };
  const auto run = [&model, &stop](std::uint64_t k) { return sweep::run_one(model, k, stop); };

  if (mpi && !writer_rank) {
    mpi->run(count, run, {});
    return mpi->share(kExitOk);
  }
  std::optional<SweepWriter> writer;
  try {
    writer.emplace(request, model);
    const auto record = [&writer](results::RunRecord&& r) { writer->add(std::move(r)); };
    if (mpi) {
      mpi->run(count, run, record);
    } else {
      const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
      sweep::run_local(count, request.jobs == 0 ? cores : request.jobs, run, record, stop);
    }
    writer->finish(model.spec.names());
  } catch (const CommandError& e) {
    if (!mpi) throw;
    std::cerr << "ctde: error: " << e.what() << "\n";  // the other ranks wait for rank 0: end them all
    mpi->abort(e.status());
  }
  int status = kExitOk;
  if (interrupt_signal() != 0) {
    status = interrupted_status(interrupt_signal());
  } else if (writer->failed() > 0) {
    status = kExitRunFailed;
  }
  if (!request.quiet || status != kExitOk) {
    std::cerr << "ctde: sweep: " << writer->done() << " of " << count << " runs, " << writer->failed()
              << " failed, " << writer->seconds() << " s, written to " << request.output << "\n";
  }
  return mpi ? mpi->share(status) : status;
}

}  // namespace ctde::cli
