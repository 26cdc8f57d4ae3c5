using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace CoarseTimers.Timing;

/// <summary>
/// The coarse-timer engine: a power-of-two array of <see cref="TimerShard"/>s and one driver thread for all of them.
///
/// Why this shape: BCL timers meet on shared timer-queue locks (one global lock on .NET Framework, one per processor
/// on .NET Core, chosen by processor id so that affinity leaves some unused). Here a thread schedules into the shard
/// picked by a per-thread round-robin number, so every shard is used whatever the affinity, and a cancel touches only
/// the entry's own shard. The driver is the only thread that visits every shard, one lock at a time.
///
/// Driver protocol (tickless): the driver publishes in <see cref="_wakeAt"/> the clock time it will wake at, at the latest
/// (<see cref="long.MaxValue"/> when idle). A scheduler whose due tick is earlier lowers it with a compare-exchange and
/// signals the driver; later schedulers with later due ticks then need no signal. While the driver scans, the value is
/// <see cref="Scanning"/>: the first scheduler to see it replaces it and signals, the driver's own publish then fails,
/// and it scans again, so no expiry is missed. When a scan finds every wheel empty the driver lingers one
/// <see cref="DefaultLingerMilliseconds"/> period: schedule-then-cancel traffic (the common case) then costs no signal
/// per operation. Still idle after it, the driver thread ends (<see cref="TryEndDriver"/>) and the next schedule starts
/// another: an idle process has no wake-ups, and an engine nobody references (a dropped provider's) keeps no thread.
/// Expired targets are dispatched to the thread pool after the shard lock is released, so a slow or throwing
/// callback never delays the driver or other timers.
///
/// Ticks: the wheels tick every half resolution (<see cref="_tickUnits"/>), so that sealing below, which waits up to a
/// tick, plus rounding up to a tick stay within the one resolution of lateness the API promises.
///
/// Sealing (the hard part; its cost is the point of the package). A precise clock read costs ~23 ns on .NET 10, a
/// quarter of the BCL's whole <c>new CancellationTokenSource(t)</c> + <c>Dispose</c>, and a coarse clock
/// (<c>Environment.TickCount64</c>) lags by an unbounded time when its updater is descheduled, which would make a timer
/// early. So scheduling by a delay (<see cref="Schedule(ITimerTarget, long)"/>: timeout sources, delays) reads no clock:
/// the entry waits <em>unsealed</em> in its shard's list with its delay. While any wait, the driver seals every shard
/// once a tick: under the shard's lock it reads the clock and moves each unsealed entry into the wheel, due its delay
/// after that reading. Never early: the entry was linked under the same lock before that reading. At most one
/// resolution late with a timely driver: at most a tick until the seal, less than a tick of rounding. Most such
/// entries are cancelled before they are ever sealed. Periodic timers schedule at a time they compute
/// (<see cref="ScheduleAt(ITimerTarget, long)"/>) and go straight into the wheel.
/// Timeout tokens (<see cref="TimeoutToken(long)"/>) read no clock either: a caller reads a counter the driver
/// publishes, the token <em>epoch</em>, incremented before each seal, and takes the bucket of (epoch, timeout) from its
/// thread's last bucket or its shard, creating it unsealed if needed. A caller that read epoch e read it before the increment to e + 1, so before
/// every sealing reading of round e + 1 and later; a bucket of epoch e is sealed by one of those, never by a seal of round
/// e itself: a caller that read e right after its increment may create the bucket before the driver reaches its shard,
/// and a caller of e after that shard's reading would then be early, so the seal of round e leaves such a bucket
/// unsealed for the next. A bucket created late by a descheduled caller of an older epoch is sealed by the next seal.
/// Cost: the driver wakes once a tick while entries wait unsealed; an idle process has no wake-ups.
/// </summary>
internal sealed class TimerEngine
{
    private const long Scanning = long.MinValue;

    /// <summary>
    /// How long the driver keeps a wake-up scheduled after finding nothing pending, before its thread ends (the next
    /// schedule starts another). Tests pass a shorter one.
    /// </summary>
    private const long DefaultLingerMilliseconds = 1000;

