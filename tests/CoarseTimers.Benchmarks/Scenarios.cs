using System;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace CoarseTimers.Benchmarks;

/// <summary>
/// Scenarios 2–4 and the quick mode: measurements that do not fit BenchmarkDotNet's model (memory held by a million
/// pending timers, lateness percentiles, CPU time per wait). Each prints one line per scenario, ours against the BCL.
/// Method: Release build, one process, BCL and ours interleaved in the same run; wall time from Stopwatch; memory from
/// GC.GetTotalMemory(forceFullCollection: true); allocations from GC.GetTotalAllocatedBytes(precise: true); CPU from
/// Process.TotalProcessorTime.
/// </summary>
internal static class Scenarios
{
    private static readonly TimeSpan s_never = TimeSpan.FromMinutes(10);

    public static void Run(bool quick)
    {
        Console.WriteLine($"# CoarseTimers {(quick ? "quick" : "full")} scenarios, {Environment.ProcessorCount} cores, {Environment.Version}");
        foreach (var threads in quick ? new[] { 1, 8 } : new[] { 1, 2, 8, 32 })
        {
            ScheduleCancel(threads, quick ? 200_000 : 1_000_000);
        }

        Pending(quick ? 200_000 : 1_000_000);
        foreach (var ms in new[] { 1, 15, 100 })
        {
            Lateness(ms, quick ? 100 : 400);
        }

        SpinScenarios(quick);
    }

    /// <summary>Scenario 1 in brief: schedule then cancel, ops/s and bytes/op.</summary>
    private static void ScheduleCancel(int threads, int operations)
    {
        void Line(string name, Action bcl, Action ours)
        {
            var (bclRate, bclBytes) = Throughput(threads, operations, bcl);
            var (ourRate, ourBytes) = Throughput(threads, operations, ours);
            Console.WriteLine($"schedule+cancel {name,-14} threads={threads,2}: BCL {bclRate / 1e6,6:0.00} M ops/s {bclBytes,5:0} B/op | ours {ourRate / 1e6,6:0.00} M ops/s {ourBytes,5:0} B/op | throughput x{ourRate / bclRate:0.00}, bytes x{ourBytes / Math.Max(bclBytes, 1):0.00}");
        }

        TimerCallback noop = static _ => { };
        Line("Delay", () =>
        {
            using var cts = new CancellationTokenSource();
            _ = Task.Delay(s_never, cts.Token);
            cts.Cancel();
        }, () =>
        {
            using var cts = new CancellationTokenSource();
            _ = CoarseTimer.Delay(s_never, cts.Token);
            cts.Cancel();
        });
        Line("TimeoutSource", () => new CancellationTokenSource(s_never).Dispose(), () => new CoarseCancellationTokenSource(s_never).Dispose());
        Line("Timer", () => new Timer(noop, null, s_never, Timeout.InfiniteTimeSpan).Dispose(), () => new CoarseTimer(noop, null, s_never, Timeout.InfiniteTimeSpan).Dispose());
    }

    private static (double OpsPerSecond, double BytesPerOp) Throughput(int threads, int operations, Action operation)
    {
        using var workers = new WorkerThreads(threads);
        var perThread = operations / threads;
        workers.Run(_ =>
        {
            for (var i = 0; i < Math.Min(perThread, 10_000); i++)
            {
                operation();
            }
        });
        var bytes = GC.GetTotalAllocatedBytes(precise: true);
        var watch = Stopwatch.StartNew();
        workers.Run(_ =>
        {
            for (var i = 0; i < perThread; i++)
            {
                operation();
            }
        });
        watch.Stop();
        var total = (double)perThread * threads;
        return (total / watch.Elapsed.TotalSeconds, (GC.GetTotalAllocatedBytes(precise: true) - bytes) / total);
    }

    /// <summary>Scenario 2: N pending timers: bytes each, time to schedule them, time until all have fired.</summary>
    private static void Pending(int count)
    {
        (double BytesEach, double ScheduleMs, double FireAllMs) Measure(Func<TimerCallback, TimeSpan, IDisposable> create)
        {
            var fired = 0;
            using var all = new ManualResetEventSlim();
            TimerCallback callback = _ =>
            {
                if (Interlocked.Increment(ref fired) == count)
                {
                    all.Set();
                }
            };
            var timers = new IDisposable[count];
            var before = GC.GetTotalMemory(forceFullCollection: true);
            var watch = Stopwatch.StartNew();
            for (var i = 0; i < count; i++)
            {
                // Due between 1 and 2 s, spread so that they do not all expire in one tick.
                timers[i] = create(callback, TimeSpan.FromMilliseconds(1000 + (i % 1000)));
            }

            var scheduleMs = watch.Elapsed.TotalMilliseconds;
            var bytesEach = (GC.GetTotalMemory(forceFullCollection: true) - before) / (double)count;
            all.Wait(TimeSpan.FromMinutes(2));
            var fireAllMs = watch.Elapsed.TotalMilliseconds;
            foreach (var timer in timers)
            {
                timer.Dispose();
            }

            return (bytesEach, scheduleMs, fireAllMs);
        }

        var bcl = Measure((cb, due) => new Timer(cb, null, due, Timeout.InfiniteTimeSpan));
        var ours = Measure((cb, due) => new CoarseTimer(cb, null, due, Timeout.InfiniteTimeSpan));
        Console.WriteLine($"pending {count:N0} timers: BCL {bcl.BytesEach:0} B each, schedule {bcl.ScheduleMs:0} ms, all fired at {bcl.FireAllMs:0} ms | " +
                          $"ours {ours.BytesEach:0} B each, schedule {ours.ScheduleMs:0} ms, all fired at {ours.FireAllMs:0} ms | schedule time x{ours.ScheduleMs / bcl.ScheduleMs:0.00}, bytes x{ours.BytesEach / bcl.BytesEach:0.00}");
    }

