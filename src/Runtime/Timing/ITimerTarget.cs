namespace CoarseTimers.Timing;

/// <summary>What an expired timer entry notifies: a delay task, a timeout source or a timer.</summary>
internal interface ITimerTarget
{
    /// <summary>
    /// Called once per expiry, on a thread-pool thread (or inline in tests), outside every engine lock.
    /// <paramref name="ticket"/> is the ticket the target was given when it scheduled the expiry, so a target that
    /// rescheduled in the meantime can ignore a stale expiry.
    /// </summary>
    void OnExpired(TimerTicket ticket);
}