    /// <summary>
    /// Capacity past which the driver's scan buffers are dropped after use, so a burst of expiries does not keep its
    /// peak-sized arrays for the life of the process; below it they are reused and a scan allocates nothing.
    /// </summary>
    private const int RetainedBufferCapacity = 1024;

    private static TimerEngine? s_default;

    // The bucket this thread's last timeout token came from (TimeoutToken): one per thread, replaced at its next epoch.
    [ThreadStatic]
    private static TimeoutBucket? s_lastBucket;

    private readonly TimerShard[] _shards;
    private readonly int _shardMask;
    private readonly long _tickUnits;
    private readonly bool _inlineCallbacks;
    private readonly AutoResetEvent _wake = new(false);
    private readonly object _scanLock = new();
    private readonly List<long> _expiredDueTicks = new();
    private readonly object _driverStartLock = new();
    private readonly long _lingerMilliseconds;
    private readonly bool _stopwatchClock;
    private readonly long _unitsPerMillisecond;

    // Sealing (class doc): the token epoch, when the driver last sealed, and whether unsealed entries wait.
    private long _epoch;
    private long _sealedAt;
    private int _sealPending;

    // The clock time (units) the driver will wake at, at the latest; long.MaxValue when idle, Scanning while it scans.
    private long _wakeAt = long.MaxValue;
    private Thread? _driver;

    // Guarded by _scanLock: the scan's buffers. The expired list is handed to the dispatch and comes back as the
    // spare, so a tick with expiries allocates no list; one grown past RetainedBufferCapacity by a burst is dropped.
    private List<TimerEntry> _scratch = new();
    private List<KeyValuePair<ITimerTarget, TimerTicket>> _expired = new();
    private List<KeyValuePair<ITimerTarget, TimerTicket>>? _spare = new();

    /// <summary>Whether expiries run inline in <see cref="ProcessDue"/> (a test engine) rather than as thread-pool work items.</summary>
    internal bool RunsCallbacksInline => _inlineCallbacks;

    /// <summary>The largest capacity the scan's buffers hold on to between scans (tests: a burst must not be retained).</summary>
    internal int RetainedScanCapacity
    {
        get
        {
            lock (_scanLock)
            {
                return Math.Max(_scratch.Capacity, Math.Max(_expired.Capacity, _spare?.Capacity ?? 0));
            }
        }
    }

    /// <summary>Creates an engine. <paramref name="inlineCallbacks"/> and no driver thread: tests call <see cref="ProcessDue"/>.</summary>
    internal TimerEngine(CoarseTimerOptions options, TimerClock clock, bool runDriver = true, bool inlineCallbacks = false, long lingerMilliseconds = DefaultLingerMilliseconds)
    {
        _lingerMilliseconds = lingerMilliseconds;
        Clock = clock;
        _stopwatchClock = clock is StopwatchClock;
        _unitsPerMillisecond = clock.Frequency % 1000 == 0 ? clock.Frequency / 1000 : 0;
        Resolution = options.Resolution;
        _tickUnits = Math.Max(1, clock.FromMilliseconds((long)options.Resolution.TotalMilliseconds) / 2);
        _inlineCallbacks = inlineCallbacks;
        RunsDriver = runDriver;
        var now = Now();
        _shards = new TimerShard[options.EffectiveShardCount];
        for (var i = 0; i < _shards.Length; i++)
        {
            _shards[i] = new TimerShard(now / _tickUnits, this, _tickUnits);
        }

        _shardMask = _shards.Length - 1;
    }

    /// <summary>
    /// The process-wide engine, configured from the environment (<see cref="CoarseTimerOptions"/>); it publishes the
    /// <see cref="TimerMetrics.MeterName"/> meter when it is created.
    /// </summary>
    public static TimerEngine Default => Volatile.Read(ref s_default) ?? CreateDefault();

    /// <summary>
    /// Whether timers of this engine run their callbacks in their creator's ExecutionContext: as the runtime's own timer
    /// (<see cref="RuntimeTimer.FlowsExecutionContext"/>); tests set it to run the capturing path on every runtime.
    /// </summary>
    internal bool TimersFlowExecutionContext { get; set; } = RuntimeTimer.FlowsExecutionContext;

    /// <summary>The meter of this engine, or null (engines made by tests publish none unless they ask).</summary>
    internal TimerMetrics? Metrics { get; private set; }

