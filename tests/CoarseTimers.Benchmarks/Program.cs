using BenchmarkDotNet.Running;

namespace CoarseTimers.Benchmarks;

/// <summary>
/// <c>--quick</c>: every scenario in brief, one line each (under 2 minutes). <c>--scenarios</c>: the same at full
/// size. <c>--anatomy</c>: nanoseconds per piece of an operation. <c>--spin</c>: the spin scenarios alone. <c>--pending</c>: the pending-timer lines alone. <c>--schedule-cancel</c>: the schedule+cancel lines alone (<c>COARSETIMERS_BENCH_ONLY=TimeoutSource,Timer</c> picks lines). Anything else goes to BenchmarkDotNet (e.g. <c>--filter *ScheduleCancel*</c>).
/// </summary>
internal static class Program
{
    private static void Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "--anatomy")
        {
            Anatomy.Run();
            return;
        }

        if (args.Length > 0 && args[0] == "--schedule-cancel")
        {
            // The schedule+cancel lines alone (with COARSETIMERS_BENCH_ONLY, one of them): a before/after of one operation.
            Scenarios.ScheduleCancel(1, 200_000);
            Scenarios.ScheduleCancel(8, 200_000);
            return;
        }

        if (args.Length > 0 && args[0] == "--pending")
        {
            // The pending-timer lines alone: a before/after of the engine's data structures.
            Scenarios.Pending();
            return;
        }

        if (args.Length > 0 && args[0] == "--spin")
        {
            Scenarios.SpinScenarios(quick: true);
            return;
        }

        if (args.Length > 0 && args[0] is "--quick" or "--scenarios")
        {
            Scenarios.Run(quick: args[0] == "--quick");
            return;
        }

        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
    }
}
