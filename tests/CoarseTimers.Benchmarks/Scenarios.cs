using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace CoarseTimers.Benchmarks;

/// <summary>
/// The quick mode and the measurements that do not fit BenchmarkDotNet's model (memory held by pending timers,
/// lateness percentiles, CPU time per wait). Each line is ours against the BCL API it replaces, measured in the same
/// process, interleaved, best of <see cref="Rounds"/> rounds per side (the machine is shared: the best round is the one
/// least disturbed). The same source runs on .NET 10 and, compiled for net472, on Mono (CoarseTimers.Benchmarks.Mono),
/// whose timers share one global scheduler lock as .NET Framework's do.
/// Method: wall time from Stopwatch; memory from GC.GetTotalMemory(forceFullCollection: true); allocations from
/// GC.GetTotalAllocatedBytes(precise: true) on .NET (Mono has no allocation counter: bytes print as n/a there);
/// CPU from Process.TotalProcessorTime.
/// </summary>
internal static class Scenarios
{
    private const int Rounds = 7;
    private static readonly TimeSpan s_never = TimeSpan.FromMinutes(10);
    private static readonly System.Collections.Generic.HashSet<string> s_warmed = new();

    public static void Run(bool quick)
    {
        Console.WriteLine($"# CoarseTimers {(quick ? "quick" : "full")} scenarios on {RuntimeName()}, {Environment.ProcessorCount} cores, load average {LoadAverage()}");
        foreach (var threads in new[] { 1, 8 })
        {
            ScheduleCancel(threads, quick ? 200_000 : 1_000_000);
        }

        Pending(quick);
        foreach (var ms in new[] { 1, 15, 100 })
        {
            Lateness(ms, quick ? 100 : 400);
        }

        SpinScenarios(quick);
        Console.WriteLine($"# done, load average {LoadAverage()}");
    }

    /// <summary>The pending-timer lines: 10^5 and 10^6 created then disposed (on one thread, and split over 8), and fired.</summary>
    internal static void Pending(bool quick = true)
    {
        foreach (var count in new[] { 100_000, 1_000_000 })
        {
            PendingCreateDispose(count, threads: 1);
            PendingCreateDispose(count, threads: 8);
        }

        PendingFire(100_000);
        if (!quick || Type.GetType("Mono.Runtime") is null)
        {
            // 10^6 fired takes ~3 s a side on .NET; on Mono its own timers take over a minute for it, so the quick
            // run leaves it to the full scenarios there.
            PendingFire(1_000_000);
        }
    }

