#pragma once
/// The fast paths: code that computes what a general path of ctde computes,
/// faster for a measured target, each checked against the general path by an
/// equivalence test (the table is in docs/performance.md, "Fast paths").
/// Setting CTDE_FAST_PATHS=off in the environment switches every one of them
/// off for the process, so that only the general paths run: the test command
/// runs the conformance suite so, and a suspected fast-path bug is one run
/// away from being confirmed or ruled out.

namespace ctde {

/// False when the environment variable CTDE_FAST_PATHS is "off" when first
/// asked (read once per process), true otherwise.
[[nodiscard]] bool fast_paths_enabled();

}  // namespace ctde
