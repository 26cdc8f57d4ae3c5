using System;

namespace CoarseTimers.Timing;

/// <summary>
/// What this runtime's own <see cref="System.Threading.Timer"/> does where runtimes differ, so that a
/// <see cref="CoarseTimer"/> behaves as the timer it replaces on the runtime it runs on.
/// </summary>
internal static class RuntimeTimer
{
    /// <summary>
    /// Whether the runtime's timer runs its callback in the creator's <see cref="System.Threading.ExecutionContext"/>:
    /// .NET and .NET Framework capture it; Mono's timer (Mono 6.8, the runtime of Unity and Xamarin) queues its
    /// callbacks with <c>UnsafeQueueUserWorkItem</c> and flows nothing, so an <c>AsyncLocal</c> set by the creator reads
    /// null in the callback. Capturing there would change what a rewritten callback sees and, since Mono's public
    /// <c>ExecutionContext.Capture</c> allocates a copy per call, cost more bytes per timer than Mono's whole timer.
    /// </summary>
    public static readonly bool FlowsExecutionContext = Type.GetType("Mono.Runtime") is null;

#if NET
    /// <summary>Whether the timer APIs come from the .NET Framework reference source (never, on this build).</summary>
    public const bool HasReferenceSourceTimers = false;

    /// <summary>Whether this is .NET Framework (never, on this build).</summary>
    public const bool IsNetFramework = false;
#else
    /// <summary>
    /// Whether the timer APIs come from the .NET Framework reference source (.NET Framework and Mono, whose corlib is
    /// mscorlib), which checks some arguments in another order than .NET Core: <c>CancelAfter(int)</c> checks for
    /// disposal before its argument.
    /// </summary>
    public static readonly bool HasReferenceSourceTimers = typeof(object).Assembly.GetName().Name == "mscorlib";

    /// <summary>
    /// Whether this is .NET Framework: its <c>Timer(TimerCallback, object, TimeSpan, TimeSpan)</c> reports its arguments
    /// as <c>dueTm</c> and <c>periodTm</c>, every <c>Timer</c> constructor a null callback as <c>TimerCallback</c>, and
    /// <c>Change(TimeSpan, TimeSpan)</c> forwards to <c>Change(long, long)</c> (both signs, then both maxima). Mono's own
    /// <c>Timer</c> says <c>dueTime</c>, <c>period</c> and <c>callback</c>, as .NET Core's, and checks in its own order.
    /// </summary>
    public static readonly bool IsNetFramework = HasReferenceSourceTimers && Type.GetType("Mono.Runtime") is null;
#endif
}
