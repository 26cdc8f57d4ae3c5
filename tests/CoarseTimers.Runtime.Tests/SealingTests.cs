using System;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Tests.Infrastructure;
using CoarseTimers.Timing;
using Xunit;

namespace CoarseTimers.Tests;

/// <summary>
/// Timeouts scheduled by a delay read no clock: they wait unsealed until the driver seals their shard, due their delay
/// after a clock reading taken then (TimerEngine, "Sealing"). Every kind is never early whatever the driver's timing,
/// and at most one resolution late with a timely driver.
/// </summary>
public class SealingTests
{
    public static TheoryData<string> Kinds => new() { "source", "CancelAfter", "linked CancelAfter", "Delay", "token", "one-shot Timer", "one-shot Timer.Change" };

    [Theory]
    [MemberData(nameof(Kinds))]
    public void Never_early_whenever_the_driver_wakes(string kind)
    {
        var random = new Random(kind.Length * 31);
        for (var i = 0; i < 200; i++)
        {
            var engine = new ManualEngine(resolutionMilliseconds: 1 + random.Next(20));
            engine.Jump(random.NextDouble() * 1000);
            var delay = 1 + random.Next(2_000);
            var elapsed = MicrosecondsUntilDone(engine, kind, delay, () => engine.Jump(random.NextDouble() * 7));
            Assert.True(elapsed >= delay * 1000L, $"{kind}: done after {elapsed} us, asked {delay} ms");
        }
    }

    [Theory]
    [MemberData(nameof(Kinds))]
    public void At_most_one_resolution_late_with_a_timely_driver(string kind)
    {
        var random = new Random(kind.Length * 17);
        for (var i = 0; i < 200; i++)
        {
            // Other timeouts keep being scheduled, so the driver keeps sealing: this one lands anywhere between seals.
            var resolution = 2 + random.Next(20);
            var engine = new ManualEngine(resolutionMilliseconds: resolution);
            using var background = new CoarseCancellationTokenSource(engine.Engine);
            void BusyStep(double milliseconds)
            {
                background.CancelAfter(60_000);
                engine.Advance(milliseconds);
            }

            for (var warm = random.Next(50); warm > 0; warm--)
            {
                BusyStep(1);
            }

            engine.Clock.AdvanceMilliseconds(random.NextDouble() * resolution / 2.0);
            var delay = 1 + random.Next(2_000);
            var elapsed = MicrosecondsUntilDone(engine, kind, delay, () => BusyStep(0.1));
            Assert.InRange(elapsed - delay * 1000L, 0, resolution * 1000L);
        }
    }

    [Fact]
    public void A_timeout_cancelled_before_its_seal_never_reaches_the_wheel()
    {
        var engine = new ManualEngine();
        var metrics = engine.Engine;
        var source = new CoarseCancellationTokenSource(engine.Engine, 100);
        Assert.Equal(1, engine.Pending);
        source.Dispose();
        Assert.Equal(0, engine.Pending);
        engine.Advance(200);
        Assert.Equal((1L, 0L, 1L), (metrics.ScheduledCount, metrics.FiredCount, metrics.CancelledCount));
        Assert.False(source.IsCancellationRequested);
    }

    [Fact]
    public void Entries_scheduled_between_two_seals_wait_for_the_next_one_and_are_sealed_in_order()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 10, shardCount: 1);
        using var first = new CoarseCancellationTokenSource(engine.Engine, 30);
        engine.Jump(0); // the first seal after an idle spell comes at once
        using var second = new CoarseCancellationTokenSource(engine.Engine, 30);
        using var third = new CoarseCancellationTokenSource(engine.Engine, 30);
        engine.Jump(4); // less than a tick (5 ms) since the last seal: the two wait
        engine.Jump(1); // sealed now, due 30 ms from here
        engine.Jump(25);
        Assert.True(first.IsCancellationRequested);
        Assert.False(second.IsCancellationRequested || third.IsCancellationRequested);
        engine.Jump(5);
        Assert.True(second.IsCancellationRequested && third.IsCancellationRequested);
    }

    // Starts a timeout of the given kind for delay now, then steps until it is done; returns the microseconds in between.
    private static long MicrosecondsUntilDone(ManualEngine engine, string kind, int delay, Action step)
    {
        var start = engine.Clock.GetTimestamp();
        long doneAt = -1;
        void Done() => doneAt = engine.Clock.GetTimestamp();
        IDisposable? owned = null;
        Task? delayed = null;
        switch (kind)
        {
            case "source":
                var source = new CoarseCancellationTokenSource(engine.Engine, delay);
                source.Token.Register(Done);
                owned = source;
                break;
            case "CancelAfter":
                var rearmed = new CoarseCancellationTokenSource(engine.Engine, 60_000);
                rearmed.CancelAfter(delay);
                rearmed.Token.Register(Done);
                owned = rearmed;
                break;
            case "linked CancelAfter":
                var linked = CoarseCancellationTokenSource.CreateLinked(engine.Engine, new CancellationTokenSource().Token);
                linked.CancelAfter(delay);
                linked.Token.Register(Done);
                owned = linked;
                break;
            case "one-shot Timer":
                owned = new CoarseTimer(engine.Engine, _ => Done(), null, delay, Timeout.Infinite, false);
                break;
            case "one-shot Timer.Change":
                var changed = new CoarseTimer(engine.Engine, _ => Done(), null, Timeout.Infinite, Timeout.Infinite, false);
                changed.Change(delay, Timeout.Infinite);
                owned = changed;
                break;
            case "Delay":
                // Its continuations run asynchronously (as Task.Delay's): read its completion, at the clock's time, instead.
                delayed = DelayPromise.Start(engine.Engine, delay, CancellationToken.None);
                break;
            default:
                CoarseTimeout.After(engine.Engine, delay).Register(Done);
                break;
        }

        while (doneAt < 0)
        {
            step();
            if (delayed?.IsCompleted == true)
            {
                Done();
            }
        }

        owned?.Dispose();
        return doneAt - start;
    }
}
