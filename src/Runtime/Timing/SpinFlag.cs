using System.Runtime.CompilerServices;
using System.Threading;

namespace CoarseTimers.Timing;

/// <summary>
/// A lock that is one <see cref="int"/> field of the object it guards: taken with a compare-exchange, released with a
/// volatile write, spinning (never sleeping, see <see cref="SpinOnceWithoutSleep"/>) when contended. For state held a
/// few dozen instructions at a time by at most a handful of racing threads (a timer's owner, the expiry, a Dispose):
/// uncontended it costs about half a Monitor enter+exit (~11 ns against ~28 ns on .NET 10, ~9 ns against ~41 ns on
/// Mono: docs/runtime.md, "Where the time and bytes go") and needs no sync block or lock object. Not reentrant.
/// </summary>
internal static class SpinFlag
{
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Enter(ref int flag)
    {
        if (Interlocked.CompareExchange(ref flag, 1, 0) != 0)
        {
            EnterContended(ref flag);
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Exit(ref int flag) => Volatile.Write(ref flag, 0);

    /// <summary>Whether the flag is held (by anyone: for assertions).</summary>
    public static bool IsHeld(ref int flag) => Volatile.Read(ref flag) != 0;

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void EnterContended(ref int flag)
    {
        var spinner = default(SpinWait);
        do
        {
            SpinOnceWithoutSleep.Step(ref spinner);
        }
        while (Volatile.Read(ref flag) != 0 || Interlocked.CompareExchange(ref flag, 1, 0) != 0);
    }
}
