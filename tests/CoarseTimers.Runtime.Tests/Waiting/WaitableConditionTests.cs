using System;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Tests.Infrastructure;
using Xunit;

namespace CoarseTimers.Tests.Waiting;

public class WaitableConditionTests
{
    [Fact]
    public async Task A_blocked_waiter_wakes_on_Notify()
    {
        var condition = new WaitableCondition();
        var ready = false;
        // No timeout: a waiter that Notify failed to wake would never return, and the bounded await below would fail.
        var waiter = Task.Run(() => condition.Wait(() => Volatile.Read(ref ready), Timeout.InfiniteTimeSpan));
        Assert.True(SpinWait.SpinUntil(() => condition.WaiterCount == 1, TimeSpan.FromSeconds(30)));
        Volatile.Write(ref ready, true);
        condition.Notify();
        Assert.True(await waiter.WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Equal(0, condition.WaiterCount);
    }

    [Fact]
    public async Task An_async_waiter_wakes_on_Notify()
    {
        var condition = new WaitableCondition();
        var ready = false;
        var waiter = condition.WaitAsync(() => Volatile.Read(ref ready), Timeout.InfiniteTimeSpan).AsTask();
        Assert.False(waiter.IsCompleted);
        Volatile.Write(ref ready, true);
        condition.Notify();
        Assert.True(await waiter.WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Equal(0, condition.WaiterCount);
    }

    [Fact]
    public async Task A_predicate_may_take_a_lock_the_producer_holds_while_notifying()
    {
        var condition = new WaitableCondition();
        var producerLock = new object();
        var ready = false;
        using var predicateEntered = new ManualResetEventSlim();
        using var producerHolds = new ManualResetEventSlim();
        var producer = Task.Run(() =>
        {
            lock (producerLock)
            {
                producerHolds.Set();
                Assert.True(predicateEntered.Wait(TimeSpan.FromSeconds(30)));
                ready = true;
                condition.Notify();
            }
        });
        Assert.True(producerHolds.Wait(TimeSpan.FromSeconds(30)));
        var consumer = Task.Run(() => condition.WaitAsync(
            () =>
            {
                predicateEntered.Set();
                lock (producerLock)
                {
                    return ready;
                }
            },
            Timeout.InfiniteTimeSpan).AsTask());

        // Were the predicate run under the condition's lock, the producer's Notify would wait for it forever.
        await producer.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.True(await consumer.WaitAsync(TimeSpan.FromSeconds(30)));
    }

    [Fact]
    public async Task An_async_wait_holds_one_timeout_entry_however_often_it_is_woken()
    {
        var engine = new ManualEngine();
        var condition = new WaitableCondition(engine.Engine);
        using var cancellation = new CancellationTokenSource();
        var evaluations = 0;
        var waiter = condition.WaitAsync(() => Interlocked.Increment(ref evaluations) < 0, TimeSpan.FromSeconds(30), cancellation.Token).AsTask();
        for (var wakeUp = 1; wakeUp <= 50; wakeUp++)
        {
            condition.Notify();
            Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref evaluations) > wakeUp && condition.WaiterCount == 1, TimeSpan.FromSeconds(30)));
            Assert.Equal(1, engine.Pending);
        }

        Assert.False(waiter.IsCompleted);
        cancellation.Cancel();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => waiter.WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Equal(0, engine.Pending);
        Assert.Equal(0, condition.WaiterCount);
    }

    [Fact]
    public async Task An_async_wait_times_out_no_earlier_than_asked_and_looks_once_more()
    {
        var engine = new ManualEngine();
        var condition = new WaitableCondition(engine.Engine);
        var waiter = condition.WaitAsync(() => false, TimeSpan.FromMilliseconds(100)).AsTask();
        engine.Advance(99);
        await Task.Delay(10);
        Assert.False(waiter.IsCompleted);
        engine.Advance(11);
        Assert.False(await waiter.WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Equal(0, engine.Pending);
        Assert.Equal(0, condition.WaiterCount);
    }

    [Fact]
    public async Task Timeouts_return_false()
    {
        var condition = new WaitableCondition();
        Assert.False(condition.Wait(() => false, TimeSpan.FromMilliseconds(2)));
        Assert.False(await condition.WaitAsync(() => false, TimeSpan.FromMilliseconds(2)));
        Assert.Equal(0, condition.WaiterCount);
    }

    [Fact]
    public async Task Async_wait_honours_cancellation_and_unregisters()
    {
        var condition = new WaitableCondition();
        using var cts = new CancellationTokenSource();
        var waiter = condition.WaitAsync(() => false, cts.Token).AsTask();
        cts.Cancel();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => waiter.WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Equal(0, condition.WaiterCount);
    }

    [Fact]
    public void Blocking_wait_honours_cancellation()
    {
        var condition = new WaitableCondition();
        using var cts = new CancellationTokenSource(TimeSpan.FromMilliseconds(2));
        Assert.Throws<OperationCanceledException>(() => condition.Wait(() => false, Timeout.InfiniteTimeSpan, cts.Token));
    }

    [Fact]
    public async Task Throwing_predicates_propagate()
    {
        var condition = new WaitableCondition();
        Assert.Throws<InvalidOperationException>(() => condition.Wait(() => throw new InvalidOperationException()));
        await Assert.ThrowsAsync<InvalidOperationException>(async () => await condition.WaitAsync(() => throw new InvalidOperationException(), TimeSpan.FromSeconds(1)));
        Assert.Equal(0, condition.WaiterCount);
    }

    [Fact]
    public void Validates_arguments()
    {
        var condition = new WaitableCondition();
        Assert.Throws<ArgumentNullException>("predicate", () => condition.Wait(null!));
        Assert.Throws<ArgumentOutOfRangeException>("timeout", () => condition.Wait(() => true, TimeSpan.FromMilliseconds(-2)));
    }
}