    public TimerClock Clock { get; }

    public TimeSpan Resolution { get; }

    /// <summary>Shards in this engine (reported by the metrics).</summary>
    public int ShardCount => _shards.Length;

    internal bool RunsDriver { get; }

    /// <summary>Entries pending in all shards (racy across shards; exact when nothing runs concurrently).</summary>
    internal int PendingCount
    {
        get
        {
            var count = 0;
            foreach (var shard in _shards)
            {
                count += shard.PendingCount;
            }

            return count;
        }
    }

    /// <summary>Entries scheduled in all shards since creation (racy across shards).</summary>
    internal long ScheduledCount => SumOverShards(static shard => shard.ScheduledCount);

    /// <summary>Entries expired and dispatched in all shards since creation (racy across shards).</summary>
    internal long FiredCount => SumOverShards(static shard => shard.FiredCount);

    /// <summary>Entries removed before expiry in all shards since creation (racy across shards).</summary>
    internal long CancelledCount => SumOverShards(static shard => shard.CancelledCount);

    /// <summary>Publishes this engine's instruments under <paramref name="meterName"/> (once per engine).</summary>
    internal TimerMetrics PublishMetrics(string meterName) => Metrics ??= new TimerMetrics(this, meterName);

    // Read by the metrics only, when a listener collects.
    private long SumOverShards(Func<TimerShard, long> count)
    {
        long sum = 0;
        foreach (var shard in _shards)
        {
            sum += count(shard);
        }

        return sum;
    }

    private static TimerEngine CreateDefault()
    {
        var engine = new TimerEngine(CoarseTimerOptions.FromEnvironment(), StopwatchClock.Instance);
        var existing = Interlocked.CompareExchange(ref s_default, engine, null);
        if (existing is not null)
        {
            return existing;
        }

        engine.PublishMetrics(TimerMetrics.MeterName);
        return engine;
    }

    /// <summary>
    /// Schedules <paramref name="target"/> to expire <paramref name="dueMilliseconds"/> (0 to 0xFFFFFFFE) after now, never
    /// earlier, at most one resolution later with a timely driver: unsealed, reading no clock (class doc, "Sealing").
    /// </summary>
    public TimerTicket Schedule(ITimerTarget target, long dueMilliseconds)
    {
        var ticket = CurrentShard.ScheduleDeferred(target, dueMilliseconds);
        NoteUnsealed();
        return ticket;
    }

    /// <summary>
    /// As <see cref="Schedule(ITimerTarget, long)"/>, on <paramref name="shard"/> (a target that keeps its expiries on one
    /// shard, a <see cref="CoarseTimers.CoarseCancellationTokenSource"/>), storing the ticket in <paramref name="ticket"/>
    /// under the shard lock, before the entry can expire: an expiry is dispatched only after the driver took that lock,
    /// so the target sees its ticket without a lock of its own. For a target scheduling from its constructor, when
    /// nothing else can reach it yet.
    /// </summary>
    public void Schedule(TimerShard shard, ITimerTarget target, long dueMilliseconds, ref TimerTicket ticket)
    {
        shard.ScheduleDeferred(target, dueMilliseconds, ref ticket);
        NoteUnsealed();
    }

    /// <summary>
    /// Schedules <paramref name="entry"/>, an entry that is its own target (a one-shot <see cref="CoarseTimers.CoarseTimer"/>),
    /// as <see cref="Schedule(ITimerTarget, long)"/> schedules a target, in the entry's own shard; the generation that
    /// identifies this expiry is written to <paramref name="generation"/> under the shard lock, as a ticket is by
    /// <see cref="Schedule(TimerShard, ITimerTarget, long, ref TimerTicket)"/>.
    /// </summary>
    public void Schedule(TimerEntry entry, long dueMilliseconds, ref int generation)
    {
        entry.Shard.ScheduleDeferred(entry, dueMilliseconds, ref generation);
        NoteUnsealed();
    }

    /// <summary>As <see cref="ScheduleAt(ITimerTarget, long)"/>, storing the ticket as <see cref="Schedule(TimerShard, ITimerTarget, long, ref TimerTicket)"/> does.</summary>
    public void ScheduleAt(ITimerTarget target, long dueTimestamp, ref TimerTicket ticket)
    {
        var dueTick = (dueTimestamp + _tickUnits - 1) / _tickUnits;
        CurrentShard.Schedule(target, dueTick, ref ticket);
        WakeDriverBy(dueTick * _tickUnits);
    }

