import AllocationCounting
import Testing

#if DEBUG
/// Unoptimised builds box some generic calls across modules; real-time guarantees are for release
/// builds, which is how scripts/test and CI run the suite.
private let isOptimisedBuild = false
#else
private let isOptimisedBuild = true
#endif

extension Trait where Self == ConditionTrait {
    /// The one condition of every "renders without allocating" test: a release build (this module is
    /// compiled with the tests, so it sees their configuration), with the allocation counter not
    /// disabled by a sanitizer.
    public static var allocationCounting: ConditionTrait {
        .enabled(
            if: isOptimisedBuild && !AllocationCounter.isDisabledBySanitizer,
            "allocation-free rendering is a release-build guarantee, counted without a sanitizer (scripts/test runs in release)"
        )
    }
}
