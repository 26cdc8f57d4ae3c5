using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Tests.Infrastructure;
using Xunit;

namespace CoarseTimers.Tests;

public class TimerTests
{
    private static readonly TimerCallback s_noop = _ => { };

    public static TheoryData<long, long> LongArguments => new()
    {
        { -2, 0 }, { 0, -2 }, { -1, -1 }, { 0, 0 }, { 4294967294, 0 }, { 4294967295, 0 }, { 0, 4294967295 }, { long.MaxValue, 0 },

        // Both invalid, one too large and one negative: which one the BCL reports depends on the order of its checks.
        { 4294967295, -2 }, { -2, 4294967295 }, { -2, -2 }, { 4294967295, 4294967295 },
    };

    [Theory]
    [MemberData(nameof(LongArguments))]
    public void Constructors_validate_as_System_Threading_Timer(long due, long period)
    {
        if (MonoOrderDiffers(due, period))
        {
            Assert.Equal(FrameworkReports(due), Assert.Throws<ArgumentOutOfRangeException>(() => new CoarseTimer(s_noop, null, due, period)).ParamName);
            return;
        }

        Same.Outcome(() => new Timer(s_noop, null, due, period).Dispose(), () => new CoarseTimer(s_noop, null, due, period).Dispose());
        if (due < int.MaxValue * 1000L && period < int.MaxValue * 1000L)
        {
            var dueSpan = TimeSpan.FromMilliseconds(due);
            var periodSpan = TimeSpan.FromMilliseconds(period);
            Same.Outcome(() => new Timer(s_noop, null, dueSpan, periodSpan).Dispose(), () => new CoarseTimer(s_noop, null, dueSpan, periodSpan).Dispose());
        }
        if (due >= int.MinValue && due <= int.MaxValue && period >= int.MinValue && period <= int.MaxValue)
        {
            Same.Outcome(() => new Timer(s_noop, null, (int)due, (int)period).Dispose(), () => new CoarseTimer(s_noop, null, (int)due, (int)period).Dispose());
        }

        Same.Outcome(() => new Timer(null!, null, 0, 0).Dispose(), () => new CoarseTimer(null!, null, 0, 0).Dispose());
        Same.Outcome(() => new Timer(null!).Dispose(), () => new CoarseTimer(null!).Dispose());
    }

    [Theory]
    [MemberData(nameof(LongArguments))]
    public void Change_validates_as_System_Threading_Timer(long due, long period)
    {
        using var bcl = new Timer(s_noop);
        using var ours = new CoarseTimer(s_noop);
        if (MonoOrderDiffers(due, period))
        {
            Assert.Equal(FrameworkReports(due), Assert.Throws<ArgumentOutOfRangeException>(() => ours.Change(due, period)).ParamName);
            return;
        }

        Same.Outcome(() => bcl.Change(due, period), () => ours.Change(due, period));
        if (due < int.MaxValue * 1000L && period < int.MaxValue * 1000L)
        {
            Same.Outcome(() => bcl.Change(TimeSpan.FromMilliseconds(due), TimeSpan.FromMilliseconds(period)), () => ours.Change(TimeSpan.FromMilliseconds(due), TimeSpan.FromMilliseconds(period)));
        }
        if (due >= int.MinValue && due <= int.MaxValue && period >= int.MinValue && period <= int.MaxValue)
        {
            Same.Outcome(() => bcl.Change((int)due, (int)period), () => ours.Change((int)due, (int)period));
        }

        bcl.Change(Timeout.Infinite, Timeout.Infinite);
        ours.Change(Timeout.Infinite, Timeout.Infinite);
    }

    /// <summary>
    /// A pair with one value negative and the other too large: Mono's own Timer checks the maximum first, .NET
    /// Framework's (reference source) and .NET Core's check the sign of both first, which the runtime follows. On Mono
    /// the tests state the .NET Framework answer instead of comparing with Mono's.
    /// </summary>
    private static bool MonoOrderDiffers(long due, long period) =>
#if COARSE_NETFRAMEWORK
        (due < -1 && period > 4294967294) || (period < -1 && due > 4294967294);
#else
        false;
#endif