    /// <summary>
    /// Schedules <paramref name="target"/> to expire at or after <paramref name="dueTimestamp"/> (in <see cref="Clock"/>
    /// units; a time already passed expires at the next tick). Periodic timers use it to count each period from the
    /// previous due time, not from when the callback ran, so lateness does not accumulate.
    /// </summary>
    public TimerTicket ScheduleAt(ITimerTarget target, long dueTimestamp)
    {
        var dueTick = (dueTimestamp + _tickUnits - 1) / _tickUnits;
        var ticket = CurrentShard.Schedule(target, dueTick);
        WakeDriverBy(dueTick * _tickUnits);
        return ticket;
    }

    /// <summary>
    /// A token cancelled at or after now + <paramref name="dueMilliseconds"/> (1 to 0xFFFFFFFE), at most one resolution
    /// later: the token of the calling thread's shard's bucket for the current epoch and this timeout (class doc,
    /// "Timeout tokens"). Every caller of the same epoch, timeout and shard gets the same token; only the first one
    /// allocates (see <see cref="TimeoutBucket"/>).
    /// </summary>
    public CancellationToken TimeoutToken(long dueMilliseconds) => TimeoutToken(Volatile.Read(ref _epoch), dueMilliseconds);

    /// <summary>The current token epoch (tests).</summary>
    internal long TokenEpoch => Volatile.Read(ref _epoch);

    /// <summary>
    /// <see cref="TimeoutToken(long)"/> for a caller that read <paramref name="epoch"/>, possibly long ago: tests pass a
    /// stale one to show that a caller descheduled across a seal still waits its whole timeout.
    /// </summary>
    internal CancellationToken TimeoutToken(long epoch, long dueMilliseconds)
    {
        // Perf: a caller usually asks for the timeout it asked for last, in the same epoch (a server's one request
        // timeout). The thread's last bucket answers that with one thread-static read and three compares, instead of
        // the shard and slot look-ups (~13% of the call on .NET 10). It is a bucket of this engine, epoch and timeout
        // from the thread's own shard (a thread keeps its shard): the one the shard's cache holds, or, if a colliding
        // bucket has since taken its slot, one just as valid, since any bucket of epoch e is sealed only by a reading
        // taken after e's increment. It holds one bucket, and through it its engine, per thread until the next call.
        var last = s_lastBucket;
        if (last is not null && last.Epoch == epoch && last.Milliseconds == dueMilliseconds && ReferenceEquals(last.Engine, this))
        {
            return last.Token;
        }

        var shard = CurrentShard;
        var bucket = shard.FindBucket(epoch, dueMilliseconds) ?? AddBucket(shard, epoch, dueMilliseconds);
        s_lastBucket = bucket;
        return bucket.Token;
    }

    private TimeoutBucket AddBucket(TimerShard shard, long epoch, long dueMilliseconds)
    {
        var bucket = shard.AddBucket(epoch, dueMilliseconds, out var created);
        if (created)
        {
            NoteUnsealed();
        }

        return bucket;
    }

    // Called after an unsealed entry was linked: a driver that cleared the flag before the link either sealed the shard
    // after it, or finds the flag set again here and seals a tick after its last seal. In steady traffic the flag is
    // already set: one read.
    /// <summary>Tells the driver an entry awaits sealing (after a schedule by delay, outside the shard lock).</summary>
    internal void NoteUnsealed()
    {
        if (Volatile.Read(ref _sealPending) == 0 && Interlocked.CompareExchange(ref _sealPending, 1, 0) == 0)
        {
            WakeDriverBy(Interlocked.Read(ref _sealedAt) + _tickUnits);
        }
    }

    // The calling thread's shard: where it schedules (cancels go to the entry's own shard).
    /// <summary>The shard the calling thread schedules into (a per-thread round-robin number: class doc).</summary>
    internal TimerShard CurrentShard => _shards[ThreadShardNumber.Current & _shardMask];

    /// <summary>The current timestamp of <see cref="Clock"/>; the production clock is read directly (a virtual call per schedule is measurable).</summary>
    public long Now() => _stopwatchClock ? Stopwatch.GetTimestamp() : Clock.GetTimestamp();

