using System;
using System.Threading;
using CoarseTimers.Tests.Infrastructure;
using CoarseTimers.Timing;
using Xunit;

namespace CoarseTimers.Tests;

public class CancellationTokenSourceTests
{
    public static TheoryData<double> TimeSpanMilliseconds => new() { -2, -1, 0, 1, 4294967294, 4294967295, 1e12 };

    public static TheoryData<int> IntMilliseconds => new() { int.MinValue, -2, -1, 0, 1, int.MaxValue };

    [Theory]
    [MemberData(nameof(TimeSpanMilliseconds))]
    public void Constructors_and_CancelAfter_validate_as_the_BCL(double milliseconds)
    {
        var delay = TimeSpan.FromMilliseconds(milliseconds);
        Same.Outcome(() => new CancellationTokenSource(delay).Dispose(), () => new CoarseCancellationTokenSource(delay).Dispose());
        using var bcl = new CancellationTokenSource();
        using var ours = new CoarseCancellationTokenSource();
        Same.Outcome(() => bcl.CancelAfter(delay), () => ours.CancelAfter(delay));
    }

    [Theory]
    [MemberData(nameof(IntMilliseconds))]
    public void Int_constructors_and_CancelAfter_validate_as_the_BCL(int milliseconds)
    {
        Same.Outcome(() => new CancellationTokenSource(milliseconds).Dispose(), () => new CoarseCancellationTokenSource(milliseconds).Dispose());
        using var bcl = new CancellationTokenSource();
        using var ours = new CoarseCancellationTokenSource();
        Same.Outcome(() => bcl.CancelAfter(milliseconds), () => ours.CancelAfter(milliseconds));
    }

    [Fact]
    public void CancelAfter_on_a_disposed_source_behaves_as_the_BCL()
    {
        var bcl = new CancellationTokenSource();
        var ours = new CoarseCancellationTokenSource();
        bcl.Dispose();
        ours.Dispose();
        Same.Outcome(() => bcl.CancelAfter(10), () => ours.CancelAfter(10));
        Same.Outcome(() => bcl.CancelAfter(TimeSpan.FromSeconds(1)), () => ours.CancelAfter(TimeSpan.FromSeconds(1)));
    }

    [Fact]
    public void Linked_sources_validate_as_the_BCL()
    {
        Same.Outcome(() => CancellationTokenSource.CreateLinkedTokenSource(null!), () => CoarseCancellationTokenSource.CreateLinkedTokenSource(null!));
        Same.Outcome(() => CancellationTokenSource.CreateLinkedTokenSource(Array.Empty<CancellationToken>()), () => CoarseCancellationTokenSource.CreateLinkedTokenSource(Array.Empty<CancellationToken>()));
    }

    [Fact]
    public void Zero_timeout_does_as_the_runtimes_own_source()
    {
        using var bcl = new CancellationTokenSource(0);
        using var ours = new CoarseCancellationTokenSource(0);
#if COARSE_NETFRAMEWORK
        // .NET Framework and Mono start a 0 ms timer, so their source is cancelled a moment later; ours takes the shortest timer.
        Assert.True(SpinWait.SpinUntil(() => bcl.IsCancellationRequested, TimeSpan.FromSeconds(30)));
        Assert.True(SpinWait.SpinUntil(() => ours.IsCancellationRequested, TimeSpan.FromSeconds(30)));
#else
        Assert.True(bcl.IsCancellationRequested);
        Assert.True(ours.IsCancellationRequested);
#endif
    }

    [Fact]
    public void Zero_timeout_where_the_runtime_starts_a_timer_never_cancels_inline()
    {
        var engine = new ManualEngine();
        using var source = new CoarseCancellationTokenSource(engine.Engine, 0);
#if COARSE_NETFRAMEWORK
        // A callback registered right after the constructor runs on the expiry, as on the runtime's timer thread.
        Assert.False(ZeroTimeout.CancelsAtOnce);
        Assert.False(InlineRegistration.RunsInsideRegister(source.Token));
        Assert.False(source.IsCancellationRequested);
        engine.Advance(20);
        Assert.True(source.IsCancellationRequested);
#else
        Assert.True(source.IsCancellationRequested);
        Assert.Equal(0, engine.Pending);
#endif
    }

    [Fact]
    public void Times_out_no_earlier_than_asked()
    {
        var engine = new ManualEngine();
        using var source = new CoarseCancellationTokenSource(engine.Engine, 100);
        engine.Advance(99);
        Assert.False(source.IsCancellationRequested);
        engine.Advance(11);
        Assert.True(source.IsCancellationRequested);
        Assert.Equal(0, engine.Pending);
    }

