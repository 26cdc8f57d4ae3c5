namespace CoarseTimers.Benchmarks;

/// <summary><c>--quick</c>: every scenario in brief; <c>--anatomy</c>: nanoseconds per piece; <c>--spin</c>: the spin scenarios alone; <c>--pending</c>: the pending-timer lines alone; <c>--schedule-cancel [operations]</c>: the schedule+cancel lines alone; otherwise the full-size scenarios. Run with <c>mono</c>.</summary>
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
            // The schedule+cancel lines alone (with COARSETIMERS_BENCH_ONLY, one of them), in a process nothing else ran
            // in; operations per round as the quick run's unless given (the full scenarios' 1,000,000).
            var operations = args.Length > 1 ? int.Parse(args[1], System.Globalization.CultureInfo.InvariantCulture) : 200_000;
            Scenarios.ScheduleCancel(1, operations);
            Scenarios.ScheduleCancel(8, operations);
            return;
        }

        if (args.Length > 0 && args[0] == "--pending")
        {
            Scenarios.Pending();
            return;
        }

        if (args.Length > 0 && args[0] == "--spin")
        {
            Scenarios.SpinScenarios(quick: true);
            return;
        }

        Scenarios.Run(quick: args.Length > 0 && args[0] == "--quick");
    }
}
