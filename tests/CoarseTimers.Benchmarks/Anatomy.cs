using System;
using System.Diagnostics;
using System.Threading;

namespace CoarseTimers.Benchmarks;

/// <summary>
/// <c>--anatomy</c>: single-threaded nanoseconds of the pieces every timer operation is made of (clock reads, a
/// division, a lock, a compare-exchange, an allocation, a finalizable allocation, an ExecutionContext capture, a token
/// registration), next to each whole operation, ours and the BCL's. docs/runtime.md, "Where the time and bytes go",
/// explains each operation from these figures. Best of 5 rounds; the same source runs on .NET and Mono.
/// </summary>
internal static class Anatomy
{
    private const int Iterations = 2_000_000;
    private static readonly TimeSpan s_never = TimeSpan.FromMinutes(10);
    private static readonly object s_lock = new();
    private static int s_flag;
    private static long s_sink;
    private static readonly long s_divisor = 10_000_000 + (Environment.ProcessorCount % 2);

    [ThreadStatic]
    private static int s_threadNumber;

    public static void Run()
    {
        using var outer = new CancellationTokenSource();
        var token = outer.Token;
        TimerCallback noop = static _ => { };
        Console.WriteLine("# anatomy: ns per piece, single thread, best of 5");
        Piece("Stopwatch.GetTimestamp()", () => s_sink += Stopwatch.GetTimestamp());
        Piece("Environment.TickCount", () => s_sink += Environment.TickCount);
        Piece("64-bit division by a variable", () => s_sink += (s_sink + 12345) / s_divisor);
        Piece("[ThreadStatic] read and write", () => s_sink += s_threadNumber++);
        Piece("lock (object) enter+exit, uncontended", () =>
        {
            lock (s_lock)
            {
                s_sink++;
            }
        });
        Piece("Interlocked.CompareExchange + Volatile.Write", () =>
        {
            Interlocked.CompareExchange(ref s_flag, 1, 0);
            Volatile.Write(ref s_flag, 0);
        });
        Piece("new object() (24 B)", () => s_sink += new object().GetHashCode() & 0);
        Piece("new finalizable object + SuppressFinalize", () => GC.SuppressFinalize(new Finalizable()));
        Piece("ExecutionContext.Capture()", () => s_sink += ExecutionContext.Capture() is null ? 0 : 1);
        Piece("ExecutionContext.IsFlowSuppressed() + SynchronizationContext.Current", () => s_sink += ExecutionContext.IsFlowSuppressed() || SynchronizationContext.Current is not null ? 1 : 0);
        Piece("token.Register + Dispose (long-lived source)", () => token.Register(static _ => { }, null).Dispose());
        Piece("new CancellationTokenSource() + Dispose", () => new CancellationTokenSource().Dispose());
        Piece("Task.Delay(t, ct) then cancel, with its own new CancellationTokenSource", () =>
        {
            using var cts = new CancellationTokenSource();
            _ = System.Threading.Tasks.Task.Delay(s_never, cts.Token);
            cts.Cancel();
        });
        Piece("CoarseTimer.Delay(t, ct) then cancel, with its own new CancellationTokenSource", () =>
        {
            using var cts = new CancellationTokenSource();
            _ = CoarseTimer.Delay(s_never, cts.Token);
            cts.Cancel();
        });
        Piece("new CancellationTokenSource(), Register, Cancel (the share common to both Delays)", () =>
        {
            using var cts = new CancellationTokenSource();
            cts.Token.Register(static _ => { }, null);
            cts.Cancel();
        });
        var engine = Timing.TimerEngine.Default;
        var target = new NoTarget();
        Piece("engine Schedule + Cancel (the wheel's share of every operation)", () => Timing.TimerEngine.Cancel(engine.Schedule(target, 600_000)));
        Piece("new CoarseCancellationTokenSource() + Dispose (no timeout)", () => new CoarseCancellationTokenSource().Dispose());
        Piece("new CoarseTimer (never due) + Dispose: the timer without the engine", () => new CoarseTimer(noop, null, Timeout.Infinite, Timeout.Infinite).Dispose());
        Console.WriteLine("# anatomy: whole operations (schedule then cancel or dispose, 10 min timeouts)");
        Piece("BCL new CancellationTokenSource(t) + Dispose", () => new CancellationTokenSource(s_never).Dispose());
        Piece("ours new CoarseCancellationTokenSource(t) + Dispose", () => new CoarseCancellationTokenSource(s_never).Dispose());
        Piece("ours CoarseTimeout.After(t)", () => s_sink += CoarseTimeout.After(s_never).CanBeCanceled ? 1 : 0);
        Piece("BCL CreateLinkedTokenSource(ct) + CancelAfter(t) + Dispose", () =>
        {
            using var linked = CancellationTokenSource.CreateLinkedTokenSource(token, default);
            linked.CancelAfter(s_never);
        });
        Piece("ours CoarseCancellationTokenSource linked + CancelAfter(t) + Dispose", () =>
        {
            using var linked = CoarseCancellationTokenSource.CreateLinkedTokenSource(token);
            linked.CancelAfter(s_never);
        });
        Piece("ours CoarseTimeout.CreateLinkedTokenSource(ct, t) + Dispose", () => CoarseTimeout.CreateLinkedTokenSource(token, s_never).Dispose());
        Piece("BCL new Timer + Dispose", () => new Timer(noop, null, s_never, Timeout.InfiniteTimeSpan).Dispose());
        Piece("ours new CoarseTimer + Dispose", () => new CoarseTimer(noop, null, s_never, Timeout.InfiniteTimeSpan).Dispose());
    }

    private static void Piece(string name, Action action)
    {
        // Past JIT tiering first, as the quick scenarios (benchmarks.md, "Warm-up"): without it the rounds time tier-0
        // code of ours and of the BCL's pieces that are not precompiled (a plain `new object()` measured ~47 ns).
        Scenarios.WarmUp(action);
        var best = double.MaxValue;
        var bytesBefore = AllocatedBytes();
        for (var round = 0; round < 5; round++)
        {
            var watch = Stopwatch.StartNew();
            for (var i = 0; i < Iterations / 10; i++)
            {
                action();
            }

            best = Math.Min(best, watch.Elapsed.TotalMilliseconds * 1e6 / (Iterations / 10));
        }

        // The delegate call itself (~1-2 ns) is included in every figure alike.
        var bytes = (AllocatedBytes() - bytesBefore) / (5.0 * (Iterations / 10));
        Console.WriteLine($"{name,-70} {best,8:0.0} ns {(double.IsNaN(bytes) ? "" : bytes.ToString("0") + " B")}");
    }

#if NETFRAMEWORK
    private static double AllocatedBytes() => double.NaN;
#else
    private static double AllocatedBytes() => GC.GetAllocatedBytesForCurrentThread();
#endif

    private sealed class NoTarget : Timing.ITimerTarget
    {
        public void OnExpired(Timing.TimerTicket ticket)
        {
        }
    }

    private sealed class Finalizable
    {
        ~Finalizable() => s_sink++;
    }
}
