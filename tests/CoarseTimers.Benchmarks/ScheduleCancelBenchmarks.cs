using System;
using System.Threading;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;

namespace CoarseTimers.Benchmarks;

/// <summary>
/// Scenario 1: a timeout that never fires, scheduled then cancelled, as a server does per request. BCL against
/// CoarseTimers for every public replacement, at 1 and 8 threads on this 2-core machine (8 oversubscribes it, which is
/// where lock convoys show). Time is per operation (one schedule plus
/// one cancel) across all threads; MemoryDiagnoser counts bytes allocated on every thread.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory, BenchmarkLogicalGroupRule.ByParams)]
[CategoriesColumn]
// In-process: no per-benchmark build (a build on a loaded 2-core machine can exceed BenchmarkDotNet's build timeout).
[InProcess]
[WarmupCount(2)]
[IterationCount(5)]
public class ScheduleCancelBenchmarks
{
    /// <summary>Operations per invocation, split evenly over the threads, so BenchmarkDotNet reports time and bytes per operation.</summary>
    public const int Operations = 32_000;
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(30);
    private static readonly TimerCallback s_noop = static _ => { };
    private static readonly CancellationTokenSource s_outer = new();
    private WorkerThreads? _workers;

    [Params(1, 8)]
    public int Threads { get; set; }

    [GlobalSetup]
    public void Setup() => _workers = new WorkerThreads(Threads);

    [GlobalCleanup]
    public void Cleanup() => _workers!.Dispose();

    [Benchmark(Baseline = true, OperationsPerInvoke = Operations), BenchmarkCategory("Delay")]
    public void Bcl_TaskDelay_cancel() => Run(static () =>
    {
        using var cts = new CancellationTokenSource();
        var delay = Task.Delay(s_timeout, cts.Token);
        cts.Cancel();
        _ = delay.Status;
    });

    [Benchmark(OperationsPerInvoke = Operations), BenchmarkCategory("Delay")]
    public void Coarse_Delay_cancel() => Run(static () =>
    {
        using var cts = new CancellationTokenSource();
        var delay = CoarseTimer.Delay(s_timeout, cts.Token);
        cts.Cancel();
        _ = delay.Status;
    });

    [Benchmark(Baseline = true, OperationsPerInvoke = Operations), BenchmarkCategory("TimeoutSource")]
    public void Bcl_TimeoutSource_dispose() => Run(static () =>
    {
        using var cts = new CancellationTokenSource(s_timeout);
    });

    [Benchmark(OperationsPerInvoke = Operations), BenchmarkCategory("TimeoutSource")]
    public void Coarse_TimeoutSource_dispose() => Run(static () =>
    {
        using var cts = new CoarseCancellationTokenSource(s_timeout);
    });

    [Benchmark(Baseline = true, OperationsPerInvoke = Operations), BenchmarkCategory("LinkedCancelAfter")]
    public void Bcl_Linked_CancelAfter_dispose() => Run(static () =>
    {
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(s_outer.Token);
        linked.CancelAfter(s_timeout);
    });

    [Benchmark(OperationsPerInvoke = Operations), BenchmarkCategory("LinkedCancelAfter")]
    public void Coarse_Linked_CancelAfter_dispose() => Run(static () =>
    {
        using var linked = CoarseCancellationTokenSource.CreateLinkedTokenSource(s_outer.Token);
        linked.CancelAfter(s_timeout);
    });

    [Benchmark(Baseline = true, OperationsPerInvoke = Operations), BenchmarkCategory("LinkedTimeout")]
    public void Bcl_Linked_timeout_dispose() => Run(static () =>
    {
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(s_outer.Token);
        linked.CancelAfter(s_timeout);
    });

    [Benchmark(OperationsPerInvoke = Operations), BenchmarkCategory("LinkedTimeout")]
    public void Coarse_LinkedTimeout_dispose() => Run(static () =>
    {
        using var linked = CoarseTimeout.CreateLinkedTokenSource(s_outer.Token, s_timeout);
    });

    [Benchmark(Baseline = true, OperationsPerInvoke = Operations), BenchmarkCategory("TimeoutToken")]
    public void Bcl_TimeoutSource_token_dispose() => Run(static () =>
    {
        using var cts = new CancellationTokenSource(s_timeout);
        _ = cts.Token;
    });

    [Benchmark(OperationsPerInvoke = Operations), BenchmarkCategory("TimeoutToken")]
    public void Coarse_TimeoutToken() => Run(static () => _ = CoarseTimeout.After(s_timeout));

    [Benchmark(Baseline = true, OperationsPerInvoke = Operations), BenchmarkCategory("Timer")]
    public void Bcl_Timer_dispose() => Run(static () =>
    {
        using var timer = new Timer(s_noop, null, s_timeout, Timeout.InfiniteTimeSpan);
    });

    [Benchmark(OperationsPerInvoke = Operations), BenchmarkCategory("Timer")]
    public void Coarse_Timer_dispose() => Run(static () =>
    {
        using var timer = new CoarseTimer(s_noop, null, s_timeout, Timeout.InfiniteTimeSpan);
    });

    private void Run(Action operation) => _workers!.Run(_ =>
    {
        for (var i = Operations / Threads; i > 0; i--)
        {
            operation();
        }
    });
}
