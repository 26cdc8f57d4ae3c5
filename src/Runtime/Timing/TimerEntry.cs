using System.ComponentModel;

namespace CoarseTimers.Timing;

/// <summary>
/// One pending expiry's place in the engine: linked into a slot of its shard's wheel or one of the shard's lists. Every
/// field is read and written only under that shard's lock, except <see cref="Shard"/>, which never changes.
/// Two kinds exist: a <see cref="PooledEntry"/>, rented from its shard per expiry and returned when it is released (timeout
/// sources, delays, buckets, periodic timers), and a one-shot <see cref="CoarseTimer"/>, which is its own entry, so that a
/// pending timer is one object (a pending timer's cost is mostly the collections that copy it: docs/benchmarks.md,
/// "Where the pending time goes"). Public only because <see cref="CoarseTimer"/> derives from it: nothing on it is
/// accessible, and nothing outside this assembly can derive from it.
/// </summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public abstract class TimerEntry
{
    private protected TimerEntry(TimerShard shard) => Shard = shard;

    /// <summary>The shard that owns this entry: cancelling touches this shard only, never the others.</summary>
    internal TimerShard Shard { get; }

    /// <summary>Bumped every time the entry is released, so stale <see cref="TimerTicket"/>s no longer match.</summary>
    internal int Generation;

    /// <summary>
    /// The wheel tick at or after which the entry expires; while unsealed (<see cref="TimerShard"/>), its delay in
    /// milliseconds; while in the shard's long-delay list, the number of the seal that covers it in the high 32 bits and
    /// its delay in milliseconds in the low 32.
    /// </summary>
    internal long DueTick;

    /// <summary>
    /// The slot the entry is linked into, <see cref="TimingWheel.OverflowSlot"/> (-3) in the wheel's overflow list, -2
    /// while unsealed and -4 in the long-delay list (<see cref="TimerShard"/>), or -1 when it is not linked.
    /// </summary>
    internal int Slot = -1;

    internal TimerEntry? Previous;
    internal TimerEntry? Next;

    /// <summary>What the expiry notifies: a pooled entry's current target, or the timer that is its own entry.</summary>
    internal abstract ITimerTarget? Target { get; }
}