    /// <summary>Scenario 3: how late a delay completes (negative would be early).</summary>
    private static void Lateness(int delayMs, int samples)
    {
        static double[] Sample(int delayMs, int samples, Func<int, Task> delay)
        {
            var lateness = new double[samples];
            var tasks = new Task[samples];
            for (var i = 0; i < samples; i++)
            {
                var index = i;
                var start = Stopwatch.GetTimestamp();
                tasks[i] = delay(delayMs).ContinueWith(_ => lateness[index] = Stopwatch.GetElapsedTime(start).TotalMilliseconds - delayMs, TaskContinuationOptions.ExecuteSynchronously);
                if (i % 16 == 15)
                {
                    Thread.Sleep(1);
                }
            }

            Task.WaitAll(tasks);
            Array.Sort(lateness);
            return lateness;
        }

        static string Describe(double[] l) =>
            $"median {Percentile(l, 0.5),6:0.00} p99 {Percentile(l, 0.99),6:0.00} max {l[^1],6:0.00} min {l[0],6:0.00} ms";

        var bcl = Sample(delayMs, samples, ms => Task.Delay(ms));
        var ours = Sample(delayMs, samples, ms => CoarseTimer.Delay(ms));
        Console.WriteLine($"lateness {delayMs,3} ms delay: BCL {Describe(bcl)} | ours {Describe(ours)} | early: BCL {bcl.Count(x => x < 0)}, ours {ours.Count(x => x < 0)}");
    }

    /// <summary>Scenario 4: the spin-then-block waiter against SpinWait.SpinUntil.</summary>
    private static void SpinScenarios(bool quick)
    {
        var waits = quick ? 100 : 400;
        foreach (var (name, afterMicroseconds) in new[] { ("2 ms", 2_000.0), ("5 us", 5.0) })
        {
            var bcl = SpinSample(afterMicroseconds, waits, (c, t) => SpinWait.SpinUntil(c, t));
            var ours = SpinSample(afterMicroseconds, waits, (c, t) => SpinThenBlock.SpinUntil(c, t));
            Console.WriteLine($"spin until true after {name}: SpinWait overshoot median {bcl.Median:0.000} p99 {bcl.P99:0.000} ms, CPU {bcl.CpuMsPerWait:0.000} ms/wait | " +
                              $"SpinThenBlock median {ours.Median:0.000} p99 {ours.P99:0.000} ms, CPU {ours.CpuMsPerWait:0.000} ms/wait | CPU x{ours.CpuMsPerWait / Math.Max(bcl.CpuMsPerWait, 1e-6):0.00}");
        }

        var bcl64 = Concurrent(64, quick ? 5 : 20, (c, t) => SpinWait.SpinUntil(c, t));
        var ours64 = Concurrent(64, quick ? 5 : 20, (c, t) => SpinThenBlock.SpinUntil(c, t));
        Console.WriteLine($"64 concurrent waiters, 2 ms each: SpinWait wall {bcl64.WallMs:0} ms CPU {bcl64.CpuMs:0} ms | SpinThenBlock wall {ours64.WallMs:0} ms CPU {ours64.CpuMs:0} ms | CPU x{ours64.CpuMs / Math.Max(bcl64.CpuMs, 1e-6):0.00}");
    }

    private static (double Median, double P99, double CpuMsPerWait) SpinSample(double afterMicroseconds, int waits, Func<Func<bool>, TimeSpan, bool> spin)
    {
        var overshoot = new double[waits];
        var process = Process.GetCurrentProcess();
        var cpuBefore = process.TotalProcessorTime;
        for (var i = 0; i < waits; i++)
        {
            var start = Stopwatch.GetTimestamp();
            var readyAt = start + (long)(afterMicroseconds * Stopwatch.Frequency / 1_000_000);
            spin(() => Stopwatch.GetTimestamp() >= readyAt, TimeSpan.FromSeconds(10));
            overshoot[i] = (Stopwatch.GetTimestamp() - readyAt) * 1000.0 / Stopwatch.Frequency;
        }

        process.Refresh();
        var cpuMs = (process.TotalProcessorTime - cpuBefore).TotalMilliseconds;
        Array.Sort(overshoot);
        return (Percentile(overshoot, 0.5), Percentile(overshoot, 0.99), cpuMs / waits);
    }

    private static (double WallMs, double CpuMs) Concurrent(int waiters, int rounds, Func<Func<bool>, TimeSpan, bool> spin)
    {
        var process = Process.GetCurrentProcess();
        var cpuBefore = process.TotalProcessorTime;
        var watch = Stopwatch.StartNew();
        var threads = Enumerable.Range(0, waiters).Select(_ => new Thread(() =>
        {
            for (var r = 0; r < rounds; r++)
            {
                var readyAt = Stopwatch.GetTimestamp() + 2 * Stopwatch.Frequency / 1000;
                spin(() => Stopwatch.GetTimestamp() >= readyAt, TimeSpan.FromSeconds(30));
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());
        process.Refresh();
        return (watch.Elapsed.TotalMilliseconds, (process.TotalProcessorTime - cpuBefore).TotalMilliseconds);
    }

    private static double Percentile(double[] sorted, double p) => sorted[Math.Min(sorted.Length - 1, (int)Math.Ceiling(p * sorted.Length) - 1)];
}
