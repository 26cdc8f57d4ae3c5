using System;
using System.Threading;
using System.Threading.Tasks;

namespace SampleService;

/// <summary>
/// Waits for a backend to come up before each batch of work: a condition that takes milliseconds, waited for with
/// SpinWait.
/// </summary>
internal sealed class ReadinessGate
{
    private volatile bool _ready;

    public void MarkReadySoon() => Task.Run(async () =>
    {
        await Task.Yield();
        Thread.Sleep(3);
        _ready = true;
    });

    public bool WaitForBackend() => SpinWait.SpinUntil(() => _ready, TimeSpan.FromSeconds(10));
}
