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
/// "  ", the percentage (always 6), "  t = ", " / ", " s  ", " events/s".
constexpr std::size_t kFixedTextWidth = 2 + 6 + 6 + 3 + 4 + 9;
/// The widest rate short_rate() writes below 1e12/s ("999.9G").
constexpr std::size_t kRateWidth = 6;
/// Times shown in fixed point when the run's times are within these magnitudes.
constexpr double kSmallestFixedTime = 1e-9;
constexpr double kLargestFixedTime = 1e9;
/// The width of %.4g for any double but those with three-digit exponents.
constexpr std::size_t kGeneralTimeWidth = 10;

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

/// `text` right-aligned in `width` columns (not cut when longer).
std::string padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string fixed_point(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

/// How the simulated time is shown during one run: in fixed point with four
/// significant digits at the larger of the start and stop times, in a field
/// as wide as the wider of them (so that every time in between fits), or
/// else (huge, tiny or not finite times) as %.4g in a field of
/// kGeneralTimeWidth. Copyable value type.
struct TimeFormat {
  bool fixed = false;
  int decimals = 0;
  std::size_t width = kGeneralTimeWidth;
};

TimeFormat time_format(double start_time, double stop_time) {
  const double magnitude = std::max(std::fabs(start_time), std::fabs(stop_time));
  TimeFormat format;
  if (!std::isfinite(magnitude) || magnitude >= kLargestFixedTime ||
      (magnitude > 0 && magnitude < kSmallestFixedTime)) {
    return format;
  }
  format.fixed = true;
  format.decimals = magnitude > 0 ? std::max(0, 3 - static_cast<int>(std::floor(std::log10(magnitude)))) : 3;
  format.width = std::max(fixed_point(start_time, format.decimals).size(),
                          fixed_point(stop_time, format.decimals).size());
  return format;
}

std::string format_time(double time, const TimeFormat& format) {
  return format.fixed && std::isfinite(time) ? fixed_point(time, format.decimals) : short_number(time);
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

  // Every field has a width fixed for the run (the time's depends on the
  // start and stop times only), so the bar never changes length and the
  // text never shifts as the numbers grow.
  const TimeFormat format = time_format(start_time, stop_time);
  std::string text = "  ";
  text += percent;
  text += "  t = ";
  text += padded(format_time(time, format), format.width);
  text += " / ";
  text += short_number(stop_time);
  text += " s  ";
  text += padded(short_rate(events_per_second), kRateWidth);
  text += " events/s";

  // The text's width when every number fits its field (one out of range,
  // a NaN or an absurd rate, makes the line longer: its end is cut instead).
  const std::size_t text_width = kFixedTextWidth + format.width + short_number(stop_time).size() + kRateWidth;
  std::string line;
  if (width >= text_width + kMinBarColumns + 2) {
    const std::size_t columns = width - text_width - 2;
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

ProgressBar::ProgressBar(int fd, double start_time, double stop_time, bool enabled, Now now)
    : fd_(fd),
      now_(now),
      start_time_(start_time),
      stop_time_(stop_time),
      active_(enabled && isatty(fd) == 1),
      started_(now_()),
      last_draw_(started_) {
  if (active_) width_ = terminal_width(fd);
}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(double time, const RunStatistics& stats) {
  if (!active_) return;
  const Clock::time_point now = now_();
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