    [Fact]
    public void A_second_CancelAfter_restarts_the_countdown()
    {
        var engine = new ManualEngine();
        using var source = new CoarseCancellationTokenSource(engine.Engine);
        source.CancelAfter(100);
        engine.Advance(80);
        source.CancelAfter(100);
        Assert.Equal(1, engine.Pending);
        engine.Advance(80);
        Assert.False(source.IsCancellationRequested);
        engine.Advance(30);
        Assert.True(source.IsCancellationRequested);
    }

    [Fact]
    public void CancelAfter_infinite_stops_the_countdown()
    {
        var engine = new ManualEngine();
        using var source = new CoarseCancellationTokenSource(engine.Engine, 100);
        source.CancelAfter(Timeout.Infinite);
        Assert.Equal(0, engine.Pending);
        engine.Advance(1_000);
        Assert.False(source.IsCancellationRequested);
    }

    [Theory]
    [InlineData(5_000)] // 0.5 ms
    [InlineData(1)]
    [InlineData(-1)]
    [InlineData(-5_000)]
    public void A_timeout_under_a_millisecond_is_not_cancelled_at_once_and_never_before_it(long ticks)
    {
        // The BCL cancels at once only for TimeSpan.Zero (on .NET); truncating 0.5 ms to 0 would cancel early, inline.
        var engine = new ManualEngine(resolutionMilliseconds: 1);
        var delay = TimeSpan.FromTicks(ticks);
        using var source = new CoarseCancellationTokenSource(engine.Engine, TimeoutArguments.CheckTimeout(delay, "delay"));
        using var rearmed = new CoarseCancellationTokenSource(engine.Engine);
        rearmed.CancelAfterCore(TimeoutArguments.CheckTimeout(delay, "delay"));
        var token = CoarseTimeout.After(engine.Engine, TimeoutArguments.CheckTimeout(delay, "delay"));
        Assert.False(source.IsCancellationRequested);
        Assert.False(rearmed.IsCancellationRequested);
        Assert.False(token.IsCancellationRequested);
        engine.Advance(0.9);
        Assert.False(source.IsCancellationRequested);
        engine.Advance(10);
        Assert.True(source.IsCancellationRequested);
        Assert.True(rearmed.IsCancellationRequested);
        Assert.True(token.IsCancellationRequested);
#if !COARSE_NETFRAMEWORK
        // Where the runtime starts a 0 ms timer for it (.NET Framework, Mono), TimeSpan.Zero takes the shortest timer too.
        Assert.True(new CoarseCancellationTokenSource(TimeSpan.Zero).IsCancellationRequested);
#endif
    }

    [Theory]
    [InlineData(-2)]
    [InlineData(-1)]
    [InlineData(10)]
    public void CancelAfter_on_a_disposed_source_checks_disposal_and_argument_in_the_runtimes_order(int milliseconds)
    {
        // .NET Core checks the int argument first; .NET Framework and Mono (reference source) check disposal first.
        var bcl = new CancellationTokenSource();
        var ours = new CoarseCancellationTokenSource();
        bcl.Dispose();
        ours.Dispose();
        Same.Outcome(() => bcl.CancelAfter(milliseconds), () => ours.CancelAfter(milliseconds));
        Same.Outcome(() => bcl.CancelAfter(TimeSpan.FromMilliseconds(milliseconds)), () => ours.CancelAfter(TimeSpan.FromMilliseconds(milliseconds)));
    }

    [Fact]
    public void Disposing_before_the_timeout_leaves_nothing_pending()
    {
        var engine = new ManualEngine();
        for (var i = 0; i < 1_000; i++)
        {
            using var source = new CoarseCancellationTokenSource(engine.Engine, 30_000);
        }

        Assert.Equal(0, engine.Pending);
    }

    [Fact]
    public void Cancelling_before_the_timeout_leaves_the_entry_at_most_one_wheel_revolution()
    {
        var engine = new ManualEngine();
        var source = new CoarseCancellationTokenSource(engine.Engine, 30_000);
        var cancelled = 0;
        source.Token.Register(() => cancelled++);
        Assert.Equal(1, engine.Pending);
        source.Cancel();
        source.CancelAfter(10);
        Assert.Equal(1, engine.Pending);

        // 1,024 slots of 5 ms (half the resolution): the driver visits the entry's slot within 5.12 s and drops it
        // without expiring it.
        for (var elapsed = 0; elapsed < TimingWheel.SlotCount * 5; elapsed += 10)
        {
            engine.Advance(10);
        }

        Assert.Equal(0, engine.Pending);
        Assert.Equal(1, cancelled);
    }

