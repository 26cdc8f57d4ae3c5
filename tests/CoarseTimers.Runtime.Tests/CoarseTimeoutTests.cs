using System;
using System.Collections.Generic;
using System.Threading;
using CoarseTimers.Tests.Infrastructure;
using CoarseTimers.Timing;
using Xunit;

namespace CoarseTimers.Tests;

public class CoarseTimeoutTests
{
    public static TheoryData<double> TimeSpanMilliseconds => new() { double.NegativeInfinity, -1e12, -2, -1.5, -1, -0.5, 0, 0.5, 1, 4294967294, 4294967295, 1e12 };

    public static TheoryData<int> IntMilliseconds => new() { int.MinValue, -2, -1, 0, 1, int.MaxValue };

    [Theory]
    [MemberData(nameof(TimeSpanMilliseconds))]
    public void After_validates_as_the_CancellationTokenSource_constructor(double milliseconds)
    {
        var delay = milliseconds is double.NegativeInfinity ? TimeSpan.MinValue : TimeSpan.FromMilliseconds(milliseconds);
        Same.Outcome(() => new CancellationTokenSource(delay).Dispose(), () => CoarseTimeout.After(delay));
    }

    [Theory]
    [MemberData(nameof(IntMilliseconds))]
    public void After_int_validates_as_the_CancellationTokenSource_constructor(int milliseconds) =>
        Same.Outcome(() => new CancellationTokenSource(milliseconds).Dispose(), () => CoarseTimeout.After(milliseconds));

    [Theory]
    [MemberData(nameof(TimeSpanMilliseconds))]
    public void CreateLinkedTokenSource_validates_as_CreateLinkedTokenSource_then_CancelAfter(double milliseconds)
    {
        var delay = milliseconds is double.NegativeInfinity ? TimeSpan.MinValue : TimeSpan.FromMilliseconds(milliseconds);
        using var outer = new CancellationTokenSource();
        Same.Outcome(
            () =>
            {
                using var bcl = CancellationTokenSource.CreateLinkedTokenSource(outer.Token);
                bcl.CancelAfter(delay);
            },
            () => CoarseTimeout.CreateLinkedTokenSource(outer.Token, delay).Dispose());
    }

    [Theory]
    [MemberData(nameof(IntMilliseconds))]
    public void CreateLinkedTokenSource_int_validates_as_CreateLinkedTokenSource_then_CancelAfter(int milliseconds)
    {
        using var outer = new CancellationTokenSource();
        Same.Outcome(
            () =>
            {
                using var bcl = CancellationTokenSource.CreateLinkedTokenSource(outer.Token);
                bcl.CancelAfter(milliseconds);
            },
            () => CoarseTimeout.CreateLinkedTokenSource(outer.Token, milliseconds).Dispose());
    }

    [Fact]
    public void Zero_does_as_a_zero_timeout_source_of_the_runtime()
    {
        // .NET Framework (and Mono) cancel new CancellationTokenSource(0) from a timer shortly after; .NET Core at once.
        using var bcl = new CancellationTokenSource(0);
        Assert.True(bcl.Token.WaitHandle.WaitOne(TimeSpan.FromSeconds(10)));
        var token = CoarseTimeout.After(0);
        Assert.True(token.WaitHandle.WaitOne(TimeSpan.FromSeconds(10)));
        Assert.Equal(bcl.Token.CanBeCanceled, token.CanBeCanceled);
        Assert.True(CoarseTimeout.After(TimeSpan.Zero).WaitHandle.WaitOne(TimeSpan.FromSeconds(10)));
#if !COARSE_NETFRAMEWORK
        Assert.True(CoarseTimeout.After(0).IsCancellationRequested);
#endif
    }

    [Fact]
    public void Zero_where_the_runtime_starts_a_timer_takes_the_shortest_bucket_and_never_cancels_inline()
    {
        var engine = new ManualEngine();
        var token = CoarseTimeout.After(engine.Engine, 0);
#if COARSE_NETFRAMEWORK
        // A callback registered right after runs on the driver's expiry, as on the runtime's timer thread, not in Register.
        Assert.False(InlineRegistration.RunsInsideRegister(token));
        Assert.False(token.IsCancellationRequested);
        engine.Advance(20);
        Assert.True(token.IsCancellationRequested);
#else
        Assert.True(token.IsCancellationRequested);
        Assert.Equal(0, engine.Pending);
#endif
    }

