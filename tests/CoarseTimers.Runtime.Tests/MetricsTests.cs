using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Threading;
using CoarseTimers.Tests.Infrastructure;
using CoarseTimers.Timing;
using Xunit;

namespace CoarseTimers.Tests;

public class MetricsTests
{
    [Fact]
    public void Counts_follow_schedule_cancel_and_expiry()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 10, shardCount: 4);
        var metrics = engine.Engine.PublishMetrics("CoarseTimers.Tests." + Guid.NewGuid());
        using var recorder = new MetricRecorder(metrics.Meter);

        var target = new RecordingTarget();
        engine.Engine.Schedule(target, 20);
        engine.Engine.Schedule(target, 30);
        var cancelled = engine.Engine.Schedule(target, 40);
        engine.Engine.Schedule(target, 60_000);
        Assert.True(TimerEngine.Cancel(cancelled));

        var before = recorder.Collect();
        Assert.Equal(3, before["coarsetimers.timers.pending"]);
        Assert.Equal(4, before["coarsetimers.timers.scheduled"]);
        Assert.Equal(0, before["coarsetimers.timers.fired"]);
        Assert.Equal(1, before["coarsetimers.timers.cancelled"]);
        Assert.Equal(4, before["coarsetimers.shards"]);

        engine.Advance(35);
        var after = recorder.Collect();
        Assert.Equal(2, target.Count);
        Assert.Equal(1, after["coarsetimers.timers.pending"]);
        Assert.Equal(4, after["coarsetimers.timers.scheduled"]);
        Assert.Equal(2, after["coarsetimers.timers.fired"]);
        Assert.Equal(1, after["coarsetimers.timers.cancelled"]);
    }

    [Fact]
    public void Early_cancelled_timeout_source_counts_as_cancelled_not_fired()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 10);
        var metrics = engine.Engine.PublishMetrics("CoarseTimers.Tests." + Guid.NewGuid());
        using var recorder = new MetricRecorder(metrics.Meter);
        using var source = new CoarseCancellationTokenSource(engine.Engine, 10_000);

        // Cancel() is not virtual, so the engine learns of it when the driver next visits the entry's slot: one wheel
        // revolution (5.12 s at 10 ms), before the 10 s due time.
        source.Cancel();
        var pending = recorder.Collect();
        Assert.Equal(1, pending["coarsetimers.timers.pending"]);
        engine.Advance(6_000);

        var counts = recorder.Collect();
        Assert.Equal(0, counts["coarsetimers.timers.pending"]);
        Assert.Equal(0, counts["coarsetimers.timers.fired"]);
        Assert.Equal(1, counts["coarsetimers.timers.cancelled"]);
    }

    [Fact]
    public void Lateness_is_the_time_from_the_due_tick_to_expiry_and_is_recorded_only_while_enabled()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 10);
        var metrics = engine.Engine.PublishMetrics("CoarseTimers.Tests." + Guid.NewGuid());
        var target = new RecordingTarget();

        // Nobody listens: the timer fires and nothing is recorded.
        engine.Engine.Schedule(target, 10);
        engine.Advance(40);
        Assert.Equal(1, target.Count);
        Assert.False(metrics.Lateness.Enabled);

        using var recorder = new MetricRecorder(metrics.Meter);
        Assert.True(metrics.Lateness.Enabled);
        Assert.Empty(recorder.Lateness);

        // The clock starts on a tick boundary; a timely driver seals the entry at once, due 10 ms later on a tick
        // boundary; the driver then wakes 35 ms later: expired 25 ms past its due tick.
        engine.Engine.Schedule(target, 10);
        engine.Advance(0);
        engine.Jump(35);
        Assert.Equal(2, target.Count);
        var lateness = Assert.Single(recorder.Lateness);
        Assert.Equal(25.0, lateness, 6);
    }

    [Fact]
    public void Process_wide_engine_publishes_the_CoarseTimers_meter()
    {
        var names = new List<string>();
        using var listener = new MeterListener
        {
            InstrumentPublished = (instrument, l) =>
            {
                if (instrument.Meter.Name == TimerMetrics.MeterName)
                {
                    lock (names)
                    {
                        names.Add(instrument.Name);
                    }

                    l.EnableMeasurementEvents(instrument);
                }
            },
        };
        var pending = 0L;
        listener.SetMeasurementEventCallback<long>((instrument, value, _, _) =>
        {
            if (instrument.Name == "coarsetimers.timers.pending")
            {
                pending = value;
            }
        });
        listener.Start();
        using var stop = new CancellationTokenSource();
        var delay = CoarseTimer.Delay(TimeSpan.FromMinutes(10), stop.Token);

        listener.RecordObservableInstruments();

        Assert.Equal(TimerMetrics.MeterName, TimerEngine.Default.Metrics!.Meter.Name);
        Assert.Contains("coarsetimers.timers.pending", names);
        Assert.Contains("coarsetimers.timers.scheduled", names);
        Assert.Contains("coarsetimers.timers.fired", names);
        Assert.Contains("coarsetimers.timers.cancelled", names);
        Assert.Contains("coarsetimers.timer.lateness", names);
        Assert.Contains("coarsetimers.shards", names);
        Assert.True(pending >= 1, $"pending: {pending}");
        stop.Cancel();
        Assert.True(delay.IsCanceled);
    }

    /// <summary>Listens to one meter's instruments and reads them on demand.</summary>
    private sealed class MetricRecorder : IDisposable
    {
        private readonly MeterListener _listener = new();
        private readonly Dictionary<string, long> _last = new();

        public MetricRecorder(Meter meter)
        {
            _listener.InstrumentPublished = (instrument, listener) =>
            {
                if (ReferenceEquals(instrument.Meter, meter))
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            };
            _listener.SetMeasurementEventCallback<long>((instrument, value, _, _) => _last[instrument.Name] = value);
            _listener.SetMeasurementEventCallback<int>((instrument, value, _, _) => _last[instrument.Name] = value);
            _listener.SetMeasurementEventCallback<double>((instrument, value, _, _) => Lateness.Add(value));
            _listener.Start();
        }

        public List<double> Lateness { get; } = new();

        public Dictionary<string, long> Collect()
        {
            _last.Clear();
            _listener.RecordObservableInstruments();
            return new Dictionary<string, long>(_last);
        }

        public void Dispose() => _listener.Dispose();
    }
}
