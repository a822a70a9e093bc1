// The test program's main, and a time limit per test case: a case that runs
// longer than CTDE_TEST_CASE_LIMIT seconds (default 600) ends the program
// with a message naming it, so that a planted or real hang fails at once and
// says where, instead of waiting out CI's whole budget. The limit is a hang
// guard, never a verdict on speed: the slowest case takes under 3 s in a
// release build.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

/// The limit in seconds: CTDE_TEST_CASE_LIMIT if it is a positive number, else 600.
double case_limit() {
  const char* text = std::getenv("CTDE_TEST_CASE_LIMIT");
  if (text == nullptr) return 600;
  char* end = nullptr;
  const double seconds = std::strtod(text, &end);
  return end != text && *end == '\0' && seconds > 0 ? seconds : 600;
}

/// A doctest listener that watches the running case from a thread of its
/// own. A process forked by a test has no watchdog (fork copies one thread).
class CaseWatchdog final : public doctest::IReporter {
 public:
  explicit CaseWatchdog(const doctest::ContextOptions& /*options*/) {}
  CaseWatchdog(const CaseWatchdog&) = delete;
  CaseWatchdog& operator=(const CaseWatchdog&) = delete;
  CaseWatchdog(CaseWatchdog&&) = delete;
  CaseWatchdog& operator=(CaseWatchdog&&) = delete;
  ~CaseWatchdog() override { stop(); }

  void test_run_start() override {
    limit_ = std::chrono::duration<double>(case_limit());
    // A tenth of the limit (at most a second), so a case is caught soon after
    // it runs over, even when the limit is shorter than a second.
    poll_ = std::min(std::chrono::duration<double>(1.0), limit_ / 10);
    watcher_ = std::thread([this] { watch(); });
  }
  void test_run_end(const doctest::TestRunStats& /*stats*/) override { stop(); }

  void test_case_start(const doctest::TestCaseData& data) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    name_ = data.m_name;
    file_ = data.m_file.c_str();
    line_ = data.m_line;
    started_ = Clock::now();
    running_ = true;
  }
  void test_case_reenter(const doctest::TestCaseData& /*data*/) override {}
  void test_case_end(const doctest::CurrentTestCaseStats& /*stats*/) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    running_ = false;
  }

  void report_query(const doctest::QueryData& /*data*/) override {}
  void test_case_exception(const doctest::TestCaseException& /*exception*/) override {}
  void subcase_start(const doctest::SubcaseSignature& /*signature*/) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData& /*data*/) override {}
  void log_message(const doctest::MessageData& /*data*/) override {}
  void test_case_skipped(const doctest::TestCaseData& /*data*/) override {}

 private:
  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!done_) {
      wakeup_.wait_for(lock, poll_);
      if (running_ && Clock::now() - started_ > limit_) {
        std::fprintf(stderr,
                     "test case \"%s\" (%s:%d) ran over the limit of %g s (CTDE_TEST_CASE_LIMIT): a hang?\n",
                     name_.c_str(), file_.c_str(), line_, limit_.count());
        std::fflush(stderr);
        std::_Exit(124);  // as GNU timeout's status: the case did not finish
      }
    }
  }

  void stop() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wakeup_.notify_all();
    if (watcher_.joinable()) watcher_.join();
  }

  std::mutex mutex_;
  std::condition_variable wakeup_;
  std::thread watcher_;
  std::chrono::duration<double> limit_{600};
  std::chrono::duration<double> poll_{1.0};
  std::string name_;
  std::string file_;
  int line_ = 0;
  Clock::time_point started_;
  bool running_ = false;
  bool done_ = false;
};

}  // namespace

REGISTER_LISTENER("case_watchdog", 1, CaseWatchdog);

// The case ctest's case_limit runs with a limit of 0.5 s (tests/CMakeLists.txt):
// it sleeps far longer, so the watchdog must end the program and name it.
// Skipped in every ordinary run; `--no-skip` runs it.
TEST_CASE("the watchdog ends a case that outlasts the limit" * doctest::skip()) {
  std::this_thread::sleep_for(std::chrono::seconds(30));
  FAIL("the watchdog did not end this case within 30 s");
}