    private static string FrameworkReports(long due) => due < -1 ? "dueTime" : "period";

    [Fact]
    public void Change_and_Dispose_after_dispose_behave_as_System_Threading_Timer()
    {
        var bcl = new Timer(s_noop);
        var ours = new CoarseTimer(s_noop);
        bcl.Dispose();
        ours.Dispose();
        Same.Outcome(() => bcl.Change(1, 1), () => ours.Change(1, 1));
#if COARSE_NETFRAMEWORK
        // .NET Framework's timer throws ObjectDisposedException there (compared above); .NET Core's returns false.
        Assert.Throws<ObjectDisposedException>(() => ours.Change(1, 1));
#else
        Assert.Equal(bcl.Change(1, 1), ours.Change(1, 1));
#endif
        Same.Outcome(() => bcl.Dispose(), () => ours.Dispose());
        using var bclEvent = new ManualResetEvent(false);
        using var ourEvent = new ManualResetEvent(false);
#if COARSE_NETFRAMEWORK
        // Mono's own Timer answers true here; .NET Framework's (TimerQueueTimer.Close) and .NET Core's answer false.
        Assert.False(ours.Dispose(ourEvent));
#else
        Assert.Equal(bcl.Dispose(bclEvent), ours.Dispose(ourEvent));
#endif
        Same.Outcome(() => bcl.Dispose(null!), () => ours.Dispose(null!));
    }

#if !COARSE_NETFRAMEWORK
    [Fact]
    public async Task DisposeAsync_after_Dispose_WaitHandle_behaves_as_System_Threading_Timer()
    {
        var bcl = new Timer(s_noop);
        var ours = new CoarseTimer(s_noop);
        using var bclEvent = new ManualResetEvent(false);
        using var ourEvent = new ManualResetEvent(false);
        Assert.True(bcl.Dispose(bclEvent));
        Assert.True(ours.Dispose(ourEvent));
        var bclError = await Record.ExceptionAsync(async () => await bcl.DisposeAsync());
        var ourError = await Record.ExceptionAsync(async () => await ours.DisposeAsync());
        Assert.IsType<InvalidOperationException>(bclError);
        Assert.IsType<InvalidOperationException>(ourError);

        // After Dispose() (no handle) DisposeAsync simply completes.
        var plain = new CoarseTimer(s_noop);
        plain.Dispose();
        await plain.DisposeAsync();
    }
#endif

    [Fact]
    public void One_shot_fires_once_and_periodic_keeps_firing_until_changed()
    {
        var engine = new ManualEngine();
        var count = 0;
        using var timer = new CoarseTimer(engine.Engine, _ => count++, null, 100, 50, useSelfAsState: false);
        engine.Advance(99);
        Assert.Equal(0, count);
        engine.Advance(11);
        Assert.Equal(1, count);
        engine.Advance(60);
        Assert.Equal(2, count);

        Assert.True(timer.Change(Timeout.Infinite, Timeout.Infinite));
        Assert.Equal(0, engine.Pending);
        engine.Advance(1_000);
        Assert.Equal(2, count);

        Assert.True(timer.Change(10, 0));
        engine.Advance(100);
        engine.Advance(100);
        Assert.Equal(3, count);
    }

    [Fact]
    public void A_one_shot_timer_is_its_own_wheel_entry_and_a_periodic_one_is_not()
    {
        // One object per pending one-shot timer; a periodic timer stays collectable, so a pooled entry holds its place.
        var engine = new ManualEngine();
        using var timer = new CoarseTimer(engine.Engine, _ => { }, null, 60_000, Timeout.Infinite, false);
        Assert.NotEqual(-1, timer.Slot);
        Assert.Equal(1, engine.Pending);

        Assert.True(timer.Change(60_000, 1_000));
        Assert.Equal(-1, timer.Slot);
        Assert.Equal(1, engine.Pending);

        Assert.True(timer.Change(60_000, Timeout.Infinite));
        Assert.NotEqual(-1, timer.Slot);
        timer.Dispose();
        Assert.Equal(-1, timer.Slot);
        Assert.Equal(0, engine.Pending);
    }

