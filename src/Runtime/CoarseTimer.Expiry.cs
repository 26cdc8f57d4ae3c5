using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Timing;

namespace CoarseTimers;

/// <summary>
/// The scheduled state of a <see cref="CoarseTimer"/>, in the timer itself: one object per pending timer (the BCL's is
/// three: Timer, TimerHolder, TimerQueueTimer), because a pending timer's cost is mostly the collections that copy it
/// (docs/benchmarks.md, "Where the pending time goes"). Armed one-shot, the timer is its own wheel entry (it derives
/// from <see cref="TimerEntry"/>, and its expiry is numbered by the entry's generation in <see cref="_armedGeneration"/>);
/// armed periodic, a pooled entry notifies a <see cref="PeriodicSchedule"/> that holds the timer only weakly, so a
/// periodic timer that nobody references any more stops at its next period instead of firing (and rooting its
/// callback's captures) forever, as the BCL's Timer/TimerHolder pair does with a finalizer on every timer (an entry
/// linked into the wheel is referenced by it, so a periodic timer cannot be its own).
/// The timer counts its own running callbacks under its flag, so disposing waits for them without scanning shards
/// (the del_timer_sync lesson: remember where the work runs).
/// A periodic timer counts each period from the previous due time (<see cref="PeriodicSchedule.DueTimestamp"/>), as the BCL's does,
/// so pool latency and tick rounding do not accumulate from one period to the next; a one-shot timer is scheduled by
/// its delay and reads no clock.
/// Size: 104 B on 64-bit .NET (entry 40 B of fields, timer 48 B, header 16 B), under the BCL's 120 B for a timer, which
/// is why the flags share an int with the running-callback count and the periodic schedule a field with the dispose waiter.
/// </summary>
public sealed partial class CoarseTimer : TimerEntry, ITimerTarget
{
    private const uint NoPeriod = unchecked((uint)Timeout.Infinite);

    // Bits of _status below RunningCallbackUnit; the count of running callbacks above them.
    private const int DisposedFlag = 1;
    private const int DisposedWithWaitHandleFlag = 2;
    private const int ArmedOneShotFlag = 4;
    // Set by the constructor and never changed after it, so ChangeCore reads it without the flag.
    private const int ProviderTimerFlag = 8;
    private const int RunningCallbackUnit = 16;

    private static readonly ContextCallback s_runCallback = static self => ((CoarseTimer)self!).RunCallback();

    private readonly TimerCallback _callback;
    private readonly object? _state;
    private readonly ExecutionContext? _executionContext;

    // A SpinFlag guarding every field below: a compare-exchange instead of a Monitor enter+exit, twice per timer
    // (arm, dispose), and held only for a few dozen instructions (the engine's shard lock, taken inside it, never takes
    // a timer's flag, so the nesting cannot deadlock).
    private int _busy;

    // The flags above and the number of running callbacks (in units of RunningCallbackUnit).
    private int _status;

    // While ArmedOneShotFlag is set: the generation of this entry that numbers the pending expiry (its ticket is this
    // timer and that generation). Written by the shard under its lock, before the expiry can be dispatched.
    private int _armedGeneration;

    // 0 to 0xFFFFFFFE ms as the BCL accepts, or uint.MaxValue (Timeout.Infinite's bits) for none: 4 bytes, not 8.
    private uint _periodMilliseconds = NoPeriod;

    // Until the timer is disposed: its PeriodicSchedule while armed periodic (due time, pending ticket, a weak reference
    // to this timer), else null. Once disposed: what a disposal waiting for a running callback signals when the
    // callback ends, the WaitHandle given to Dispose(WaitHandle) or DisposeAsync's completion (never both: a completion
    // asked for after a wait-handle disposal is refused), else null. The two are never needed at once (a disposal
    // drops the schedule before it stores a waiter), so one field holds either and the timer stays at 104 B.
    private object? _periodicOrDisposeWaiter;

    internal override ITimerTarget Target => this;

    private TimerEngine Engine => Shard.Engine!;

    private PeriodicSchedule? Periodic
    {
        get => _periodicOrDisposeWaiter as PeriodicSchedule;
        set => _periodicOrDisposeWaiter = value;
    }

    private object? DisposeWaiter
    {
        get => _periodicOrDisposeWaiter is PeriodicSchedule ? null : _periodicOrDisposeWaiter;
        set => _periodicOrDisposeWaiter = value;
    }

    private int RunningCallbacks => _status / RunningCallbackUnit;

