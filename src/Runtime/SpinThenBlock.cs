using System;

// Stub: member docs arrive with the implementation.
#pragma warning disable CS1591

namespace CoarseTimers;

/// <summary>
/// CONTRACT STUB: drop-in replacement for <see cref="System.Threading.SpinWait.SpinUntil(Func{bool})"/> and its
/// overloads: bounded spin, then block (issue: "Runtime: the bounded spin-then-block waiter").
/// </summary>
public static class SpinThenBlock
{
    public static void SpinUntil(Func<bool> condition) => throw new NotImplementedException();

    public static bool SpinUntil(Func<bool> condition, TimeSpan timeout) => throw new NotImplementedException();

    public static bool SpinUntil(Func<bool> condition, int millisecondsTimeout) => throw new NotImplementedException();
}
