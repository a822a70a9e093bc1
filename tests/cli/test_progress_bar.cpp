// The progress bar of `ctde run`: its line, and when it draws.
#include <doctest/doctest.h>

#include "cli/progress_bar.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using ctde::cli::format_progress;
using ctde::cli::ProgressBar;

/// What arrived on `fd` within `wait_ms` (and whatever follows at once).
std::string drain(int fd, int wait_ms) {
  std::string text;
  pollfd p{fd, POLLIN, 0};
  while (poll(&p, 1, text.empty() ? wait_ms : 20) > 0) {
    char buffer[512];
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

/// The bars' clock in these tests: it moves only when a test moves it, so
/// what is drawn never depends on how busy the machine is.
ProgressBar::Clock::time_point fake_time;
ProgressBar::Clock::time_point fake_now() { return fake_time; }

void advance(std::chrono::milliseconds by) { fake_time += by; }
void wait_for_redraw() { advance(ProgressBar::kRedrawInterval); }

/// A pseudo-terminal: the bar draws on `terminal`, the test reads `controller`.
struct PseudoTerminal {
  int controller = -1;
  int terminal = -1;
  PseudoTerminal() {
    controller = posix_openpt(O_RDWR | O_NOCTTY);
    REQUIRE(controller >= 0);
    REQUIRE(grantpt(controller) == 0);
    REQUIRE(unlockpt(controller) == 0);
    terminal = open(ptsname(controller), O_RDWR | O_NOCTTY);
    REQUIRE(terminal >= 0);
  }
  ~PseudoTerminal() {
    close(terminal);
    close(controller);
  }
  PseudoTerminal(const PseudoTerminal&) = delete;
  PseudoTerminal& operator=(const PseudoTerminal&) = delete;
};

}  // namespace

TEST_CASE("format_progress shows a bar, the percentage, the times and the event rate in exactly the width") {
  CHECK(format_progress(5, 10, 1234, 60) == "[########.......]   50.0%  t =  5.00 / 10 s    1.2k events/s");
  CHECK(format_progress(0, 10, 0, 60) == "[...............]    0.0%  t =  0.00 / 10 s       0 events/s");
  for (const std::size_t width : {40u, 60u, 79u, 200u}) {
    CHECK(format_progress(2.5, 10, 10, width).size() == width);
  }
}

TEST_CASE("format_progress keeps the bar's length and every field's column for the whole run") {
  // The bar used to take what the text left, so it shrank and grew as the
  // numbers' widths changed ("9.99" to "10", "999" to "1.2k"): it went backwards.
  struct Run {
    double start;
    double stop;
  };
  for (const Run run : {Run{0, 10}, Run{0, 200}, Run{0, 0.5}, Run{-5, 5}, Run{0, 1e6}, Run{0, 1e12}}) {
    CAPTURE(run.stop);
    const std::string first = format_progress(run.start, run.stop, 0, 79, run.start);
    const auto bar_end = first.find(']');
    const auto slash = first.find(" / ");
    const auto unit = first.find(" events/s");
    REQUIRE(bar_end != std::string::npos);
    const double span = run.stop - run.start;
    for (const double part : {0.0, 1.7e-6, 1e-4, 0.001, 0.0999, 0.1, 0.5, 0.999, 1.0}) {
      for (const double rate : {0.0, 7.0, 999.0, 1234.0, 99999.0, 2.5e6, 3e9}) {
        CAPTURE(part);
        CAPTURE(rate);
        const std::string line = format_progress(run.start + part * span, run.stop, rate, 79, run.start);
        CHECK(line.size() == 79);
        CHECK(line.find(']') == bar_end);
        CHECK(line.find(" / ") == slash);
        CHECK(line.find(" events/s") == unit);
      }
    }
  }
  CHECK(format_progress(54.83, 200, 53100, 79).find("t =  54.8 / 200 s   53.1k events/s") !=
        std::string::npos);
  CHECK(format_progress(0.25, 0.5, 0, 79).find("t = 0.2500 / 0.5 s") != std::string::npos);
  CHECK(format_progress(-2.5, 5, 0, 79, -5).find("t = -2.500 / 5 s") != std::string::npos);
}

TEST_CASE("format_progress measures from the start time and clamps to 0..100 %") {
  CHECK(format_progress(3, 4, 0, 60, 2).find(" 50.0%") != std::string::npos);
  const std::string done = format_progress(12, 10, 0, 60);
  CHECK(done.find("100.0%") != std::string::npos);
  CHECK(done.find('.') > done.find(']'));  // a full bar
  CHECK(format_progress(-1, 10, 0, 60).find("  0.0%") != std::string::npos);
  CHECK(format_progress(1, 1, 0, 60, 1).find("  0.0%") != std::string::npos);  // an empty interval
  CHECK(format_progress(NAN, 10, 0, 60).find("  0.0%") != std::string::npos);
}

TEST_CASE("format_progress writes rates short and drops the bar when the line is narrow") {
  CHECK(format_progress(1, 10, 999, 60).find(" 999 events/s") != std::string::npos);
  CHECK(format_progress(1, 10, 2.5e6, 60).find(" 2.5M events/s") != std::string::npos);
  CHECK(format_progress(1, 10, -5, 60).find(" 0 events/s") != std::string::npos);
  CHECK(format_progress(1, 10, INFINITY, 60).find(" 0 events/s") != std::string::npos);
  CHECK(format_progress(1234.5678, 1e6, 0, 60).find("t =    1235 / 1e+06 s") != std::string::npos);
  CHECK(format_progress(5, 10, 1234, 20) == "   50.0%  t =  5.00 ");
  CHECK(format_progress(5, 10, 1234, 0).empty());
}

TEST_CASE("ProgressBar writes nothing when its descriptor is not a terminal") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  {
    ProgressBar bar(fileno(file), 0, 10, true, fake_now);
    CHECK_FALSE(bar.active());
    wait_for_redraw();
    ctde::RunStatistics stats;
    stats.events = 10;
    bar.update(5, stats);
    bar.finish();
  }
  CHECK(std::fseek(file, 0, SEEK_END) == 0);
  CHECK(std::ftell(file) == 0);
  std::fclose(file);
}

