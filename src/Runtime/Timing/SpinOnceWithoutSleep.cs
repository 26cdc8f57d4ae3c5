using System.Runtime.CompilerServices;
using System.Threading;

namespace CoarseTimers.Timing;

/// <summary>
/// One <see cref="SpinWait"/> step that never calls <c>Thread.Sleep(1)</c> (field report 5, docs/field-reports.md: on Windows that sleeps a whole
/// 15.6 ms clock tick). .NET has the switch built in; on .NET Framework a step that would yield or sleep yields instead.
/// </summary>
internal static class SpinOnceWithoutSleep
{
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Step(ref SpinWait spinner)
    {
#if NET
        spinner.SpinOnce(sleep1Threshold: -1);
#else
        if (spinner.NextSpinWillYield)
        {
            Thread.Yield();
        }
        else
        {
            spinner.SpinOnce();
        }
#endif
    }
}
