using System;
using System.Threading;
using System.Threading.Tasks;
using Xunit;

namespace CoarseTimers.Tests.Waiting;

public class WaitableConditionTests
{
    [Fact]
    public async Task A_blocked_waiter_wakes_on_Notify()
    {
        var condition = new WaitableCondition();
        var ready = false;
        var waiter = Task.Run(() => condition.Wait(() => Volatile.Read(ref ready), TimeSpan.FromSeconds(30)));
        SpinWait.SpinUntil(() => condition.WaiterCount == 1, TimeSpan.FromSeconds(30));
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
        var waiter = condition.WaitAsync(() => Volatile.Read(ref ready), TimeSpan.FromSeconds(30)).AsTask();
        Assert.False(waiter.IsCompleted);
        Volatile.Write(ref ready, true);
        condition.Notify();
        Assert.True(await waiter.WaitAsync(TimeSpan.FromSeconds(30)));
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