    [Fact]
    public void An_entry_not_yet_due_is_kept_while_its_source_is_not_cancelled()
    {
        var engine = new ManualEngine();
        using var source = new CoarseCancellationTokenSource(engine.Engine, 30_000);
        for (var elapsed = 0; elapsed < 29_990; elapsed += 10)
        {
            engine.Advance(10);
        }

        Assert.Equal(1, engine.Pending);
        Assert.False(source.IsCancellationRequested);
        engine.Advance(20);
        Assert.True(source.IsCancellationRequested);
        Assert.Equal(0, engine.Pending);
    }

    [Fact]
    public void Linked_source_is_cancelled_by_any_token_and_starts_cancelled_from_a_cancelled_one()
    {
        using var a = new CancellationTokenSource();
        using var b = new CancellationTokenSource();
        using var linked = CoarseCancellationTokenSource.CreateLinkedTokenSource(a.Token, b.Token);
        Assert.False(linked.IsCancellationRequested);
        b.Cancel();
        Assert.True(linked.IsCancellationRequested);

        using var single = CoarseCancellationTokenSource.CreateLinkedTokenSource(b.Token);
        Assert.True(single.IsCancellationRequested);
    }

    [Fact]
    public void Linked_source_with_CancelAfter_times_out_without_cancelling_the_outer_token()
    {
        var engine = new ManualEngine();
        using var outer = new CancellationTokenSource();
        using var linked = CoarseCancellationTokenSource.CreateLinked(engine.Engine, outer.Token);
        linked.CancelAfter(TimeSpan.FromMilliseconds(50));
        engine.Advance(49);
        Assert.False(linked.IsCancellationRequested);
        engine.Advance(12);
        Assert.True(linked.IsCancellationRequested);
        Assert.False(outer.IsCancellationRequested);
    }

#if !COARSE_NETFRAMEWORK
    // Reachability is asserted on .NET only: Mono's conservative collector cannot be made to prove an object unreachable.
    [Fact]
    public void A_callback_on_a_linked_source_runs_in_its_registrants_ExecutionContext_as_the_BCLs()
    {
        // The link itself carries no context (as the BCL's); what runs on the linked token keeps its own.
        var local = new AsyncLocal<string>();
        string? Observe(Func<CancellationToken, CancellationTokenSource> link)
        {
            using var outer = new CancellationTokenSource();
            using var linked = link(outer.Token);
            string? seen = "not run";
            local.Value = "registrant";
            linked.Token.Register(() => seen = local.Value);
            local.Value = "canceller";
            outer.Cancel();
            Assert.True(linked.IsCancellationRequested);
            return seen;
        }

        var bcl = Observe(token => CancellationTokenSource.CreateLinkedTokenSource(token));
        var ours = Observe(token => CoarseCancellationTokenSource.CreateLinkedTokenSource(token));
        Assert.Equal("registrant", bcl);
        Assert.Equal(bcl, ours);
    }

    [Fact]
    public void Disposing_a_linked_source_unregisters_it_from_the_outer_token()
    {
        var engine = new ManualEngine();
        using var outer = new CancellationTokenSource();

        // Were the link left registered, the outer token would keep the disposed source reachable.
        Assert.True(Collectable.IsCollectedAfter(() =>
        {
            var linked = CoarseCancellationTokenSource.CreateLinked(engine.Engine, outer.Token);
            linked.CancelAfter(30_000);
            linked.Dispose();
            return linked;
        }));
        Assert.Equal(0, engine.Pending);
        outer.Cancel();
    }
#endif

    [Fact]
    public void CancelAfter_through_the_derived_type_replaces_a_longer_timeout_never_early()
    {
        var engine = new ManualEngine();
        using var source = new CoarseCancellationTokenSource(engine.Engine, 10_000);
        source.CancelAfter(TimeSpan.FromMilliseconds(50));
        Assert.Equal(1, engine.Pending);
        engine.Advance(49);
        Assert.False(source.IsCancellationRequested);
        engine.Advance(12);
        Assert.True(source.IsCancellationRequested);
        Assert.Equal(0, engine.Pending);
    }

#if !COARSE_NETSTANDARD
    [Fact]
    public void TryReset_clears_the_pending_timeout()
    {
        var engine = new ManualEngine();
        using var source = new CoarseCancellationTokenSource(engine.Engine, 100);
        Assert.True(source.TryReset());
        Assert.Equal(0, engine.Pending);
        engine.Advance(200);
        Assert.False(source.IsCancellationRequested);
    }

