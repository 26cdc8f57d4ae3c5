using System;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Tests.Infrastructure;
using CoarseTimers.Waiting;
using Xunit;

namespace CoarseTimers.Tests.Waiting;

public class SpinThenBlockTests
{
    public static TheoryData<int> IntTimeouts => new() { int.MinValue, -2, -1, 0, 1 };

    public static TheoryData<double> TimeSpanTimeouts => new() { -2, -1, 0, 1, int.MaxValue, int.MaxValue + 1d, 1e12 };

    [Theory]
    [MemberData(nameof(IntTimeouts))]
    public void Validates_int_timeouts_as_SpinWait(int timeout)
    {
        Same.Outcome(() => SpinWait.SpinUntil(() => true, timeout), () => SpinThenBlock.SpinUntil(() => true, timeout));
        Same.Outcome(() => SpinWait.SpinUntil(null!, timeout), () => SpinThenBlock.SpinUntil(null!, timeout));
    }

    [Theory]
    [MemberData(nameof(TimeSpanTimeouts))]
    public void Validates_TimeSpan_timeouts_as_SpinWait(double milliseconds)
    {
        var timeout = TimeSpan.FromMilliseconds(milliseconds);
        Same.Outcome(() => SpinWait.SpinUntil(() => true, timeout), () => SpinThenBlock.SpinUntil(() => true, timeout));
        Same.Outcome(() => SpinWait.SpinUntil(null!, timeout), () => SpinThenBlock.SpinUntil(null!, timeout));
        Same.Outcome(() => SpinWait.SpinUntil(null!), () => SpinThenBlock.SpinUntil(null!));
    }

    [Fact]
    public void Returns_true_at_once_for_a_true_condition_and_false_for_a_zero_timeout()
    {
        Assert.True(SpinThenBlock.SpinUntil(() => true, 0));
        Assert.False(SpinThenBlock.SpinUntil(() => false, 0));
        Assert.Equal(SpinWait.SpinUntil(() => false, 0), SpinThenBlock.SpinUntil(() => false, 0));
    }

    [Fact]
    public void Times_out_with_false_and_leaves_no_waiter_blocked()
    {
        Assert.False(SpinThenBlock.SpinUntil(() => false, TimeSpan.FromMilliseconds(5)));
        Assert.Equal(0, WaiterTicker.Shared.BlockedCount);
    }

    [Fact]
    public async Task Sees_a_condition_set_by_another_thread_after_the_spin_phase()
    {
        var flag = 0;
        var setter = Task.Run(async () =>
        {
            await Task.Delay(3);
            Volatile.Write(ref flag, 1);
        });
        Assert.True(SpinThenBlock.SpinUntil(() => Volatile.Read(ref flag) == 1, TimeSpan.FromSeconds(30)));
        await setter;
        Assert.Equal(0, WaiterTicker.Shared.BlockedCount);
    }

    [Fact]
    public async Task The_ticker_pulses_blocked_waiters_and_stops_once_none_is_left()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 1);
        var ticker = new WaiterTicker(engine.Engine, TimeSpan.FromMilliseconds(1));
        Assert.Equal(0, engine.Pending);

        // No limit on the wait: only a pulse returns it.
        var waiter = Task.Run(() => ticker.WaitForPulse(Timeout.Infinite));
        Assert.True(SpinWait.SpinUntil(() => ticker.BlockedCount == 1, TimeSpan.FromSeconds(30)));
        Assert.Equal(1, engine.Pending);
        while (!waiter.IsCompleted)
        {
            engine.Advance(1);
            await Task.Delay(1);
        }

        await waiter;
        Assert.Equal(0, ticker.BlockedCount);

        // With nobody blocked the pulse is renewed a few times (for the next wait of a frequent waiter), then stops.
        Assert.Equal(1, engine.Pending);
        for (var pulse = 0; pulse <= WaiterTicker.IdlePulsesBeforeStop; pulse++)
        {
            engine.Advance(1);
        }

        Assert.Equal(0, engine.Pending);
    }

#if !COARSE_NETFRAMEWORK
    // Reachability is asserted on .NET only: Mono's conservative collector cannot be made to prove an object unreachable.
    [Fact]
    public void The_ticker_keeps_no_ExecutionContext_of_its_callers()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 1);
        var ticker = new WaiterTicker(engine.Engine, TimeSpan.FromMilliseconds(1));
        var local = new AsyncLocal<object>();

        // The first caller to block starts the shared pulse; what its AsyncLocals hold must not live on in the ticker.
        Assert.True(Collectable.IsCollectedAfter(() =>
        {
            var payload = new object();
            local.Value = payload;
            ticker.WaitForPulse(1);

            // The caller's own context lets go of it; only a copy captured by the ticker would keep it.
            local.Value = null!;
            return payload;
        }));
        GC.KeepAlive(ticker);
    }
#endif

    [Fact]
    public void A_throwing_predicate_propagates_and_leaves_nothing_registered()
    {
        var calls = 0;
        var exception = Assert.Throws<InvalidOperationException>(() => SpinThenBlock.SpinUntil(() => ++calls > 50 ? throw new InvalidOperationException("boom") : false));
        Assert.Equal("boom", exception.Message);
        Assert.Equal(0, WaiterTicker.Shared.BlockedCount);
    }
}
