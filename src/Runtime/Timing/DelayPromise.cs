using System.Threading;
using System.Threading.Tasks;

namespace CoarseTimers.Timing;

/// <summary>
/// The task behind <see cref="CoarseTimer.Delay(int, CancellationToken)"/>: completes when its wheel entry expires,
/// or is cancelled with the caller's token. The shard lock decides which of the two wins, so it completes exactly once.
/// Its continuations run asynchronously, as <c>Task.Delay</c>'s do when its token is cancelled (since .NET 8): the code
/// after an <c>await</c> never runs inside the caller's <c>Cancel()</c>, which may hold a lock or be a callback itself.
/// </summary>
internal sealed class DelayPromise : TaskCompletionSource<bool>, ITimerTarget
{
#if !NET
    // On .NET the registration hands the token to the callback, so the promise need not keep it (8 bytes per delay).
    private readonly CancellationToken _cancellationToken;
#endif
    private TimerTicket _ticket;
    private CancellationTokenRegistration _registration;

#if NET
    private DelayPromise()
        : base(TaskCreationOptions.RunContinuationsAsynchronously)
    {
    }
#else
    private DelayPromise(CancellationToken cancellationToken)
        : base(TaskCreationOptions.RunContinuationsAsynchronously) => _cancellationToken = cancellationToken;
#endif

    /// <summary>Schedules a delay of <paramref name="milliseconds"/> (-1 for infinite, validated by the caller).</summary>
    public static Task Start(TimerEngine engine, long milliseconds, CancellationToken cancellationToken)
    {
        if (cancellationToken.IsCancellationRequested)
        {
            return System.Threading.Tasks.Task.FromCanceled(cancellationToken);
        }

        if (milliseconds == 0)
        {
            return System.Threading.Tasks.Task.CompletedTask;
        }

#if NET
        var promise = new DelayPromise();
#else
        var promise = new DelayPromise(cancellationToken);
#endif
        if (milliseconds != Timeout.Infinite)
        {
            promise._ticket = engine.Schedule(promise, milliseconds);
        }

        if (cancellationToken.CanBeCanceled)
        {
#if NET
            // As Task.Delay: no ExecutionContext is captured for the internal callback (ContextFreeRegistration on
            // .NET Framework and Mono).
            promise._registration = cancellationToken.UnsafeRegister(static (state, token) => ((DelayPromise)state!).OnCanceled(token), promise);
#else
            promise._registration = ContextFreeRegistration.Register(cancellationToken, static state => ((DelayPromise)state!).OnCanceled(((DelayPromise)state!)._cancellationToken), promise);
#endif
            if (promise.Task.IsCompleted)
            {
                // Expired (or cancelled inline) before the registration was stored: release it here.
                promise._registration.Dispose();
            }
        }

        return promise.Task;
    }

    public void OnExpired(TimerTicket ticket)
    {
        if (TrySetResult(true))
        {
            _registration.Dispose();
        }
    }

    private void OnCanceled(CancellationToken cancellationToken)
    {
        // An infinite delay has no entry; otherwise only the winner of the shard-lock race completes the task.
        if (_ticket.IsNone || TimerEngine.Cancel(_ticket))
        {
            TrySetCanceled(cancellationToken);
        }
    }
}
