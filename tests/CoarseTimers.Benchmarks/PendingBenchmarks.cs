using System;
using System.Threading;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;

namespace CoarseTimers.Benchmarks;

/// <summary>
/// Scenario 2: pending scale. N timers due in 10 minutes (spread over a second of due times) are all created, then all
/// disposed, split evenly over the threads; time and bytes are per invocation (all N timers). Most of the cost is the collections that copy
/// the live timers out of the young generation while they pend, so the timers are held in an array the benchmark
/// allocates once (docs/benchmarks.md, section 2; the quick scenarios also print the bytes held and a floor).
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory, BenchmarkLogicalGroupRule.ByParams)]
[CategoriesColumn]
[InProcess]
[WarmupCount(1)]
[IterationCount(5)]
public class PendingBenchmarks
{
    private static readonly TimeSpan s_never = TimeSpan.FromMinutes(10);
    private static readonly TimerCallback s_noop = static _ => { };
    private IDisposable[] _timers = Array.Empty<IDisposable>();
    private WorkerThreads? _workers;

    [Params(100_000, 1_000_000)]
    public int Pending { get; set; }

    [Params(1, 8)]
    public int Threads { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _timers = new IDisposable[Pending];
        _workers = new WorkerThreads(Threads);
    }

    [GlobalCleanup]
    public void Cleanup() => _workers!.Dispose();

    [Benchmark(Baseline = true), BenchmarkCategory("Pending")]
    public void Bcl_Timer_create_all_then_dispose_all() => CreateThenDispose(static (i) => new Timer(s_noop, null, s_never + TimeSpan.FromMilliseconds(i % 1000), Timeout.InfiniteTimeSpan));

    [Benchmark, BenchmarkCategory("Pending")]
    public void Coarse_Timer_create_all_then_dispose_all() => CreateThenDispose(static (i) => new CoarseTimer(s_noop, null, s_never + TimeSpan.FromMilliseconds(i % 1000), Timeout.InfiniteTimeSpan));

    private void CreateThenDispose(Func<int, IDisposable> create)
    {
        var timers = _timers;
        var perThread = timers.Length / Threads;
        _workers!.Run(thread =>
        {
            for (var i = thread * perThread; i < (thread + 1) * perThread; i++)
            {
                timers[i] = create(i);
            }
        });
        _workers.Run(thread =>
        {
            for (var i = thread * perThread; i < (thread + 1) * perThread; i++)
            {
                timers[i].Dispose();
                timers[i] = null!;
            }
        });
    }
}
