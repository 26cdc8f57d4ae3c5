using System;
using System.Threading;

namespace CoarseTimers.Timing;

/// <summary>
/// A number per thread, handed out round-robin, that picks the thread's shard. Unlike the processor id (what the BCL's
/// timer queues use), it spreads threads over every shard even when the process is pinned to a few processors.
/// </summary>
internal static class ThreadShardNumber
{
    private static int s_next;

    [ThreadStatic]
    private static int s_threadNumber;

    public static int Current
    {
        get
        {
            var number = s_threadNumber;
            if (number == 0)
            {
                number = Interlocked.Increment(ref s_next) & int.MaxValue;
                number = number == 0 ? 1 : number;
                s_threadNumber = number;
            }

            return number;
        }
    }
}