    private bool IsDisposed => (_status & DisposedFlag) != 0;

    void ITimerTarget.OnExpired(TimerTicket ticket)
    {
        SpinFlag.Enter(ref _busy);
        try
        {
            if (IsDisposed)
            {
                return;
            }

            if (ReferenceEquals(ticket.Entry, this))
            {
                // A stale expiry: the timer was changed after this one was taken off the wheel.
                if ((_status & ArmedOneShotFlag) == 0 || ticket.Generation != _armedGeneration)
                {
                    return;
                }

                _status &= ~ArmedOneShotFlag;
            }
            else
            {
                var periodic = Periodic;
                if (periodic is null || !ticket.Equals(periodic.Ticket))
                {
                    return;
                }

                // Rescheduled before the callback runs, as the BCL timer does: a slow callback may overlap the next one.
                // As the BCL, the period counts from this expiry's due time; a timer late by a whole period fires next tick.
                var engine = Engine;
                var clock = engine.Clock;
                var now = clock.GetTimestamp();
                var next = periodic.DueTimestamp + clock.FromMilliseconds(_periodMilliseconds);
                periodic.DueTimestamp = next > now ? next : now + clock.FromMilliseconds(1);
                periodic.Ticket = engine.ScheduleAt(periodic, periodic.DueTimestamp);
            }

            _status += RunningCallbackUnit;
        }
        finally
        {
            SpinFlag.Exit(ref _busy);
        }

        try
        {
            if (_executionContext is null)
            {
                _callback(_state);
            }
            else
            {
#if NET
                ExecutionContext.Run(_executionContext, s_runCallback, this);
#else
                // .NET Framework lets a captured context be used by one Run only (a second throws
                // InvalidOperationException on the pool thread); its own timer copies the context per fire, as here.
                // On .NET Core CreateCopy returns the same immutable context, so this costs nothing there.
                ExecutionContext.Run(_executionContext.CreateCopy(), s_runCallback, this);
#endif
            }
        }
        finally
        {
            object? waiter = null;
            SpinFlag.Enter(ref _busy);
            try
            {
                Debug.Assert(RunningCallbacks > 0, "a callback ends only after it started");
                _status -= RunningCallbackUnit;
                if (RunningCallbacks == 0 && IsDisposed)
                {
                    waiter = DisposeWaiter;
                    DisposeWaiter = null;
                }
            }
            finally
            {
                SpinFlag.Exit(ref _busy);
            }

            Signal(waiter);
        }
    }

    /// <summary>Re-arms the timer; false when it is disposed (arguments are validated by the caller).</summary>
    private bool TryRearm(long dueTime, long period)
    {
        SpinFlag.Enter(ref _busy);
        try
        {
            if (IsDisposed)
            {
                // The caller decides whether that throws (.NET Framework's Timer) or reports failure (.NET Core, ITimer).
                return false;
            }

            CancelPending();
            Arm(dueTime, period);
            return true;
        }
        finally
        {
            SpinFlag.Exit(ref _busy);
        }
    }