    /// <summary>Every public replacement, schedule then cancel or dispose (a timeout that never fires): ops/s and bytes/op.</summary>
    internal static void ScheduleCancel(int threads, int operations)
    {
        void Line(string name, Action bcl, Action ours)
        {
            if (Measured(name, bcl, ours) is not var (bclBest, ourBest))
            {
                return;
            }

            Console.WriteLine($"schedule+cancel {name,-16} threads={threads,2}: BCL {bclBest.Rate / 1e6,6:0.00} M ops/s {Bytes(bclBest.Bytes),5} B/op | ours {ourBest.Rate / 1e6,6:0.00} M ops/s {Bytes(ourBest.Bytes),5} B/op | throughput x{ourBest.Rate / bclBest.Rate:0.00}, bytes x{BytesRatio(ourBest.Bytes, bclBest.Bytes)}");
        }

        // The least any replacement of the BCL call must do, measured the same way: the ceiling of the ratio a target asks for.
        void Floor(string name, string floorShape, Action bcl, Action floor)
        {
            if (Measured("floor " + name, bcl, floor) is not var (bclBest, floorBest))
            {
                return;
            }

            Console.WriteLine($"floor {name,-16} threads={threads,2}: BCL {bclBest.Rate / 1e6,6:0.00} M ops/s {Bytes(bclBest.Bytes),5} B/op | {floorShape} {floorBest.Rate / 1e6,6:0.00} M ops/s {Bytes(floorBest.Bytes),5} B/op | the best a replacement can do: throughput x{floorBest.Rate / bclBest.Rate:0.00}, bytes x{BytesRatio(floorBest.Bytes, bclBest.Bytes)}");
        }

        ((double Rate, double Bytes) Bcl, (double Rate, double Bytes) Ours)? Measured(string name, Action bcl, Action ours)
        {
            // COARSETIMERS_BENCH_ONLY=TimeoutSource,Timer runs those lines alone (profiling one operation).
            var only = Environment.GetEnvironmentVariable("COARSETIMERS_BENCH_ONLY");
            if (!string.IsNullOrEmpty(only) && Array.IndexOf(only!.Split(','), name) < 0)
            {
                return null;
            }

            if (s_warmed.Add(name))
            {
                WarmUp(bcl);
                WarmUp(ours);
            }

            var bclBest = (Rate: 0.0, Bytes: 0.0);
            var ourBest = (Rate: 0.0, Bytes: 0.0);
            for (var round = 0; round < Rounds; round++)
            {
                var b = Throughput(threads, operations, bcl);
                var o = Throughput(threads, operations, ours);
                bclBest = b.OpsPerSecond > bclBest.Rate ? (b.OpsPerSecond, b.BytesPerOp) : bclBest;
                ourBest = o.OpsPerSecond > ourBest.Rate ? (o.OpsPerSecond, o.BytesPerOp) : ourBest;
            }

            return (bclBest, ourBest);
        }

        static string BytesRatio(double ours, double bcl) => double.IsNaN(ours) ? "n/a" : (ours / Math.Max(bcl, 1)).ToString("0.00");

        using var outer = new CancellationTokenSource();
        var outerToken = outer.Token;
        TimerCallback noop = static _ => { };
        void BclDelay()
        {
            using var cts = new CancellationTokenSource();
            _ = Task.Delay(s_never, cts.Token);
            cts.Cancel();
        }

        Line("Delay", BclDelay, () =>
        {
            using var cts = new CancellationTokenSource();
            _ = CoarseTimer.Delay(s_never, cts.Token);
            cts.Cancel();
        });

        // Any delay must hand out a task that the token's cancellation completes: a promise task and a registration,
        // with no timer at all. What that costs bounds the Delay line's ratio (issue 11's 2x and 0.75x-bytes targets).
        Floor("Delay", "a task cancelled by the token, no timer:", BclDelay, () =>
        {
            using var cts = new CancellationTokenSource();
            var promise = new TaskCompletionSource<bool>();
#if NET
            cts.Token.UnsafeRegister(static state => ((TaskCompletionSource<bool>)state!).TrySetCanceled(), promise);
#else
            cts.Token.Register(static state => ((TaskCompletionSource<bool>)state!).TrySetCanceled(), promise);
#endif
            cts.Cancel();
        });
        Line("TimeoutSource", () => new CancellationTokenSource(s_never).Dispose(), () => new CoarseCancellationTokenSource(s_never).Dispose());
        Line("LinkedCancelAfter", () =>
        {
            using var linked = CancellationTokenSource.CreateLinkedTokenSource(outerToken, default);
            linked.CancelAfter(s_never);
        }, () =>
        {
            using var linked = CoarseCancellationTokenSource.CreateLinkedTokenSource(outerToken);
            linked.CancelAfter(s_never);
        });
        // A replacement that hands out a linked source must still link it to the outer token: the BCL's linked source
        // with no timeout at all bounds the LinkedCancelAfter line's ratio.
        Floor("LinkedCancelAfter", "a linked source, no timeout:", () =>
        {
            using var linked = CancellationTokenSource.CreateLinkedTokenSource(outerToken, default);
            linked.CancelAfter(s_never);
        }, () =>
        {
            using var linked = CancellationTokenSource.CreateLinkedTokenSource(outerToken, default);
        });
        Line("LinkedTimeout", () =>
        {
            using var linked = CancellationTokenSource.CreateLinkedTokenSource(outerToken, default);
            linked.CancelAfter(s_never);
        }, () =>
        {
            using var linked = CoarseTimeout.CreateLinkedTokenSource(outerToken, s_never);
        });
        Line("TimeoutToken", () =>
        {
            using var cts = new CancellationTokenSource(s_never);
            _ = cts.Token;
        }, () => _ = CoarseTimeout.After(s_never));
        Line("Timer", () => new Timer(noop, null, s_never, Timeout.InfiniteTimeSpan).Dispose(), () => new CoarseTimer(noop, null, s_never, Timeout.InfiniteTimeSpan).Dispose());
    }

