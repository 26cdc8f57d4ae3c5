using System;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Timing;

namespace CoarseTimers.Waiting;

/// <summary>
/// The timeout and the cancellation of one <see cref="WaitableCondition.WaitAsync(Func{bool}, TimeSpan, CancellationToken)"/>:
/// one wheel entry and one token registration for the whole wait, however many times it is woken, removed by
/// <see cref="Dispose"/>. Whichever fires first completes the signal the waiter awaits at that moment.
/// </summary>
internal sealed class AsyncWaitStop : ITimerTarget, IDisposable
{
    private readonly TimerTicket _ticket;
    private readonly CancellationTokenRegistration _registration;
    private TaskCompletionSource<bool>? _current;
    private int _fired;

    public AsyncWaitStop(TimerEngine engine, long milliseconds, CancellationToken cancellationToken)
    {
        if (milliseconds != Timeout.Infinite)
        {
            _ticket = engine.Schedule(this, milliseconds);
        }

        if (cancellationToken.CanBeCanceled)
        {
            _registration = cancellationToken.Register(static state => ((AsyncWaitStop)state!).Fire(), this);
        }
    }

    /// <summary>True once the timeout passed or the token was cancelled.</summary>
    public bool HasFired => Volatile.Read(ref _fired) != 0;

    /// <summary>Makes <paramref name="signal"/> the one to complete on firing (at once if it already fired).</summary>
    public void Watch(TaskCompletionSource<bool> signal)
    {
        // Both sides write, then read the other's field, with full fences: one of them sees the other, so no wake-up is lost.
        Interlocked.Exchange(ref _current, signal);
        if (HasFired)
        {
            signal.TrySetResult(true);
        }
    }

    void ITimerTarget.OnExpired(TimerTicket ticket) => Fire();

    public void Dispose()
    {
        TimerEngine.Cancel(_ticket);
        _registration.Dispose();
    }

    private void Fire()
    {
        Interlocked.Exchange(ref _fired, 1);
        Volatile.Read(ref _current)?.TrySetResult(true);
    }
}
