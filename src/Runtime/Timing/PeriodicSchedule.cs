using System;

namespace CoarseTimers.Timing;

/// <summary>
/// What a periodic timer keeps besides itself, and what its wheel entry (a pooled one) notifies: when the current period is due (each period counts from
/// the previous due time, as the BCL's does) and a weak reference to the public <see cref="CoarseTimer"/>, checked at
/// every expiry, so that a periodic timer nobody references any more stops at its next period instead of firing, and
/// rooting its callback's captures, forever. The BCL gives every timer a finalizable holder for that; a finalizable
/// allocation costs more than the rest of a timer's creation (docs/runtime.md, "Where the time goes"), so here only a
/// timer armed periodic pays it, once (a <see cref="WeakReference"/> frees its handle from its own finalizer). A one-shot
/// timer needs neither: it fires at most once whether or not it is still referenced, as a BCL timer does when no
/// collection comes before its due time. A timer from <see cref="CoarseTimeProvider"/> is held strongly instead, as
/// <c>TimeProvider.System</c>'s timers are rooted by their queue while armed: a <c>PeriodicTimer</c> loop awaiting
/// one keeps running when nothing else references it.
/// </summary>
internal sealed class PeriodicSchedule : WeakReference, ITimerTarget
{
    // Set only for a timer that must run while armed even when unreferenced (a provider's): the wheel entry roots this
    // schedule while it is pending, and so the timer; released with the entry when the timer stops or is disposed.
    private readonly ITimerTarget? _rootedOwner;

    public PeriodicSchedule(CoarseTimer owner, bool rootOwner)
        : base(owner)
    {
        _rootedOwner = rootOwner ? owner : null;
    }

    /// <summary>When the current period is due, in the engine clock's units.</summary>
    public long DueTimestamp { get; set; }

    /// <summary>
    /// The pending expiry of the current period (a pooled entry that notifies this schedule), or none; read and written
    /// under the timer's flag, and a field so the engine can store it under its shard lock.
    /// </summary>
    public TimerTicket Ticket;

    /// <summary>
    /// The wheel entry of a periodic timer notifies this, not the timer: a timer still referenced runs its period; one
    /// that has been collected is gone, and so is its period (this schedule is dropped with the expired entry).
    /// </summary>
    void ITimerTarget.OnExpired(TimerTicket ticket)
    {
        if ((_rootedOwner ?? Target) is ITimerTarget timer)
        {
            timer.OnExpired(ticket);
        }
    }
}
