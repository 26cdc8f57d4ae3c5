using System;

namespace CoarseTimers;

/// <summary>
/// Tuning knobs of a coarse-timer engine. The process-wide engine behind <see cref="CoarseTimer"/>,
/// <see cref="CoarseCancellationTokenSource"/> and <see cref="CoarseTimeProvider.Shared"/> reads them from the
/// environment variables <c>COARSETIMERS_RESOLUTION_MS</c> and <c>COARSETIMERS_SHARD_COUNT</c>, or from the
/// <c>AppContext</c> data <c>CoarseTimers.ResolutionMilliseconds</c> and <c>CoarseTimers.ShardCount</c>
/// (<c>&lt;RuntimeHostConfigurationOption&gt;</c> in a project file); the environment wins.
/// </summary>
public sealed class CoarseTimerOptions
{
    /// <summary>The default resolution, 10 ms. Why: docs/runtime.md, "Resolution".</summary>
    public static readonly TimeSpan DefaultResolution = TimeSpan.FromMilliseconds(10);

    private TimeSpan _resolution = DefaultResolution;
    private int _shardCount;

    /// <summary>
    /// The wheel's tick. A timer fires no earlier than asked and at most one resolution (plus scheduling latency) later.
    /// Coarser means fewer driver wake-ups; finer means less lateness. From 1 ms to 1 s; default 10 ms.
    /// </summary>
    public TimeSpan Resolution
    {
        get => _resolution;
        set
        {
            if (value < TimeSpan.FromMilliseconds(1) || value > TimeSpan.FromSeconds(1))
            {
                throw new ArgumentOutOfRangeException(nameof(value), value, "The resolution must be between 1 ms and 1 s.");
            }

            _resolution = value;
        }
    }

    /// <summary>
    /// Shards, each with its own lock and wheel (about 18 KB). Rounded up to a power of two, at most 64. 0 (the default)
    /// means <see cref="ShardsPerProcessor"/> per processor: a thread keeps the shard its number picks, so with one shard
    /// per processor two threads that run at once share a lock half the time on 2 cores, and when one is preempted
    /// holding it the other spins (CoarseTimer.Delay at 8 threads on 2 cores: 10.4 M ops/s with 2 shards, 12.9 with
    /// 8, 13.2 with 16, medians of alternated runs, docs/benchmarks.md).
    /// </summary>
    public int ShardCount
    {
        get => _shardCount;
        set
        {
            if (value < 0 || value > MaxShardCount)
            {
                throw new ArgumentOutOfRangeException(nameof(value), value, $"The shard count must be between 0 (automatic) and {MaxShardCount}.");
            }

            _shardCount = value;
        }
    }

    internal const int MaxShardCount = 64;

    /// <summary>Default shards per processor (<see cref="ShardCount"/>).</summary>
    internal const int ShardsPerProcessor = 4;

    internal int EffectiveShardCount => EffectiveShardCountFor(Environment.ProcessorCount);

    /// <summary>The shard count on a machine of <paramref name="processors"/> processors (tests).</summary>
    internal int EffectiveShardCountFor(int processors)
    {
        var wanted = _shardCount == 0 ? processors * ShardsPerProcessor : _shardCount;
        var count = 1;
        while (count < wanted && count < MaxShardCount)
        {
            count <<= 1;
        }

        return count;
    }

    /// <summary>The options of the process-wide engine: defaults, overridden by AppContext data, then by the environment.</summary>
    internal static CoarseTimerOptions FromEnvironment()
    {
        var options = new CoarseTimerOptions();
        if (ReadSetting("COARSETIMERS_RESOLUTION_MS", "CoarseTimers.ResolutionMilliseconds") is int ms && ms >= 1 && ms <= 1000)
        {
            options.Resolution = TimeSpan.FromMilliseconds(ms);
        }

        if (ReadSetting("COARSETIMERS_SHARD_COUNT", "CoarseTimers.ShardCount") is int shards && shards >= 0 && shards <= MaxShardCount)
        {
            options.ShardCount = shards;
        }

        return options;
    }

    // A bad value is ignored (the default stays): a typo in a deployment setting must not stop the process.
    private static int? ReadSetting(string environmentVariable, string appContextName)
    {
        var text = Environment.GetEnvironmentVariable(environmentVariable) ?? AppContext.GetData(appContextName)?.ToString();
        return int.TryParse(text, System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var value)
            ? value
            : null;
    }

    internal CoarseTimerOptions Clone() => new() { _resolution = _resolution, _shardCount = _shardCount };
}