    [Fact]
    public void TryReset_then_CancelAfter_then_an_early_Cancel_leaves_no_entry_behind()
    {
        var engine = new ManualEngine();
        using var source = new CoarseCancellationTokenSource(engine.Engine, 100);
        Assert.True(source.TryReset());
        Assert.Equal(0, engine.Pending);
        source.CancelAfter(100);
        var cancelled = 0;
        source.Token.Register(() => cancelled++);
        Assert.Equal(1, engine.Pending);
        source.Cancel();

        // The early Cancel retracts the entry: it is dropped when its slot comes round, without cancelling again.
        engine.Advance(110);
        Assert.Equal(0, engine.Pending);
        Assert.Equal(1, cancelled);
    }

    [Fact]
    public void An_early_Cancel_of_a_long_timeout_leaves_no_entry_behind_after_about_a_revolution()
    {
        var engine = new ManualEngine();
        using var source = new CoarseCancellationTokenSource(engine.Engine, 600_000);
        engine.Advance(20); // sealed, due in 10 minutes: in the wheel's overflow list
        Assert.Equal(1, engine.Pending);
        source.Cancel();

        // Retracted: dropped at the next scan of the overflow list (a revolution of 5 ms ticks), not kept ten minutes.
        engine.Advance(2 * TimingWheel.SlotCount * 5);
        Assert.Equal(0, engine.Pending);
    }

    [Fact]
    public void TryReset_through_the_derived_type_behaves_as_the_BCL()
    {
        // Not cancelled, a timeout pending, a callback registered: reset succeeds and the callback is gone.
        using var bcl = new CancellationTokenSource(TimeSpan.FromMinutes(10));
        using var ours = new CoarseCancellationTokenSource(TimeSpan.FromMinutes(10));
        var bclCalls = 0;
        var ourCalls = 0;
        bcl.Token.Register(() => bclCalls++);
        ours.Token.Register(() => ourCalls++);
        Assert.Equal(bcl.TryReset(), ours.TryReset());
        bcl.Cancel();
        ours.Cancel();
        Assert.Equal(bclCalls, ourCalls);

        // Cancelled: reset fails.
        Assert.Equal(bcl.TryReset(), ours.TryReset());

        // Disposed: same exception.
        var disposedBcl = new CancellationTokenSource();
        var disposedOurs = new CoarseCancellationTokenSource();
        disposedBcl.Dispose();
        disposedOurs.Dispose();
        Same.Outcome(() => disposedBcl.TryReset(), () => disposedOurs.TryReset());
    }

    [Fact]
    public void TryReset_fails_once_the_timeout_is_taken_off_the_wheel_and_the_source_then_cancels()
    {
        // One shard: the probe, scheduled last in the same slot, is dispatched first, between the expiry being taken
        // off the wheel and the source's own expiry callback: the window in which the timeout is already firing.
        var engine = new ManualEngine(shardCount: 1);
        using var source = new CoarseCancellationTokenSource(engine.Engine, 10);
        var probe = new ProbeTarget(() => (!source.IsCancellationRequested, source.TryReset()));
        engine.Engine.Schedule(probe, 10);
        engine.Advance(20);
        Assert.True(probe.Result.SawUncancelled, "the probe must run inside the window");
        Assert.False(probe.Result.Reset, "TryReset reported success for a source its own timeout was cancelling");
        Assert.True(source.IsCancellationRequested);
    }

    [Fact]
    public async System.Threading.Tasks.Task TryReset_racing_the_expiry_never_reports_success_for_a_source_that_then_cancels()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 1, shardCount: 1);
        for (var i = 0; i < 500; i++)
        {
            using var source = new CoarseCancellationTokenSource(engine.Engine, 1);
            using var start = new Barrier(2);
            var expire = System.Threading.Tasks.Task.Run(() =>
            {
                start.SignalAndWait();
                engine.Advance(2);
            });
            start.SignalAndWait();
            var reset = false;
            while (!reset && !source.IsCancellationRequested && !expire.IsCompleted)
            {
                reset = source.TryReset();
            }

            await expire;
            Assert.False(reset && source.IsCancellationRequested, $"iteration {i}: TryReset returned true, then the expiry cancelled the source");
        }
    }

    private sealed class ProbeTarget : CoarseTimers.Timing.ITimerTarget
    {
        private readonly Func<(bool SawUncancelled, bool Reset)> _probe;

        public ProbeTarget(Func<(bool SawUncancelled, bool Reset)> probe) => _probe = probe;

        public (bool SawUncancelled, bool Reset) Result { get; private set; }

        public void OnExpired(CoarseTimers.Timing.TimerTicket ticket) => Result = _probe();
    }
#endif
}