    [Fact]
    public void Switching_between_one_shot_and_periodic_fires_on_the_current_schedule_only()
    {
        // Small steps: the manual engine runs a periodic timer's next period only from the next Advance step.
        var engine = new ManualEngine();
        var fired = new System.Collections.Generic.List<long>();
        var start = engine.Clock.GetTimestamp();
        void AdvanceBy(int milliseconds)
        {
            for (var i = 0; i < milliseconds; i += 5)
            {
                engine.Advance(5);
            }
        }

        using var timer = new CoarseTimer(engine.Engine, _ => fired.Add((engine.Clock.GetTimestamp() - start) / 1000), null, 100, Timeout.Infinite, false);
        AdvanceBy(40);
        Assert.True(timer.Change(20, 30)); // periodic from 40 ms: 60, 90, 120, 150...
        AdvanceBy(100); // to 140 ms: 120 has fired (at most a resolution late), 150 has not
        Assert.True(timer.Change(50, Timeout.Infinite)); // one-shot at 190; the old 100 ms and periodic expiries are gone
        AdvanceBy(300);
        Assert.True(fired.Count == 4, string.Join(",", fired));
        Assert.All(fired.Take(3).Zip(new[] { 60L, 90, 120 }, (at, due) => (at, due)), pair => Assert.InRange(pair.at, pair.due, pair.due + 10));
        Assert.InRange(fired[3], 190, 200);
        Assert.Equal(0, engine.Pending);
    }

    [Fact]
    public void A_one_shot_timer_re_armed_again_and_again_fires_once_per_arming_that_is_left_to_run()
    {
        var engine = new ManualEngine();
        var count = 0;
        using var timer = new CoarseTimer(engine.Engine, _ => count++, null, Timeout.Infinite, Timeout.Infinite, false);
        for (var round = 1; round <= 50; round++)
        {
            for (var i = 0; i < 20; i++)
            {
                Assert.True(timer.Change(10 + i, Timeout.Infinite));
            }

            engine.Advance(100);
            Assert.Equal(round, count);
        }
    }

