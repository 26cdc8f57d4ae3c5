namespace CoarseTimers.Timing;

/// <summary>
/// One pending expiry, linked into a slot of its shard's wheel. Entries belong to one shard for life and are pooled
/// by it: every field is read and written only under that shard's lock, except <see cref="Shard"/>, which never changes.
/// </summary>
internal sealed class TimerEntry
{
    public TimerEntry(TimerShard shard) => Shard = shard;

    /// <summary>The shard that owns this entry: cancelling touches this shard only, never the others.</summary>
    public TimerShard Shard { get; }

    /// <summary>Bumped every time the entry is released, so stale <see cref="TimerTicket"/>s no longer match.</summary>
    public int Generation;

    /// <summary>
    /// The wheel tick at or after which the entry expires; while unsealed (<see cref="TimerShard"/>), its delay in
    /// milliseconds; while in the shard's long-delay list, the number of the seal that covers it in the high 32 bits and
    /// its delay in milliseconds in the low 32.
    /// </summary>
    public long DueTick;

    /// <summary>
    /// The slot the entry is linked into, <see cref="TimingWheel.OverflowSlot"/> (-3) in the wheel's overflow list, -2
    /// while unsealed and -4 in the long-delay list (<see cref="TimerShard"/>), or -1 when it is not linked.
    /// </summary>
    public int Slot = -1;

    public TimerEntry? Previous;
    public TimerEntry? Next;
    public ITimerTarget? Target;
}
