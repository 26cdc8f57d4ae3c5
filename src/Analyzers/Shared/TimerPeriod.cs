namespace CoarseTimers.Analyzers.Shared;

/// <summary>Whether a <c>new Timer(...)</c> repeats, from its period argument (<see cref="TimerLifetime.PeriodOf(Microsoft.CodeAnalysis.IOperation, KnownSymbols)"/>).</summary>
internal enum TimerPeriod
{
    /// <summary>A period that is not a constant: a caller's, a field's.</summary>
    Unknown,

    /// <summary>No period, infinite or 0: the timer fires at most once.</summary>
    OneShot,

    /// <summary>A positive constant period.</summary>
    Repeats,
}