    /// <summary>
    /// <see cref="Clock"/> units covering <paramref name="milliseconds"/>, rounded up: one multiplication when the
    /// frequency allows (10^9 on Linux, 10^7 on Windows), instead of the general case's divisions.
    /// </summary>
    public long FromMilliseconds(long milliseconds) => _unitsPerMillisecond > 0 ? milliseconds * _unitsPerMillisecond : Clock.FromMilliseconds(milliseconds);

    // Lowers the driver's wake time to dueAt (clock units) and signals it, unless it already wakes by then.
    private void WakeDriverBy(long dueAt)
    {
        var wake = Volatile.Read(ref _wakeAt);
        while (wake == Scanning || dueAt < wake)
        {
            var seen = Interlocked.CompareExchange(ref _wakeAt, dueAt, wake);
            if (seen == wake)
            {
                WakeDriver();
                break;
            }

            wake = seen;
        }
    }

    /// <summary>Cancels a pending expiry; false if it already expired or was cancelled (see <see cref="TimerShard.Cancel(TimerTicket)"/>).</summary>
    public static bool Cancel(TimerTicket ticket) => !ticket.IsNone && ticket.Entry!.Shard.Cancel(ticket);

    /// <summary>Cancels the expiry of <paramref name="entry"/> numbered <paramref name="generation"/>, as <see cref="Cancel(TimerTicket)"/>.</summary>
    public static bool Cancel(TimerEntry entry, int generation) => entry.Shard.Cancel(entry, generation);

    /// <summary>
    /// Seals the unsealed entries when a tick has passed since the last seal (class doc, "Sealing"), expires everything due
    /// now and dispatches it; returns the clock time (units) of the next wake-up the driver needs, or
    /// <see cref="long.MaxValue"/>. The driver's loop body, and the test seam with a manual clock.
    /// </summary>
    internal long ProcessDue()
    {
        List<KeyValuePair<ITimerTarget, TimerTicket>> expired;
        long next;
        lock (_scanLock)
        {
            var now = Now();
            var sealedNow = false;
            if (Volatile.Read(ref _sealPending) != 0 && now - _sealedAt >= _tickUnits)
            {
                now = PublishEpochAndSeal();
                sealedNow = true;
            }

            var lateness = Metrics?.Lateness;
            var dueTicks = lateness is { Enabled: true } ? _expiredDueTicks : null;
            next = long.MaxValue;
            foreach (var shard in _shards)
            {
                var nextTick = shard.Advance(now / _tickUnits, _scratch, _expired, dueTicks);
                next = Math.Min(next, nextTick == long.MaxValue ? long.MaxValue : nextTick * _tickUnits);
            }

            if (sealedNow || Volatile.Read(ref _sealPending) != 0)
            {
                // Traffic that needed this seal likely goes on: waking for the next one anyway spares its first
                // scheduler a signal (at most one idle wake-up after the traffic stops).
                next = Math.Min(next, _sealedAt + _tickUnits);
            }

            if (dueTicks is not null)
            {
                // Outside the shard locks: a listener's callback never delays a scheduling thread.
                foreach (var dueTick in dueTicks)
                {
                    lateness!.Record((now - dueTick * _tickUnits) * 1000.0 / Clock.Frequency);
                }

                dueTicks.Clear();
            }

            if (_scratch.Capacity > RetainedBufferCapacity)
            {
                _scratch = new List<TimerEntry>();
            }

            if (_expired.Count == 0)
            {
                return next;
            }

            // Handed over, not copied: the next scan fills the spare list while this one is dispatched.
            expired = _expired;
            _expired = _spare ?? new List<KeyValuePair<ITimerTarget, TimerTicket>>();
            _spare = null;
        }

        // Outside every lock: a callback run inline (tests) may schedule, cancel, or even scan.
        foreach (var item in expired)
        {
            if (_inlineCallbacks)
            {
                item.Key.OnExpired(item.Value);
            }
            else
            {
#if NET
                // The generic overload takes the pair unboxed: one work item per expiry, nothing else.
                ThreadPool.UnsafeQueueUserWorkItem(static pair => pair.Key.OnExpired(pair.Value), item, preferLocal: false);
#else
                ThreadPool.UnsafeQueueUserWorkItem(static state =>
                {
                    var pair = (KeyValuePair<ITimerTarget, TimerTicket>)state!;
                    pair.Key.OnExpired(pair.Value);
                }, item);
#endif
            }
        }

        expired.Clear();
        if (expired.Capacity <= RetainedBufferCapacity)
        {
            lock (_scanLock)
            {
                _spare ??= expired;
            }
        }

        return next;
    }