    /// <summary>
    /// Runs <paramref name="operation"/> until the JIT has settled, before anything is timed. The BCL's side is
    /// precompiled (ReadyToRun) and fast from its first call; ours starts as tier-0 code and reaches optimized code
    /// only after call counting, a 100 ms tiering delay and a background compile (several hundred ms on a loaded
    /// machine). Without this the first rounds time our unoptimized code against the BCL's precompiled code
    /// (docs/benchmarks.md, "Warm-up"). BenchmarkDotNet's warm-up does the same.
    /// </summary>
    internal static void WarmUp(Action operation)
    {
        for (var pass = 0; pass < 2; pass++)
        {
            var watch = Stopwatch.StartNew();
            while (watch.ElapsedMilliseconds < 300)
            {
                for (var i = 0; i < 1_000; i++)
                {
                    operation();
                }
            }

            // Lets the tiering thread install the optimized code for the calls counted above.
            Thread.Sleep(150);
        }
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
        var bytes = AllocatedBytes();
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
        return (total / watch.Elapsed.TotalSeconds, (AllocatedBytes() - bytes) / total);
    }

    /// <summary>
    /// N pending timers created, then all disposed (the pathology of a global timer list): time, bytes held each and the
    /// collections it took. The floor is one object per timer holding what any timer must (callback, state, due time)
    /// and no timer at all: what allocating and holding N of them costs, collections included.
    /// </summary>
    private static void PendingCreateDispose(int count, int threads)
    {
        using var workers = threads > 1 ? new WorkerThreads(threads) : null;

        // Runs body(i) for every i in [0, count): on this thread, or split evenly over the worker threads at once.
        void ForAll(Action<int> body)
        {
            if (workers is null)
            {
                for (var i = 0; i < count; i++)
                {
                    body(i);
                }

                return;
            }

            var perThread = count / threads;
            workers.Run(thread =>
            {
                for (var i = thread * perThread; i < (thread + 1) * perThread; i++)
                {
                    body(i);
                }
            });
        }

        (double Milliseconds, double BytesEach, int Gen0, int Gen1) Measure(Func<TimerCallback, TimeSpan, IDisposable> create)
        {
            var timers = new IDisposable[count];
            TimerCallback callback = static _ => { };
            var best = (Milliseconds: double.MaxValue, BytesEach: 0.0, Gen0: 0, Gen1: 0);
            for (var round = 0; round < 2; round++)
            {
                var before = GC.GetTotalMemory(forceFullCollection: true);
                var gen0 = GC.CollectionCount(0);
                var gen1 = GC.CollectionCount(1);
                var watch = Stopwatch.StartNew();
                ForAll(i => timers[i] = create(callback, s_never + TimeSpan.FromMilliseconds(i % 1000)));
                var created = watch.Elapsed.TotalMilliseconds;
                var collections = (Gen0: GC.CollectionCount(0) - gen0, Gen1: GC.CollectionCount(1) - gen1);
                var held = (GC.GetTotalMemory(forceFullCollection: true) - before) / (double)count;
                watch.Restart();
                ForAll(i =>
                {
                    timers[i].Dispose();
                    timers[i] = null!;
                });
                var total = created + watch.Elapsed.TotalMilliseconds;
                best = total < best.Milliseconds ? (total, held, collections.Gen0, collections.Gen1) : best;
            }

            return best;
        }

        var bcl = Measure((cb, due) => new Timer(cb, null, due, Timeout.InfiniteTimeSpan));
        var ours = Measure((cb, due) => new CoarseTimer(cb, null, due, Timeout.InfiniteTimeSpan));
        var floor = Measure((cb, due) => new PendingFloor(cb, null, due));
        var shape = Measure((cb, due) => new PendingShape(cb, null, due));
        var name = threads == 1 ? "created then disposed" : $"created then disposed, threads={threads,2}";
        Console.WriteLine($"pending {count,9:N0} timers {name}: BCL {bcl.Milliseconds,6:0} ms, {bcl.BytesEach:0} B held each | ours {ours.Milliseconds,6:0} ms, {ours.BytesEach:0} B held each | time x{ours.Milliseconds / bcl.Milliseconds:0.00} (speed-up x{bcl.Milliseconds / ours.Milliseconds:0.00}), bytes x{ours.BytesEach / bcl.BytesEach:0.00} | " +
                          $"collections gen0/gen1 while creating: BCL {bcl.Gen0}/{bcl.Gen1}, ours {ours.Gen0}/{ours.Gen1} | floor (one {floor.BytesEach:0} B object each, no timer) {floor.Milliseconds:0} ms, {floor.Gen0}/{floor.Gen1} | " +
                          $"our shape, no timer ({shape.BytesEach:0} B in one object) {shape.Milliseconds:0} ms, x{shape.Milliseconds / bcl.Milliseconds:0.00}, {shape.Gen0}/{shape.Gen1}");
    }

