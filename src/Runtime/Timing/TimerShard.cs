using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace CoarseTimers.Timing;

/// <summary>
/// One stripe of the timer engine: its own lock, its own <see cref="TimingWheel"/> and its own pool of entries.
/// Threads schedule into "their" shard (see <see cref="TimerEngine"/>); cancelling goes to the entry's own shard. No
/// operation takes more than one shard's lock, and none takes a process-wide lock.
/// </summary>
internal sealed class TimerShard
{
    /// <summary>
    /// Free entries kept per shard. Steady-state schedule+cancel reuses them, so it allocates nothing; past this many,
    /// released entries are left to the GC, so a burst of a million timers does not pin a million entries forever.
    /// </summary>
    private const int MaxPooledEntries = 1024;

    /// <summary>
    /// Timeout buckets remembered per shard, indexed by due tick modulo this size (a power of two). Callers with the
    /// same timeout land on the same tick, so one slot serves them all; distinct timeouts use distinct slots unless
    /// their ticks differ by a multiple of it, when they replace each other's bucket and allocate one more per tick.
    /// 64 slots cost 512 bytes per shard.
    /// </summary>
    private const int BucketSlots = 64;

    private readonly TimeoutBucket?[] _buckets = new TimeoutBucket?[BucketSlots];

    // The shard's lock: a compare-exchange flag, not a Monitor. It is held for a few dozen instructions (link, unlink,
    // pool), where an uncontended Monitor enter+exit costs twice a compare-exchange (~22 ns against ~11 ns on .NET 10,
    // ~35 ns against ~9 ns on Mono: docs/runtime.md, "Where the time and bytes go"). Contended, it spins, then yields.
    private int _lock;
    private readonly TimingWheel _wheel;
    private TimerEntry? _pool;
    private int _pooled;

    // Lifetime counts for the metrics (TimerMetrics): plain increments under _lock, read racily without it.
    private long _scheduled;
    private long _fired;
    private long _cancelled;

    public TimerShard(long currentTick) => _wheel = new TimingWheel(currentTick);

    /// <summary>Entries linked in this shard's wheel (a racy read outside the lock; exact under it).</summary>
    public int PendingCount => _wheel.Count;

    /// <summary>Entries linked since creation (racy read).</summary>
    public long ScheduledCount => Volatile.Read(ref _scheduled);

    /// <summary>Entries expired and dispatched since creation (racy read).</summary>
    public long FiredCount => Volatile.Read(ref _fired);

    /// <summary>Entries unlinked before expiry, by a cancel or a retraction, since creation (racy read).</summary>
    public long CancelledCount => Volatile.Read(ref _cancelled);

    /// <summary>Links a new entry for <paramref name="target"/> due at <paramref name="dueTick"/>.</summary>
    public TimerTicket Schedule(ITimerTarget target, long dueTick)
    {
        Enter();
        try
        {
            return ScheduleLocked(target, dueTick);
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>As <see cref="Schedule(ITimerTarget, long)"/>, writing the ticket to <paramref name="ticket"/> before the lock is released.</summary>
    public void Schedule(ITimerTarget target, long dueTick, ref TimerTicket ticket)
    {
        Enter();
        try
        {
            ticket = ScheduleLocked(target, dueTick);
        }
        finally
        {
            Exit();
        }
    }

    // Caller holds _lock.
    private TimerTicket ScheduleLocked(ITimerTarget target, long dueTick)
    {
        var entry = _pool;
        if (entry is null)
        {
            entry = new TimerEntry(this);
        }
        else
        {
            _pool = entry.Next;
            entry.Next = null;
            _pooled--;
        }

        entry.Target = target;
        entry.DueTick = dueTick;
        _wheel.Add(entry);
        _scheduled++;
        return new TimerTicket(entry, entry.Generation);
    }

    /// <summary>The cached bucket for <paramref name="dueTick"/>, or null; lock-free (buckets are immutable once published).</summary>
    public TimeoutBucket? FindBucket(long dueTick)
    {
        var bucket = Volatile.Read(ref _buckets[(int)dueTick & (BucketSlots - 1)]);
        return bucket is not null && bucket.DueTick == dueTick ? bucket : null;
    }

    /// <summary>The bucket for <paramref name="dueTick"/>, created and linked into the wheel if it is not cached yet.</summary>
    public TimeoutBucket AddBucket(long dueTick, out bool added)
    {
        Enter();
        try
        {
            ref var slot = ref _buckets[(int)dueTick & (BucketSlots - 1)];
            var bucket = slot;
            if (bucket is not null && bucket.DueTick == dueTick)
            {
                added = false;
                return bucket;
            }

            bucket = new TimeoutBucket(dueTick);
            ScheduleLocked(bucket, dueTick);
            Volatile.Write(ref slot, bucket);
            added = true;
            return bucket;
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>
    /// Unlinks the ticket's entry if it is still pending. Returns false when it already expired or was cancelled: the
    /// shard lock decides the race between cancel and expiry, so exactly one of them wins.
    /// </summary>
    public bool Cancel(TimerTicket ticket)
    {
        var entry = ticket.Entry!;
        Debug.Assert(ReferenceEquals(entry.Shard, this), "a ticket is cancelled on its entry's own shard");
        Enter();
        try
        {
            if (entry.Generation != ticket.Generation || entry.Slot < 0)
            {
                return false;
            }

            _wheel.Remove(entry);
            Release(entry);
            _cancelled++;
            return true;
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>
    /// Advances the wheel to <paramref name="nowTick"/>, appends (target, ticket) of every expired entry and releases
    /// the entries; returns the tick of the next non-empty slot. <paramref name="dueTicks"/>, when given, receives the
    /// due tick of each expired entry (for the lateness metric).
    /// </summary>
    public long Advance(long nowTick, List<TimerEntry> scratch, List<KeyValuePair<ITimerTarget, TimerTicket>> expired, List<long>? dueTicks = null)
    {
        Enter();
        try
        {
            scratch.Clear();
            _wheel.Advance(nowTick, scratch);
            foreach (var entry in scratch)
            {
                if (entry.DueTick > nowTick)
                {
                    // Retracted (see TimingWheel.Advance): its target is done with it, so nothing is dispatched.
                    Release(entry);
                    _cancelled++;
                    continue;
                }

                expired.Add(new KeyValuePair<ITimerTarget, TimerTicket>(entry.Target!, new TimerTicket(entry, entry.Generation)));
                dueTicks?.Add(entry.DueTick);
                Release(entry);
                _fired++;
            }

            scratch.Clear();
            return _wheel.NextOccupiedTick();
        }
        finally
        {
            Exit();
        }
    }

    private void Enter() => SpinFlag.Enter(ref _lock);

    private void Exit() => SpinFlag.Exit(ref _lock);

    private void Release(TimerEntry entry)
    {
        Debug.Assert(Volatile.Read(ref _lock) != 0, "entries are released under the shard lock");
        Debug.Assert(entry.Slot < 0 && entry.Previous is null && entry.Next is null, "only an unlinked entry is pooled");
        entry.Generation++;
        entry.Target = null;
        if (_pooled < MaxPooledEntries)
        {
            entry.Next = _pool;
            _pool = entry;
            _pooled++;
        }
    }
}
