#include "cli/progress_bar.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>

namespace ctde::cli {

namespace {

constexpr std::size_t kMinBarColumns = 10;
constexpr std::size_t kDefaultWidth = 80;

/// A number in at most 4 significant digits ("4.523", "10", "1.2e+06").
std::string short_number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", value);
  return buffer;
}

/// "950", "12.3k", "4.5M" — a rate in 3 to 5 characters.
std::string short_rate(double rate) {
  if (!std::isfinite(rate) || rate < 0) rate = 0;
  char buffer[32];
  if (rate < 1e3) {
    std::snprintf(buffer, sizeof buffer, "%.0f", rate);
  } else if (rate < 1e6) {
    std::snprintf(buffer, sizeof buffer, "%.1fk", rate / 1e3);
  } else if (rate < 1e9) {
    std::snprintf(buffer, sizeof buffer, "%.1fM", rate / 1e6);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.1fG", rate / 1e9);
  }
  return buffer;
}

/// The width of the terminal on `fd` less one column (so that a full line
/// never wraps), or the default.
std::size_t terminal_width(int fd) {
  winsize size{};
  if (ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 1) return static_cast<std::size_t>(size.ws_col) - 1;
  return kDefaultWidth - 1;
}

}  // namespace

std::string format_progress(double time, double stop_time, double events_per_second, std::size_t width,
                            double start_time) {
  const double span = stop_time - start_time;
  double fraction = 0;
  if (std::isfinite(span) && span > 0 && std::isfinite(time)) {
    fraction = std::clamp((time - start_time) / span, 0.0, 1.0);
  }
  char percent[16];
  std::snprintf(percent, sizeof percent, "%5.1f%%", fraction * 100);

  std::string text = "  ";
  text += percent;
  text += "  t = ";
  text += short_number(time);
  text += " / ";
  text += short_number(stop_time);
  text += " s  ";
  text += short_rate(events_per_second);
  text += " events/s";

  std::string line;
  if (width >= text.size() + kMinBarColumns + 2) {
    const std::size_t columns = width - text.size() - 2;
    const auto filled = static_cast<std::size_t>(std::lround(fraction * static_cast<double>(columns)));
    line.push_back('[');
    line.append(filled, '#');
    line.append(columns - filled, '.');
    line += ']';
  }
  line += text;
  line.resize(width, ' ');  // cuts a line that does not fit, pads a short one
  return line;
}

ProgressBar::ProgressBar(int fd, double start_time, double stop_time, bool enabled)
    : fd_(fd),
      start_time_(start_time),
      stop_time_(stop_time),
      active_(enabled && isatty(fd) == 1),
      started_(Clock::now()),
      last_draw_(started_) {
  if (active_) width_ = terminal_width(fd);
}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(double time, const RunStatistics& stats) {
  if (!active_) return;
  const Clock::time_point now = Clock::now();
  if (now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  const double wall = std::chrono::duration<double>(now - started_).count();
  const double rate = wall > 0 ? static_cast<double>(stats.events) / wall : 0.0;
  std::string text = "\r";
  text += format_progress(time, stop_time_, rate, width_, start_time_);
  write_text(text);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (active_ && drawn_) {
    std::string text = "\r";
    text.append(width_, ' ');
    text += '\r';
    write_text(text);
  }
  active_ = false;
  drawn_ = false;
}

void ProgressBar::write_text(const std::string& text) const {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a progress bar is not worth an error
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace ctde::cli