    /// <summary>What any pending timer must hold, with no timer: the floor of <see cref="PendingCreateDispose"/>.</summary>
    private sealed class PendingFloor : IDisposable
    {
        private readonly TimerCallback _callback;
        private readonly object? _state;
        private long _dueTicks;

        public PendingFloor(TimerCallback callback, object? state, TimeSpan due)
        {
            _callback = callback;
            _state = state;
            _dueTicks = due.Ticks;
        }

        public void Dispose() => _dueTicks = 0;
    }

    /// <summary>
    /// The bytes a pending <see cref="CoarseTimer"/> holds on .NET 10, in the same one object (104 B: the timer is its own
    /// wheel entry), with no timer logic: what allocating and holding our shape costs, collections included, so the part
    /// of our pending time that is shape and the part that is scheduling can be told apart.
    /// </summary>
#pragma warning disable CS0169, CS0414 // fields that only give the object our size
    private sealed class PendingShape : IDisposable
    {
        private readonly TimerCallback _callback;
        private readonly object? _state;
        private readonly object? _shard;
        private readonly object? _previous;
        private readonly object? _next;
        private readonly object? _executionContext;
        private readonly object? _periodic;
        private readonly object? _disposeWaiter;
        private long _dueTicks;
        private readonly long _generationAndSlot;
        private readonly long _flags;

        public PendingShape(TimerCallback callback, object? state, TimeSpan due)
        {
            _callback = callback;
            _state = state;
            _dueTicks = due.Ticks;
        }

        public void Dispose() => _dueTicks = 0;
    }
#pragma warning restore CS0169, CS0414

    /// <summary>
    /// N pending timers due between 1 and 2 s: time until every one has fired, from the first schedule, and the CPU the
    /// process spent meanwhile (scheduling, the timer thread or driver, dispatching the callbacks). The time is bounded
    /// below by the last due time for both sides (a coarse timer fires up to a resolution later, never earlier), so where
    /// the BCL keeps up the CPU is what tells the two apart.
    /// </summary>
    private static void PendingFire(int count)
    {
        (double Milliseconds, double CpuMilliseconds) Measure(Func<TimerCallback, TimeSpan, IDisposable> create)
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
            GC.Collect();
            var cpu = CpuMilliseconds();
            var watch = Stopwatch.StartNew();
            for (var i = 0; i < count; i++)
            {
                // Spread over a second, so that they do not all expire in one tick.
                timers[i] = create(callback, TimeSpan.FromMilliseconds(1000 + (i % 1000)));
            }

            all.Wait(TimeSpan.FromMinutes(2));
            var fireAllMs = watch.Elapsed.TotalMilliseconds;
            var cpuMs = CpuMilliseconds() - cpu;
            foreach (var timer in timers)
            {
                timer.Dispose();
            }

            return (fireAllMs, cpuMs);
        }