    [Fact]
    public void Infinite_is_a_token_of_its_own_that_is_never_cancelled_as_an_infinite_timeout_source()
    {
        // Code that tests the token (`if (!token.CanBeCanceled) ...`, `token == CancellationToken.None`) must see what it
        // saw with `new CancellationTokenSource(timeout).Token` when a configured timeout turns out to be infinite.
        var bcl = new CancellationTokenSource(Timeout.Infinite).Token;
        var engine = new ManualEngine(resolutionMilliseconds: 10);
        foreach (var token in new[] { CoarseTimeout.After(Timeout.Infinite), CoarseTimeout.After(Timeout.InfiniteTimeSpan), CoarseTimeout.After(engine.Engine, Timeout.Infinite) })
        {
            Assert.Equal(bcl.CanBeCanceled, token.CanBeCanceled);
            Assert.NotEqual(CancellationToken.None, token);
            Assert.False(token.IsCancellationRequested);
        }

        Assert.NotEqual(CoarseTimeout.After(Timeout.Infinite), CoarseTimeout.After(Timeout.Infinite));
        Assert.Equal(0, engine.Pending); // no timer
    }

    [Fact]
    public void Is_cancelled_no_earlier_than_asked_and_at_most_one_resolution_later()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 10);
        engine.Clock.AdvanceMilliseconds(3.7);
        var token = CoarseTimeout.After(engine.Engine, 100);
        engine.Advance(99.9);
        Assert.False(token.IsCancellationRequested);
        engine.Advance(10);
        Assert.True(token.IsCancellationRequested);
        Assert.Equal(0, engine.Pending);
    }

    [Fact]
    public void Callers_of_one_epoch_with_one_timeout_share_one_token_and_the_next_epoch_starts_another()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 10);
        var first = CoarseTimeout.After(engine.Engine, 100);
        engine.Clock.AdvanceMilliseconds(4); // no driver wake-up in between: the same epoch
        var second = CoarseTimeout.After(engine.Engine, 100);
        var otherTimeout = CoarseTimeout.After(engine.Engine, 200);
        Assert.Equal(first, second);
        Assert.NotEqual(first, otherTimeout);
        Assert.Equal(2, engine.Pending);

        engine.Advance(5); // the driver seals both and publishes the next epoch
        var third = CoarseTimeout.After(engine.Engine, 100);
        Assert.NotEqual(first, third);
        Assert.Equal(3, engine.Pending);
    }

    [Fact]
    public void A_thread_asking_two_engines_in_turn_gets_each_engines_own_token()
    {
        // Both engines start at epoch 0: the thread's cached bucket of one must not answer for the other.
        var one = new ManualEngine(resolutionMilliseconds: 10);
        var other = new ManualEngine(resolutionMilliseconds: 10);
        var fromOne = CoarseTimeout.After(one.Engine, 100);
        var fromOther = CoarseTimeout.After(other.Engine, 100);
        Assert.NotEqual(fromOne, fromOther);
        Assert.Equal(fromOne, CoarseTimeout.After(one.Engine, 100));
        Assert.Equal(fromOther, CoarseTimeout.After(other.Engine, 100));
        Assert.Equal(1, one.Pending);
        Assert.Equal(1, other.Pending);

        one.Advance(120);
        Assert.True(fromOne.IsCancellationRequested);
        Assert.False(fromOther.IsCancellationRequested);
        other.Advance(120);
        Assert.True(fromOther.IsCancellationRequested);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void A_caller_descheduled_across_a_seal_still_waits_its_whole_timeout_and_is_not_lost(bool bucketExisted)
    {
        // The race the epoch design must survive: a caller reads epoch e (its call has begun), is descheduled while
        // the driver publishes e + 1 and seals e's buckets, and only then takes its bucket: the one sealed already, or
        // a new one that must still be sealed and fire. Either way not earlier than the timeout after it read e.
        var engine = new ManualEngine(resolutionMilliseconds: 10);
        var readAt = engine.Clock.GetTimestamp();
        var staleEpoch = engine.Engine.TokenEpoch;
        _ = CoarseTimeout.After(engine.Engine, bucketExisted ? 100 : 1_000); // something for the driver to seal
        engine.Advance(50);
        Assert.NotEqual(staleEpoch, engine.Engine.TokenEpoch);

        var token = engine.Engine.TimeoutToken(staleEpoch, 100);
        long cancelledAt = -1;
        token.Register(() => cancelledAt = engine.Clock.GetTimestamp());
        while (cancelledAt < 0 && engine.Clock.GetTimestamp() - readAt < 1_000_000)
        {
            engine.Advance(0.5);
        }

        Assert.True(cancelledAt - readAt >= 100_000, $"cancelled {cancelledAt - readAt} us after reading the epoch, asked 100 ms");
        Assert.True(cancelledAt - readAt <= 160_000, $"cancelled {cancelledAt - readAt} us after reading the epoch: the bucket was lost or sealed late");
    }

    [Theory]
    [InlineData(100)]
    [InlineData(10_000)] // longer than a revolution (5.12 s at 10 ms): not through the long-delay list either
    public void A_bucket_created_between_the_epoch_increment_and_its_shards_seal_is_never_early_for_later_callers(int timeoutMs)
    {
        // The driver publishes epoch e, then seals shard by shard. A thread that reads e in between and creates its
        // bucket before the driver reaches the shard must not have it sealed by that seal's reading: callers of e go on
        // getting that bucket until e + 1 is published, and one of them a few milliseconds later would be early.
        var engine = new ManualEngine(resolutionMilliseconds: 10, shardCount: 1);
        using var traffic = new CoarseCancellationTokenSource(engine.Engine, 60_000); // a seal is pending
        engine.Clock.AdvanceMilliseconds(20);
        var epochBefore = engine.Engine.TokenEpoch;
        var creatorToken = default(CancellationToken);
        engine.Clock.OnRead = () =>
        {
            if (engine.Engine.TokenEpoch != epochBefore)
            {
                engine.Clock.OnRead = null;
                creatorToken = engine.Engine.TimeoutToken(timeoutMs);
            }
        };
        engine.Jump(0);
        Assert.NotEqual(epochBefore, engine.Engine.TokenEpoch);
        Assert.True(creatorToken.CanBeCanceled, "the bucket was created between the increment and the shard's seal");

        engine.Jump(4); // under a tick (5 ms): still the same epoch
        var askedAt = engine.Clock.GetTimestamp();
        var token = engine.Engine.TimeoutToken(timeoutMs);
        Assert.Equal(creatorToken, token);
        long cancelledAt = -1;
        token.Register(() => cancelledAt = engine.Clock.GetTimestamp());
        while (cancelledAt < 0 && engine.Clock.GetTimestamp() - askedAt < (timeoutMs + 1_000) * 1_000L)
        {
            engine.Advance(0.1);
        }

        Assert.True(cancelledAt - askedAt >= timeoutMs * 1_000L, $"cancelled {cancelledAt - askedAt} us after the caller asked for {timeoutMs} ms");
        Assert.True(cancelledAt - askedAt <= (timeoutMs + 10) * 1_000L, $"cancelled {cancelledAt - askedAt} us after the caller asked for {timeoutMs} ms: later than a resolution");
    }

    [Fact]
    public void Epochs_advance_only_while_entries_wait_to_be_sealed_and_at_most_once_per_tick()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 10);
        var epoch = engine.Engine.TokenEpoch;
        engine.Advance(1_000);
        Assert.Equal(epoch, engine.Engine.TokenEpoch); // nothing to seal: no epoch, no wake-up needed

        _ = CoarseTimeout.After(engine.Engine, 30_000);
        engine.Jump(1);
        Assert.Equal(epoch + 1, engine.Engine.TokenEpoch); // the first seal after an idle spell is immediate
        _ = CoarseTimeout.After(engine.Engine, 30_000);
        engine.Jump(3);
        Assert.Equal(epoch + 1, engine.Engine.TokenEpoch); // within the tick (5 ms) since the last seal: it waits
        engine.Jump(2);
        Assert.Equal(epoch + 2, engine.Engine.TokenEpoch);
    }

