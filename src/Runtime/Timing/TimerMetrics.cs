using System.Diagnostics.Metrics;

namespace CoarseTimers.Timing;

/// <summary>
/// The <see cref="System.Diagnostics.Metrics.Meter"/> of one engine: what <c>dotnet-counters monitor --counters
/// CoarseTimers</c> shows once timers have moved off the BCL (whose own timer count no longer sees them).
///
/// Cost when nobody listens: nothing on the schedule/cancel path beyond one plain increment of a shard-local counter
/// under the shard lock it already holds. The counts are observable instruments, read (without locks, so racy across
/// shards) only when a listener collects. Lateness is the one measurement taken per expiry; the driver records it only
/// while a listener has enabled <see cref="Lateness"/>, after releasing the shard locks.
/// </summary>
internal sealed class TimerMetrics
{
    /// <summary>The meter name of the process-wide engine (docs/runtime.md, "Metrics").</summary>
    public const string MeterName = "CoarseTimers";

    public TimerMetrics(TimerEngine engine, string meterName)
    {
        Meter = new Meter(meterName, typeof(TimerMetrics).Assembly.GetName().Version?.ToString());
        Meter.CreateObservableUpDownCounter("coarsetimers.timers.pending", () => (long)engine.PendingCount, "{timer}",
            "Timer entries waiting in the wheels (timers, timeout sources and shared timeout tokens not yet fired or cancelled).");
        Meter.CreateObservableCounter("coarsetimers.timers.scheduled", () => engine.ScheduledCount, "{timer}",
            "Timer entries scheduled since start (a rescheduled timer counts again; callers sharing a timeout token count once).");
        Meter.CreateObservableCounter("coarsetimers.timers.fired", () => engine.FiredCount, "{timer}",
            "Timer entries that expired and were dispatched since start.");
        Meter.CreateObservableCounter("coarsetimers.timers.cancelled", () => engine.CancelledCount, "{timer}",
            "Timer entries removed before expiry since start (cancelled, disposed, changed, or a timeout source cancelled early).");
        Meter.CreateObservableGauge("coarsetimers.shards", () => engine.ShardCount, "{shard}",
            "Shards of the engine, each with its own lock and wheel.");
        Lateness = Meter.CreateHistogram<double>("coarsetimers.timer.lateness", "ms",
            "How long after its due tick the driver expired an entry; rounding the due time up to a tick adds up to one resolution before that.");
    }

    public Meter Meter { get; }

    /// <summary>Recorded by the driver per expired entry, only while <see cref="Instrument.Enabled"/>.</summary>
    public Histogram<double> Lateness { get; }
}