TEST_CASE("ProgressBar writes nothing on a terminal when disabled (--quiet)") {
  PseudoTerminal pty;
  ProgressBar bar(pty.terminal, 0, 10, false, fake_now);
  CHECK_FALSE(bar.active());
  wait_for_redraw();
  bar.update(5, {});
  bar.finish();
  CHECK(drain(pty.controller, 0).empty());
}

TEST_CASE("ProgressBar on a terminal redraws at most every kRedrawInterval and clears the line at the end") {
  PseudoTerminal pty;
  ProgressBar bar(pty.terminal, 0, 10, true, fake_now);
  REQUIRE(bar.active());
  advance(ProgressBar::kRedrawInterval - std::chrono::milliseconds(1));
  bar.update(1, {});  // 1 ms too early: nothing (a write to the terminal would be there at once)
  CHECK(drain(pty.controller, 0).empty());

  advance(std::chrono::milliseconds(1));  // kRedrawInterval since the start
  ctde::RunStatistics stats;
  stats.events = 50;
  bar.update(5, stats);
  const std::string drawn = drain(pty.controller, 200);
  REQUIRE_FALSE(drawn.empty());
  CHECK(drawn.front() == '\r');
  CHECK(std::count(drawn.begin(), drawn.end(), '\r') == 1);  // one draw: none at the early update
  CHECK(drawn.find(" 50.0%  t =  5.00 / 10 s") != std::string::npos);
  CHECK(drawn.find(" 500 events/s") != std::string::npos);  // 50 events in 0.1 s of its clock
  CHECK(drawn.find('\n') == std::string::npos);             // one line, redrawn in place

  advance(ProgressBar::kRedrawInterval - std::chrono::milliseconds(1));
  bar.update(6, stats);  // within the interval: not drawn
  CHECK(drain(pty.controller, 0).empty());

  bar.finish();
  const std::string cleared = drain(pty.controller, 200);
  std::string blank(drawn.size() + 1, ' ');  // the line's width of spaces between two returns
  blank.front() = '\r';
  blank.back() = '\r';
  CHECK(cleared == blank);
  wait_for_redraw();
  bar.update(7, stats);  // finished: never again
  CHECK(drain(pty.controller, 0).empty());
}
