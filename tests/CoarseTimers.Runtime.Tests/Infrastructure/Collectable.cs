using System;
using System.Threading;

namespace CoarseTimers.Tests.Infrastructure;

/// <summary>Whether what a piece of code leaves behind can be collected once that code has finished.</summary>
internal static class Collectable
{
    /// <summary>
    /// Runs <paramref name="create"/> on a thread of its own (so no stale slot of the test thread's stack keeps its
    /// result alive, even under Mono's conservative stack scanning), then collects and reports whether the object it
    /// returned is gone.
    /// </summary>
    public static bool IsCollectedAfter(Func<object> create)
    {
        WeakReference? weak = null;
        var thread = new Thread(() => weak = new WeakReference(create()));
        thread.Start();
        thread.Join();
        for (var i = 0; i < 3 && weak!.IsAlive; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }

        return !weak!.IsAlive;
    }
}