    /// <summary>
    /// Stops the timer; signals <paramref name="notification"/> / completes <paramref name="completion"/> once no
    /// callback runs. False if already disposed. As the BCL, a completion asked for after a disposal that was given a
    /// wait handle fails with <see cref="InvalidOperationException"/>.
    /// </summary>
    private bool Close(WaitHandle? notification, TaskCompletionSource<bool>? completion)
    {
        bool signalNow;
        SpinFlag.Enter(ref _busy);
        try
        {
            if (IsDisposed)
            {
                if (completion is not null)
                {
                    if ((_status & DisposedWithWaitHandleFlag) != 0)
                    {
                        // As the BCL: it will not wait on a caller's handle (it may be an auto-reset event), so it refuses.
                        completion.TrySetException(new InvalidOperationException("The Timer was already closed using an incompatible method."));
                    }
                    else if (RunningCallbacks == 0)
                    {
                        completion.TrySetResult(true);
                    }
                    else
                    {
                        // A later DisposeAsync still waits for a callback that is running.
                        var previous = DisposeWaiter as TaskCompletionSource<bool>;
                        DisposeWaiter = completion;
                        if (previous is not null)
                        {
                            completion.Task.ContinueWith(static (_, p) => ((TaskCompletionSource<bool>)p!).TrySetResult(true), previous, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
                        }
                    }
                }

                return false;
            }

            _status |= notification is null ? DisposedFlag : DisposedFlag | DisposedWithWaitHandleFlag;
            CancelPending();
            Periodic = null;
            signalNow = RunningCallbacks == 0;
            if (!signalNow)
            {
                DisposeWaiter = (object?)notification ?? completion;
            }
        }
        finally
        {
            SpinFlag.Exit(ref _busy);
        }

        if (signalNow)
        {
            Signal((object?)notification ?? completion);
        }

        return true;
    }

    // Under _busy: unlinks the pending expiry, one-shot or periodic, if any (one that already expired stays expired:
    // its stale notification is then ignored by OnExpired).
    private void CancelPending()
    {
        Debug.Assert(SpinFlag.IsHeld(ref _busy), "under the timer's flag");
        if ((_status & ArmedOneShotFlag) != 0)
        {
            TimerEngine.Cancel(this, _armedGeneration);
            _status &= ~ArmedOneShotFlag;
        }

        if (Periodic is { } periodic)
        {
            TimerEngine.Cancel(periodic.Ticket);
            periodic.Ticket = default;
        }
    }

    // Captures the creator's context as the runtime's own timer does: nothing when flow is suppressed or that timer
    // flows none (Mono: RuntimeTimer), and never the SynchronizationContext (callbacks run on the pool, not posted back
    // to the creator's UI thread).
    private static ExecutionContext? CaptureExecutionContext(TimerEngine engine)
    {
        // Capture itself returns null while flow is suppressed, on every runtime.
        if (!engine.TimersFlowExecutionContext)
        {
            return null;
        }

#if NET
        return ExecutionContext.Capture();
#else
        // .NET Framework's Capture takes the current SynchronizationContext too, which its own timer leaves out with an
        // internal option: capture while none is set. (.NET Core's context never holds one.)
        var synchronizationContext = SynchronizationContext.Current;
        if (synchronizationContext is null)
        {
            return ExecutionContext.Capture();
        }

        SynchronizationContext.SetSynchronizationContext(null);
        try
        {
            return ExecutionContext.Capture();
        }
        finally
        {
            SynchronizationContext.SetSynchronizationContext(synchronizationContext);
        }
#endif
    }

    // May run on a thread-pool thread after the last callback: it must not throw. The BCL signals the handle as an event
    // (SetEvent on its handle): an event is set, any other kind of handle (a Semaphore, a Mutex) is left as it is, and a
    // handle closed in the meantime is not an error.
    private static void Signal(object? waiter)
    {
        if (waiter is EventWaitHandle eventHandle)
        {
            try
            {
                eventHandle.Set();
            }
            catch (ObjectDisposedException)
            {
            }
        }
        else if (waiter is TaskCompletionSource<bool> completion)
        {
            completion.TrySetResult(true);
        }
    }

    // Called under _busy.
    private void Arm(long dueTime, long period)
    {
        Debug.Assert(SpinFlag.IsHeld(ref _busy), "Arm runs under the timer's flag");
        Debug.Assert((_status & ArmedOneShotFlag) == 0 && (Periodic is null || Periodic!.Ticket.IsNone), "the previous expiry was cancelled or consumed before re-arming");
        Schedule(dueTime, period);
    }

    // Under _busy, or from the constructor.
    private void Schedule(long dueTime, long period)
    {
        _periodMilliseconds = unchecked((uint)period);
        var periodic = Periodic;
        if (dueTime == Timeout.Infinite || period is 0 or Timeout.Infinite)
        {
            periodic = null;
        }

        if (dueTime != Timeout.Infinite && periodic is null && period is not (0 or Timeout.Infinite))
        {
            periodic = new PeriodicSchedule(this, rootOwner: (_status & ProviderTimerFlag) != 0);
        }

        Periodic = periodic;
        if (dueTime == Timeout.Infinite)
        {
            return;
        }

        var engine = Engine;
        if (periodic is null)
        {
            // A one-shot timer is its own entry and needs no due time of its own: scheduled by its delay, it reads no
            // clock (TimerEngine, "Sealing"). Flagged before it is linked, so its expiry finds it armed.
            _status |= ArmedOneShotFlag;
            engine.Schedule(this, dueTime, ref _armedGeneration);
        }
        else
        {
            // A periodic timer counts each period from this due time, so it needs the time itself.
            periodic.DueTimestamp = engine.Now() + engine.FromMilliseconds(dueTime);
            engine.ScheduleAt(periodic, periodic.DueTimestamp, ref periodic.Ticket);
        }
    }

    private void RunCallback() => _callback(_state);
}
