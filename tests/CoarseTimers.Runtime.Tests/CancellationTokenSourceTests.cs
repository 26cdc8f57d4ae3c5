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
    public void Zero_timeout_creates_a_cancelled_source_as_the_BCL()
    {
        using var bcl = new CancellationTokenSource(0);
        using var ours = new CoarseCancellationTokenSource(0);
        Assert.Equal(bcl.IsCancellationRequested, ours.IsCancellationRequested);
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

        // 512 slots of 10 ms: the driver visits the entry's slot within 5.12 s and drops it without expiring it.
        for (var elapsed = 0; elapsed < TimingWheel.SlotCount * 10; elapsed += 10)
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
    public void Linked_source_with_CancelAfter_times_out_and_dispose_unlinks()
    {
        var engine = new ManualEngine();
        using var outer = new CancellationTokenSource();
        var linked = CoarseCancellationTokenSource.CreateLinked(engine.Engine, outer.Token);
        linked.CancelAfter(TimeSpan.FromMilliseconds(50));
        engine.Advance(61);
        Assert.True(linked.IsCancellationRequested);
        Assert.False(outer.IsCancellationRequested);
        linked.Dispose();

        // Cancelling the outer token after dispose must not touch the disposed source.
        outer.Cancel();
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
#endif
}