    // Clears the flag, publishes the next token epoch, then seals every shard (each reads the clock under its lock): every
    // caller that read an earlier epoch did so before those readings (class doc, "Sealing"). Buckets of the epoch just
    // published stay unsealed until the next round, so the flag is set again for them.
    private long PublishEpochAndSeal()
    {
        Volatile.Write(ref _sealPending, 0);
        var epoch = Interlocked.Increment(ref _epoch);
        var sealedAt = Now();
        Interlocked.Exchange(ref _sealedAt, sealedAt);
        var unsealedLeft = false;
        foreach (var shard in _shards)
        {
            unsealedLeft |= shard.Seal(this, _tickUnits, epoch);
        }

        if (unsealedLeft)
        {
            Volatile.Write(ref _sealPending, 1);
        }

        return Now();
    }

    private void WakeDriver()
    {
        if (!RunsDriver)
        {
            return;
        }

        var driver = Volatile.Read(ref _driver);
        if (driver is null)
        {
            StartDriver();
        }
        else if (driver == Thread.CurrentThread)
        {
            // A callback run inline by the driver (an engine with inline callbacks) rescheduled: the driver's publish
            // will fail on the tick just written and it scans again, so signalling itself would only cost a syscall.
            return;
        }

        _wake.Set();
    }

    private void StartDriver()
    {
        lock (_driverStartLock)
        {
            if (_driver is not null)
            {
                return;
            }

            // A plain background thread: it blocks in WaitOne most of the time, so it must not occupy a pool thread.
            var driver = new Thread(DriverLoop) { IsBackground = true, Name = "CoarseTimers driver" };
#if NET
            driver.UnsafeStart();
#else
            using (ExecutionContext.SuppressFlow())
            {
                driver.Start();
            }
#endif
            Volatile.Write(ref _driver, driver);
        }
    }

    // Called by the driver with nothing pending after its linger: ends the thread unless a schedule arrived. Dekker
    // with WakeDriver: the driver clears _driver then reads _wakeAt; a scheduler writes _wakeAt then reads _driver.
    // One of them sees the other's write, so either the driver stays or the scheduler starts a new one; under the start
    // lock, so no second driver starts while this one decides.
    private bool TryEndDriver()
    {
        lock (_driverStartLock)
        {
            var self = _driver;
            Volatile.Write(ref _driver, null);
            Interlocked.MemoryBarrier();
            if (Volatile.Read(ref _wakeAt) == long.MaxValue)
            {
                return true;
            }

            Volatile.Write(ref _driver, self);
            return false;
        }
    }

    private void DriverLoop()
    {
        var lingered = false;
        while (true)
        {
            Volatile.Write(ref _wakeAt, Scanning);
            var next = ProcessDue();
            if (next == long.MaxValue && !lingered)
            {
                next = Now() + Clock.FromMilliseconds(_lingerMilliseconds);
                lingered = true;
            }
            else if (next != long.MaxValue)
            {
                lingered = false;
            }

            if (Interlocked.CompareExchange(ref _wakeAt, next, Scanning) != Scanning)
            {
                // A schedule during the scan published its own tick and signalled: scan again.
                continue;
            }

            if (next == long.MaxValue)
            {
                // Idle after the linger: the thread ends, so an engine nobody uses any more (a dropped
                // CoarseTimeProvider's) keeps no thread and can be collected. The next schedule starts a driver again.
                if (TryEndDriver())
                {
                    return;
                }

                lingered = false;
                continue;
            }

            var waitUnits = next - Now();
            if (waitUnits > 0)
            {
                var waitMilliseconds = Clock.ToMillisecondsCeiling(waitUnits);
                _wake.WaitOne((int)Math.Min(waitMilliseconds, int.MaxValue - 1));
            }
        }
    }
}
