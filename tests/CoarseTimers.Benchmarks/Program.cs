using BenchmarkDotNet.Running;

namespace CoarseTimers.Benchmarks;

/// <summary>
/// <c>--quick</c>: every scenario in brief, one line each (under 2 minutes). <c>--scenarios</c>: the same at full
/// size. <c>--anatomy</c>: nanoseconds per piece of an operation. <c>--spin</c>: the spin scenarios alone. Anything else goes to BenchmarkDotNet (e.g. <c>--filter *ScheduleCancel*</c>).
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
