namespace CoarseTimers.Timing;

/// <summary>
/// A timer target that can stop needing its pending expiry without telling the engine, because telling it would cost
/// every operation something (a <see cref="CoarseCancellationTokenSource"/> cancelled early: <c>Cancel()</c> is not
/// virtual, and a registration on its own token would cost a node per source). The wheel drops such an entry the next
/// time the driver visits its slot, so it is retained at most one wheel revolution, never until its due time.
/// </summary>
internal interface IRetractableTarget
{
    /// <summary>True once the pending expiry would do nothing; read by the driver under the shard lock.</summary>
    bool IsRetracted { get; }
}