#if !COARSE_NETFRAMEWORK
    // GC.GetAllocatedBytesForCurrentThread does not exist on .NET Framework.
    [Fact]
    public void Taking_a_token_from_an_existing_bucket_allocates_nothing()
    {
        var engine = new ManualEngine();
        _ = CoarseTimeout.After(engine.Engine, 30_000);
        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < 1_000; i++)
        {
            _ = CoarseTimeout.After(engine.Engine, 30_000);
        }

        Assert.Equal(before, GC.GetAllocatedBytesForCurrentThread());
    }
#endif

    [Fact]
    public void A_disposed_registration_does_not_run_and_a_kept_one_runs_once_when_the_bucket_is_cancelled()
    {
        var engine = new ManualEngine();
        var token = CoarseTimeout.After(engine.Engine, 50);
        var runs = new List<string>();
        token.Register(() => runs.Add("kept")).Dispose();
        token.Register(() => runs.Add("kept"));
        using (token.Register(() => runs.Add("disposed")))
        {
        }

        engine.Advance(70);
        Assert.Equal(new[] { "kept" }, runs);
    }

    [Fact]
    public void The_exception_of_a_cancelled_wait_carries_the_token_the_caller_was_given()
    {
        var engine = new ManualEngine();
        var token = CoarseTimeout.After(engine.Engine, 20);
        engine.Advance(40);
        var exception = Assert.Throws<OperationCanceledException>(() => token.ThrowIfCancellationRequested());
        Assert.Equal(token, exception.CancellationToken);
        Assert.True(token.WaitHandle.WaitOne(0));
    }

    [Fact]
    public void Linked_source_times_out_no_earlier_than_asked()
    {
        var engine = new ManualEngine();
        using var outer = new CancellationTokenSource();
        using var linked = CoarseTimeout.CreateLinked(engine.Engine, outer.Token, 100);
        engine.Advance(99);
        Assert.False(linked.IsCancellationRequested);
        engine.Advance(11);
        Assert.True(linked.IsCancellationRequested);
        Assert.False(outer.IsCancellationRequested);
        var exception = Assert.Throws<OperationCanceledException>(() => linked.Token.ThrowIfCancellationRequested());
        Assert.Equal(linked.Token, exception.CancellationToken);
    }

    [Fact]
    public void Linked_source_is_cancelled_by_its_token_and_can_be_cancelled_early()
    {
        var engine = new ManualEngine();
        using var outer = new CancellationTokenSource();
        using var linked = CoarseTimeout.CreateLinked(engine.Engine, outer.Token, 30_000);
        outer.Cancel();
        Assert.True(linked.IsCancellationRequested);

        using var own = CoarseTimeout.CreateLinked(engine.Engine, CancellationToken.None, 30_000);
        own.Cancel();
        Assert.True(own.IsCancellationRequested);

        using var started = CoarseTimeout.CreateLinked(engine.Engine, outer.Token, 30_000);
        Assert.True(started.IsCancellationRequested);
    }

    [Fact]
    public void Disposed_linked_source_is_not_cancelled_by_its_timeout_or_token()
    {
        var engine = new ManualEngine();
        using var outer = new CancellationTokenSource();
        var linked = CoarseTimeout.CreateLinked(engine.Engine, outer.Token, 50);
        var token = linked.Token;
        linked.Dispose();
        engine.Advance(100);
        outer.Cancel();
        Assert.False(token.IsCancellationRequested);
    }

    [Fact]
    public void Linked_source_with_zero_is_cancelled_soon_not_inline_and_with_infinite_never_times_out()
    {
        // As CreateLinkedTokenSource(ct) + CancelAfter(0): the BCL's timer cancels it a moment later, on its own thread,
        // so a callback registered right after the call does not run inside Register.
        var engine = new ManualEngine();
        using var zero = CoarseTimeout.CreateLinked(engine.Engine, CancellationToken.None, 0);
        Assert.False(InlineRegistration.RunsInsideRegister(zero.Token));
        Assert.False(zero.IsCancellationRequested);
        engine.Advance(20);
        Assert.True(zero.IsCancellationRequested);

        using var outer = new CancellationTokenSource();
        using var infinite = CoarseTimeout.CreateLinked(engine.Engine, outer.Token, Timeout.Infinite);
        engine.Advance(100_000);
        Assert.False(infinite.IsCancellationRequested);
        Assert.Equal(0, engine.Pending);
        outer.Cancel();
        Assert.True(infinite.IsCancellationRequested);
    }

    [Fact]
    public void A_slow_callback_on_one_linked_source_does_not_hold_up_another_of_the_same_bucket()
    {
        // Each BCL source's timer fires as a work item of its own. The bucket runs its registrations one after another,
        // most recent first, so the blocking source is linked last: cancelled inline there, it would hold up the first.
        var engine = new ManualEngine(inlineCallbacks: false);
        using var release = new ManualResetEventSlim();
        using var blocking = new ManualResetEventSlim();
        using var first = CoarseTimeout.CreateLinked(engine.Engine, CancellationToken.None, 50);
        using var slow = CoarseTimeout.CreateLinked(engine.Engine, CancellationToken.None, 50);
        using var registration = slow.Token.Register(() =>
        {
            blocking.Set();
            release.Wait();
        });
        try
        {
            engine.Advance(100);
            Assert.True(blocking.Wait(TimeSpan.FromSeconds(30)), "the slow callback never ran");
            Assert.True(first.Token.WaitHandle.WaitOne(TimeSpan.FromSeconds(30)), "the other linked source waited for the slow callback");
        }
        finally
        {
            release.Set();
        }
    }

    [Fact]
    public void Linked_source_timeout_queued_before_a_dispose_does_not_cancel_it_or_throw()
    {
        var engine = new ManualEngine();
        var linked = (LinkedTimeoutSource)CoarseTimeout.CreateLinked(engine.Engine, CancellationToken.None, 50);
        var token = linked.Token;
        linked.Dispose();
        linked.CancelUnlessDisposed();
        Assert.False(token.IsCancellationRequested);
    }

    [Fact]
    public void Linked_source_of_an_already_cancelled_token_is_returned_cancelled()
    {
        var engine = new ManualEngine(inlineCallbacks: false);
        using var linked = CoarseTimeout.CreateLinked(engine.Engine, new CancellationToken(canceled: true), 30_000);
        Assert.True(linked.IsCancellationRequested);
    }
}
