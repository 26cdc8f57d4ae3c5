using System;
using System.Threading;
using System.Threading.Tasks;

// Stub: member docs arrive with the implementation.
#pragma warning disable CS1591

namespace CoarseTimers;

/// <summary>
/// CONTRACT STUB: the public surface the code fixes rewrite to. Signatures are agreed; the sharded timing-wheel
/// implementation replaces every body (issue: "Runtime: the sharded coarse-timer").
/// Replacement for <see cref="System.Threading.Timer"/> (constructors, <c>Change</c>, <c>Dispose</c>) and, through the
/// static <c>Delay</c> overloads, for <see cref="Task.Delay(int)"/>.
/// </summary>
public sealed class CoarseTimer : ITimer
{
    public CoarseTimer(TimerCallback callback) => throw new NotImplementedException();

    public CoarseTimer(TimerCallback callback, object? state, int dueTime, int period) => throw new NotImplementedException();

    public CoarseTimer(TimerCallback callback, object? state, long dueTime, long period) => throw new NotImplementedException();

    public CoarseTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period) => throw new NotImplementedException();

    [CLSCompliant(false)]
    public CoarseTimer(TimerCallback callback, object? state, uint dueTime, uint period) => throw new NotImplementedException();

    public bool Change(int dueTime, int period) => throw new NotImplementedException();

    public bool Change(long dueTime, long period) => throw new NotImplementedException();

    public bool Change(TimeSpan dueTime, TimeSpan period) => throw new NotImplementedException();

    [CLSCompliant(false)]
    public bool Change(uint dueTime, uint period) => throw new NotImplementedException();

    public void Dispose() => throw new NotImplementedException();

    public bool Dispose(WaitHandle notifyObject) => throw new NotImplementedException();

    public ValueTask DisposeAsync() => throw new NotImplementedException();

    public static Task Delay(int millisecondsDelay) => Task.Delay(millisecondsDelay);

    public static Task Delay(TimeSpan delay) => Task.Delay(delay);

    public static Task Delay(int millisecondsDelay, CancellationToken cancellationToken) => Task.Delay(millisecondsDelay, cancellationToken);

    public static Task Delay(TimeSpan delay, CancellationToken cancellationToken) => Task.Delay(delay, cancellationToken);
}