    [Fact]
    public void Single_argument_constructor_passes_the_timer_as_state()
    {
        object? seen = null;
        var timer = new CoarseTimer(state => seen = state);
        Assert.True(timer.Change(0, Timeout.Infinite));
        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref seen) is not null, TimeSpan.FromSeconds(30)));
        Assert.Same(timer, seen);
        timer.Dispose();
    }

    [Fact]
    public void Dispose_removes_the_pending_entry()
    {
        var engine = new ManualEngine();
        var fired = false;
        var timer = new CoarseTimer(engine.Engine, _ => fired = true, null, 100, 100, false);
        timer.Dispose();
        Assert.Equal(0, engine.Pending);
        engine.Advance(1_000);
        Assert.False(fired);
    }

    [Fact]
    public async Task DisposeAsync_and_Dispose_WaitHandle_complete_only_after_the_running_callback()
    {
        var engine = new ManualEngine();
        using var entered = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var timer = new CoarseTimer(engine.Engine, _ => { entered.Set(); release.Wait(); }, null, 10, 0, false);
        var driver = Task.Run(() => engine.Advance(20));
        Assert.True(entered.Wait(TimeSpan.FromSeconds(30)));

        var disposed = timer.DisposeAsync();
        using var handle = new ManualResetEvent(false);
        Assert.False(timer.Dispose(handle));
        Assert.False(disposed.IsCompleted);
        Assert.False(handle.WaitOne(0));

        release.Set();
        await disposed.AsTask().WaitAsync(TimeSpan.FromSeconds(30));
        await driver.WaitAsync(TimeSpan.FromSeconds(30));
    }

    [Fact]
    public async Task Dispose_WaitHandle_signals_after_the_running_callback()
    {
        var engine = new ManualEngine();
        using var entered = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var timer = new CoarseTimer(engine.Engine, _ => { entered.Set(); release.Wait(); }, null, 10, 0, false);
        var driver = Task.Run(() => engine.Advance(20));
        Assert.True(entered.Wait(TimeSpan.FromSeconds(30)));
        using var handle = new ManualResetEvent(false);
        Assert.True(timer.Dispose(handle));
        Assert.False(handle.WaitOne(0));
        release.Set();
        Assert.True(handle.WaitOne(TimeSpan.FromSeconds(30)));
        await driver.WaitAsync(TimeSpan.FromSeconds(30));
    }

    [Fact]
    public void Dispose_WaitHandle_leaves_a_semaphore_or_mutex_unsignalled_and_does_not_throw_as_the_BCLs()
    {
        // The BCL sets the handle as an event: other kinds are accepted and left alone (a full semaphore must not throw).
        bool Dispose(Func<WaitHandle, bool> dispose, WaitHandle handle) => dispose(handle);
        using var bclSemaphore = new Semaphore(0, 1);
        using var ourSemaphore = new Semaphore(0, 1);
        using var bclFull = new Semaphore(1, 1);
        using var ourFull = new Semaphore(1, 1);
        using var bclMutex = new Mutex();
        using var ourMutex = new Mutex();
        var engine = new ManualEngine();
        TimerCallback noop = _ => { };
        foreach (var (bcl, ours) in new[] { (bclSemaphore, ourSemaphore), (bclFull, ourFull), ((WaitHandle)bclMutex, (WaitHandle)ourMutex) })
        {
            var bclResult = Dispose(new Timer(noop, null, Timeout.Infinite, Timeout.Infinite).Dispose, bcl);
            var ourResult = Dispose(new CoarseTimer(engine.Engine, noop, null, Timeout.Infinite, Timeout.Infinite, false).Dispose, ours);
            Assert.Equal(bclResult, ourResult);
        }

        Assert.False(ourSemaphore.WaitOne(0));
        Assert.Equal(bclSemaphore.WaitOne(0), ourSemaphore.WaitOne(0));
    }

    [Fact]
    public async Task Dispose_WaitHandle_with_a_full_semaphore_or_a_closed_event_survives_the_running_callback()
    {
        // The signal comes from the callback's thread once it returns (inline here): it must not throw there, where
        // on the thread pool it would end the process.
        foreach (var handle in new WaitHandle[] { new Semaphore(1, 1), new ManualResetEvent(false) })
        {
            var engine = new ManualEngine();
            using var entered = new ManualResetEventSlim();
            using var release = new ManualResetEventSlim();
            var timer = new CoarseTimer(engine.Engine, _ => { entered.Set(); release.Wait(); }, null, 10, 0, false);
            var driver = Task.Run(() => engine.Advance(20));
            Assert.True(entered.Wait(TimeSpan.FromSeconds(30)));
            Assert.True(timer.Dispose(handle));
            handle.Dispose();
            release.Set();
            await driver.WaitAsync(TimeSpan.FromSeconds(30));
        }
    }

    [Fact]
    public void Callback_runs_in_the_creators_ExecutionContext()
    {
        // Forced on, so the capturing path also runs on Mono, whose own timer flows no context.
        var engine = new ManualEngine();
        engine.Engine.TimersFlowExecutionContext = true;
        var local = new AsyncLocal<string>();
        string? seen = null;
        local.Value = "creator";
        using var timer = new CoarseTimer(engine.Engine, _ => seen = local.Value, null, 10, 0, false);
        local.Value = "changed later";
        engine.Advance(20);
        Assert.Equal("creator", seen);
    }

    [Fact]
    public void A_periodic_timer_runs_every_callback_in_the_creators_ExecutionContext()
    {
        // .NET Framework lets a captured context be run once: reusing it killed the process at the second fire.
        var engine = new ManualEngine();
        engine.Engine.TimersFlowExecutionContext = true;
        var local = new AsyncLocal<string>();
        var seen = new System.Collections.Generic.List<string?>();
        local.Value = "creator";
        using var timer = new CoarseTimer(engine.Engine, _ => seen.Add(local.Value), null, 10, 10, false);
        local.Value = "changed later";
        for (var i = 0; i < 5; i++)
        {
            engine.Advance(10);
        }

        Assert.True(seen.Count >= 4, $"fired {seen.Count} times");
        Assert.All(seen, value => Assert.Equal("creator", value));
    }

    [Fact]
    public void An_engine_whose_timers_flow_no_context_runs_the_callback_in_the_dispatching_threads()
    {
        // The manual engine runs callbacks inline, so without a captured context the callback sees the caller of Advance's.
        var engine = new ManualEngine();
        engine.Engine.TimersFlowExecutionContext = false;
        var local = new AsyncLocal<string>();
        string? seen = "not run";
        local.Value = "creator";
        using var timer = new CoarseTimer(engine.Engine, _ => seen = local.Value, null, 10, 0, false);
        local.Value = "dispatcher";
        engine.Advance(20);
        Assert.Equal("dispatcher", seen);
    }

    [Fact]
    public void A_timer_created_while_flow_is_suppressed_captures_no_context()
    {
        var engine = new ManualEngine();
        engine.Engine.TimersFlowExecutionContext = true;
        var local = new AsyncLocal<string>();
        string? seen = "not run";
        local.Value = "creator";
        CoarseTimer timer;
        using (ExecutionContext.SuppressFlow())
        {
            timer = new CoarseTimer(engine.Engine, _ => seen = local.Value, null, 10, 0, false);
        }

        local.Value = "dispatcher";
        engine.Advance(20);
        timer.Dispose();
        Assert.Equal("dispatcher", seen);
    }

    [Fact]
    public void Callback_flows_the_creators_ExecutionContext_exactly_when_this_runtimes_timer_does()
    {
        // .NET and .NET Framework flow it; Mono's timer does not (RuntimeTimer), and ours follows the runtime it runs on.
        var local = new AsyncLocal<string>();
        string? bclSaw = "not run";
        string? oursSaw = "not run";
        using var bclFired = new ManualResetEventSlim();
        using var oursFired = new ManualResetEventSlim();
        local.Value = "creator";
        using var bcl = new Timer(_ => { bclSaw = local.Value; bclFired.Set(); }, null, 0, Timeout.Infinite);
        using var ours = new CoarseTimer(_ => { oursSaw = local.Value; oursFired.Set(); }, null, 0, Timeout.Infinite);
        local.Value = null!;
        Assert.True(bclFired.Wait(TimeSpan.FromSeconds(30)));
        Assert.True(oursFired.Wait(TimeSpan.FromSeconds(30)));
        Assert.Equal(bclSaw, oursSaw);
#if COARSE_NETFRAMEWORK
        Assert.Equal(System.Type.GetType("Mono.Runtime") is null ? "creator" : null, oursSaw);
#else
        Assert.Equal("creator", oursSaw);
#endif
    }

    [Fact]
    public void Callback_does_not_run_in_the_creators_SynchronizationContext_as_the_BCL_timer()
    {
        var context = new SynchronizationContext();
        SynchronizationContext? bclSaw = context;
        SynchronizationContext? oursSaw = context;
        using var bclFired = new ManualResetEventSlim();
        using var oursFired = new ManualResetEventSlim();
        Timer bcl;
        CoarseTimer ours;
        var previous = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(context);
        try
        {
            bcl = new Timer(_ => { bclSaw = SynchronizationContext.Current; bclFired.Set(); }, null, 0, Timeout.Infinite);
            ours = new CoarseTimer(_ => { oursSaw = SynchronizationContext.Current; oursFired.Set(); }, null, 0, Timeout.Infinite);
        }
        finally
        {
            SynchronizationContext.SetSynchronizationContext(previous);
        }

        Assert.True(bclFired.Wait(TimeSpan.FromSeconds(30)));
        Assert.True(oursFired.Wait(TimeSpan.FromSeconds(30)));
        bcl.Dispose();
        ours.Dispose();
        Assert.NotSame(context, bclSaw);
        Assert.NotSame(context, oursSaw);
    }

    [Fact]
    public void A_periodic_timer_counts_each_period_from_the_previous_due_time_on_an_unaligned_clock()
    {
        // 10 ms ticks, a 10 ms period, a clock 3.3 ms off the tick grid, moved 1 ms at a time: counting each period
        // from when the callback ran (plus the tick rounding) fired every 20 ms; the BCL fires every 10 ms.
        var engine = new ManualEngine(resolutionMilliseconds: 10);
        engine.Advance(3.3);
        var start = engine.Clock.GetTimestamp();
        var firedAt = new System.Collections.Generic.List<long>();
        using var timer = new CoarseTimer(engine.Engine, _ => firedAt.Add(engine.Clock.GetTimestamp()), null, 10, 10, false);
        for (var i = 0; i < 215; i++)
        {
            engine.Advance(1);
        }

        // Due at 10, 20 ... 210 ms after start, each fired by the next 5 ms wheel tick (half the resolution): 21 in the run.
        Assert.Equal(21, firedAt.Count);
        for (var k = 0; k < firedAt.Count; k++)
        {
            var dueMicroseconds = start + (k + 1) * 10_000L;
            Assert.True(firedAt[k] >= dueMicroseconds, $"fire {k + 1} was early");
            Assert.True(firedAt[k] < dueMicroseconds + 10_000 + 1_000, $"fire {k + 1} was later than the resolution");
        }
    }

    [Fact]
    public void A_periodic_timer_late_by_more_than_a_period_fires_once_then_resumes_its_period()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 10);
        var count = 0;
        using var timer = new CoarseTimer(engine.Engine, _ => count++, null, 10, 10, false);
        engine.Jump(55);
        Assert.Equal(1, count);
        engine.Advance(10);
        Assert.Equal(2, count);
        engine.Advance(10);
        Assert.Equal(3, count);
    }

    [Fact]
    public void Callbacks_of_other_timers_still_fire_when_one_is_slow_to_be_disposed()
    {
        var engine = new ManualEngine();
        var fired = 0;
        var timers = new CoarseTimer[100];
        for (var i = 0; i < timers.Length; i++)
        {
            timers[i] = new CoarseTimer(engine.Engine, _ => fired++, null, i, 0, false);
        }

        timers[50].Dispose();
        engine.Advance(200);
        Assert.Equal(99, fired);
    }

    [Fact]
    public void An_unreferenced_undisposed_periodic_timer_is_collected_and_stops_at_its_next_period()
    {
        var engine = new ManualEngine();
        var fired = 0;
        StartAndForget(engine, () => fired++, dueTime: 500, period: 500);
        Assert.Equal(1, engine.Pending);
        for (var i = 0; i < 3; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }

        // The wheel holds only the core; at its due time it finds the public timer gone and stops without firing.
        engine.Advance(1_000);
        Assert.Equal(0, fired);
        Assert.Equal(0, engine.Pending);
    }

    [Fact]
    public void A_referenced_periodic_timer_survives_collections()
    {
        var engine = new ManualEngine();
        var fired = 0;
        var timer = new CoarseTimer(engine.Engine, _ => fired++, null, 100, 100, useSelfAsState: false);
        for (var round = 1; round <= 3; round++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            engine.Advance(100);
            Assert.Equal(round, fired);
        }

        // Re-armed with another period: still weakly tracked, still alive.
        Assert.True(timer.Change(100, 50));
        GC.Collect();
        GC.WaitForPendingFinalizers();
        engine.Advance(100);
        Assert.Equal(4, fired);
        engine.Advance(50);
        Assert.Equal(5, fired);
        timer.Dispose();
        engine.Advance(200);
        Assert.Equal(5, fired);
        Assert.Equal(0, engine.Pending);
    }

    [Fact]
    public void An_unreferenced_one_shot_timer_fires_once_as_a_BCL_timer_does_when_no_collection_comes_first()
    {
        var engine = new ManualEngine();
        var fired = 0;
        StartAndForget(engine, () => fired++, dueTime: 500, period: Timeout.Infinite);
        GC.Collect();
        GC.WaitForPendingFinalizers();
        engine.Advance(1_000);
        Assert.Equal(1, fired);
        Assert.Equal(0, engine.Pending);
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static void StartAndForget(ManualEngine engine, Action onFire, long dueTime, long period) =>
        _ = new CoarseTimer(engine.Engine, _ => onFire(), null, dueTime, period, useSelfAsState: false);

#if !COARSE_NETSTANDARD
    [Fact]
    public void Implements_ITimer()
    {
        ITimer timer = new CoarseTimer(s_noop);
        Assert.True(timer.Change(TimeSpan.FromSeconds(1), Timeout.InfiniteTimeSpan));
        timer.Dispose();
    }
#endif
}