        var bcl = Measure((cb, due) => new Timer(cb, null, due, Timeout.InfiniteTimeSpan));
        var ours = Measure((cb, due) => new CoarseTimer(cb, null, due, Timeout.InfiniteTimeSpan));
        Console.WriteLine($"pending {count,9:N0} timers due in 1-2 s, all fired at: BCL {bcl.Milliseconds,6:0} ms | ours {ours.Milliseconds,6:0} ms | time x{ours.Milliseconds / bcl.Milliseconds:0.00} | " +
                          $"CPU meanwhile: BCL {bcl.CpuMilliseconds:0} ms, ours {ours.CpuMilliseconds:0} ms, x{ours.CpuMilliseconds / bcl.CpuMilliseconds:0.00}");
    }

    /// <summary>How late a delay completes (negative would be early).</summary>
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
                tasks[i] = delay(delayMs).ContinueWith(_ => lateness[index] = Milliseconds(Stopwatch.GetTimestamp() - start) - delayMs, TaskContinuationOptions.ExecuteSynchronously);
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
            $"median {Percentile(l, 0.5),6:0.00} p99 {Percentile(l, 0.99),6:0.00} max {l[l.Length - 1],6:0.00} min {l[0],6:0.00} ms";

        var bcl = Sample(delayMs, samples, ms => Task.Delay(ms));
        var ours = Sample(delayMs, samples, ms => CoarseTimer.Delay(ms));
        Console.WriteLine($"lateness {delayMs,3} ms delay: BCL {Describe(bcl)} | ours {Describe(ours)} | early: BCL {bcl.Count(x => x < 0)}, ours {ours.Count(x => x < 0)}");
    }

    /// <summary>The spin-then-block waiter against SpinWait.SpinUntil: overshoot and CPU per wait.</summary>
    public static void SpinScenarios(bool quick)
    {
        var waits = quick ? 200 : 400;
        foreach (var (name, afterMicroseconds) in new[] { ("2 ms", 2_000.0), ("5 us", 5.0) })
        {
            var bcl = SpinSample(afterMicroseconds, waits, (c, t) => SpinWait.SpinUntil(c, t));
            var ours = SpinSample(afterMicroseconds, waits, (c, t) => SpinThenBlock.SpinUntil(c, t));
            Console.WriteLine($"spin until true after {name}: SpinWait overshoot median {bcl.Median:0.000} p99 {bcl.P99:0.000} ms, CPU {bcl.CpuMsPerWait:0.000} ms/wait | " +
                              $"SpinThenBlock median {ours.Median:0.000} p99 {ours.P99:0.000} ms, CPU {ours.CpuMsPerWait:0.000} ms/wait | CPU x{ours.CpuMsPerWait / Math.Max(bcl.CpuMsPerWait, 1e-6):0.00}");
        }

        // Floor: what any waiter that blocks must pay, one timed wait of an event for the wait's whole length (the
        // blocked phase's primitive), no spin and no estimate. CPU per wait against SpinWait's, in the same run.
        var gate = new AutoResetEvent(initialState: false);
        var spinWaitCpu = SpinSample(2_000.0, waits, (c, t) => SpinWait.SpinUntil(c, t)).CpuMsPerWait;
        var floor = SpinSample(2_000.0, waits, (c, t) =>
        {
            gate.WaitOne(2);
            while (!c())
            {
                gate.WaitOne(1);
            }

            return true;
        });
        Console.WriteLine($"floor spin until true after 2 ms: SpinWait CPU {spinWaitCpu:0.000} ms/wait | one timed event wait, no spin: median {floor.Median:0.000} p99 {floor.P99:0.000} ms, CPU {floor.CpuMsPerWait:0.000} ms/wait | the least a blocking waiter pays: CPU x{floor.CpuMsPerWait / Math.Max(spinWaitCpu, 1e-6):0.00}");

        var bcl64 = Concurrent(64, quick ? 5 : 20, (c, t) => SpinWait.SpinUntil(c, t));
        var ours64 = Concurrent(64, quick ? 5 : 20, (c, t) => SpinThenBlock.SpinUntil(c, t));
        Console.WriteLine($"64 concurrent waiters, 2 ms each: SpinWait wall {bcl64.WallMs:0} ms CPU {bcl64.CpuMs:0} ms | SpinThenBlock wall {ours64.WallMs:0} ms CPU {ours64.CpuMs:0} ms | CPU x{ours64.CpuMs / Math.Max(bcl64.CpuMs, 1e-6):0.00}");
    }

    private static (double Median, double P99, double CpuMsPerWait) SpinSample(double afterMicroseconds, int waits, Func<Func<bool>, TimeSpan, bool> spin)
    {
        var overshoot = new double[waits];
        for (var i = 0; i < 50; i++)
        {
            // Warm-up: compiles the path and teaches the first block the wait's length before CPU is counted.
            var warm = Stopwatch.GetTimestamp() + (long)(afterMicroseconds * Stopwatch.Frequency / 1_000_000);
            spin(() => Stopwatch.GetTimestamp() >= warm, TimeSpan.FromSeconds(10));
        }

        Thread.Sleep(200); // lets background tier-1 compilation of the warm-up finish outside the count
        var cpuBefore = CpuMilliseconds();
        for (var i = 0; i < waits; i++)
        {
            var start = Stopwatch.GetTimestamp();
            var readyAt = start + (long)(afterMicroseconds * Stopwatch.Frequency / 1_000_000);
            spin(() => Stopwatch.GetTimestamp() >= readyAt, TimeSpan.FromSeconds(10));
            overshoot[i] = Milliseconds(Stopwatch.GetTimestamp() - readyAt);
        }

        var cpuMs = CpuMilliseconds() - cpuBefore;
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

    // CPU of every live thread of the process but the JIT's background tier-up thread, which compiles this benchmark's own
    // lambdas (it was most of both sides' figure before it was left out). On Linux from /proc/self/task/*/schedstat
    // (nanoseconds: Process.TotalProcessorTime counts 10 ms clock ticks, too coarse for tens of microseconds per wait);
    // elsewhere Process.TotalProcessorTime.
    private static double CpuMilliseconds()
    {
        if (Directory.Exists("/proc/self/task"))
        {
            long nanoseconds = 0;
            foreach (var task in Directory.GetDirectories("/proc/self/task"))
            {
                try
                {
                    if (File.ReadAllText(Path.Combine(task, "comm")).StartsWith(".NET Tiered", StringComparison.Ordinal))
                    {
                        continue;
                    }

                    nanoseconds += long.Parse(File.ReadAllText(Path.Combine(task, "schedstat")).Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture);
                }
                catch (IOException)
                {
                    // The thread exited meanwhile.
                }
            }

            return nanoseconds / 1e6;
        }

        using var process = Process.GetCurrentProcess();
        return process.TotalProcessorTime.TotalMilliseconds;
    }

    private static double Milliseconds(long stopwatchUnits) => stopwatchUnits * 1000.0 / Stopwatch.Frequency;

    private static double Percentile(double[] sorted, double p) => sorted[Math.Min(sorted.Length - 1, (int)Math.Ceiling(p * sorted.Length) - 1)];

    private static string Bytes(double bytes) => double.IsNaN(bytes) ? "n/a" : bytes.ToString("0");

#if NETFRAMEWORK
    // Mono implements no allocation counter reachable from net472 code.
    private static double AllocatedBytes() => double.NaN;

    private static string RuntimeName() =>
        Type.GetType("Mono.Runtime")?.GetMethod("GetDisplayName", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static)?.Invoke(null, null) is string mono
            ? "Mono " + mono + " (net472 host, netstandard2.0 CoarseTimers)"
            : ".NET Framework " + Environment.Version;
#else
    private static double AllocatedBytes() => GC.GetTotalAllocatedBytes(precise: true);

    private static string RuntimeName() => System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription + " (net8.0 CoarseTimers)";
#endif

    private static string LoadAverage() => File.Exists("/proc/loadavg") ? string.Join(" ", File.ReadAllText("/proc/loadavg").Split(' ').Take(3)) : "n/a";
}
