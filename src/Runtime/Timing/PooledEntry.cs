namespace CoarseTimers.Timing;

/// <summary>
/// An entry rented from its shard's pool for one expiry of <see cref="AssignedTarget"/> and returned to it when released,
/// so that steady schedule+cancel traffic (timeout sources, delays) allocates no entry.
/// </summary>
internal sealed class PooledEntry : TimerEntry
{
    public PooledEntry(TimerShard shard)
        : base(shard)
    {
    }

    /// <summary>The target of the current expiry; null while the entry is free.</summary>
    public ITimerTarget? AssignedTarget;

    internal override ITimerTarget? Target => AssignedTarget;
}
